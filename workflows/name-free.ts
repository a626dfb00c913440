import type { Refusal } from '../core/refusal.js';
import { runStep, type StepAbout } from './run-step.js';

/**
 * A new workload's or record's name must also be free in the tenant zone: the tenant may have
 * published it with its own key. Undefined when it is free, else what the attempt answers.
 */
export async function nameTaken(
  at: { tenant: string; index: number; name: string },
  about: StepAbout,
): Promise<{ kind: 'failed'; step: 'dns' } | Refusal | undefined> {
  const free = await runStep('dns.check-name', [at], about);
  if (!free.ok) return { kind: 'failed', step: 'dns' };
  if (free.value) return undefined;
  return {
    kind: 'refused',
    error: 'bad_request',
    message: `"${at.name}" is already published in the tenant zone by the tenant itself; remove it or choose another name`,
  };
}
