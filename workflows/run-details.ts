import type { RunFailure } from '../core/object-life.js';

/**
 * A parked run's current details (Temporal's user metadata, the "Current Details" of the UI's run
 * page, `temporal workflow metadata`): what failed comes first, in one line an engineer reads
 * without opening the timeline or scrolling past a stack trace (the step, the backend, its status
 * and answer, as the activity reported them: no host, no secret, activities/step-failure.ts), then
 * what the run waits for. Markdown, as the UI renders it. Pure, so a replay computes the same text.
 */
export function parkedDetails(p: { step: string; failure?: RunFailure; until: string; call: string }): string {
  const f = p.failure;
  const by = f?.backend ? ` ${f.backend} answered${f.status ? ` ${f.status}` : ''}` : '';
  const answer = f?.answer ? `: ${oneLine(f.answer)}` : '';
  return [
    `**Step \`${p.step}\` failed**${by ? ` —${by}` : ''}${answer}`,
    '',
    `Parked after step \`${p.step}\` failed; waiting until ${p.until} for a repeat of the ${p.call}, which resumes from that step.`,
  ].join('\n');
}

/** The UI shows the details' first line as the run's summary; a long answer is cut there (the full one is in the failed activity). */
const ANSWER_CHARS = 300;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ANSWER_CHARS ? `${flat.slice(0, ANSWER_CHARS - 1)}…` : flat;
}
