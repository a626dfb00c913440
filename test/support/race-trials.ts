/**
 * Races of two calls, and the proof that they took place (issue 29): each call's start and end are
 * recorded, and a trial counts as a race only when the two calls were in flight together. Used by
 * test/reliability/races.test.ts (operations on one tenant at once) and test/e2e/object-life.test.ts
 * (a prune beside the repeat of a parked create).
 */

/** A call's answer with when it was sent and when its answer was back (performance.now(), ms). */
export async function timed<A>(send: () => Promise<A>): Promise<{ answer: A; start: number; end: number }> {
  const start = performance.now();
  const answer = await send();
  return { answer, start, end: performance.now() };
}

/** How long two calls were both in flight (ms); 0 or less when one ended before the other began. */
export const overlapMs = (x: { start: number; end: number }, y: { start: number; end: number }) => Math.min(x.end, y.end) - Math.max(x.start, y.start);

/**
 * Runs trials in `lanes` until at least `wanted` have run and at least `needed` of them
 * overlapped (`overlapped()` counts them), at most `max`: a lane starts another trial while the
 * pair is short of its trials, or of overlapping ones counting those still in flight, so a trial
 * that did not overlap is made up for by another.
 */
export async function trialsUntilOverlapped(opts: {
  wanted: number;
  needed: number;
  max: number;
  lanes: number;
  overlapped: () => number;
  trial: (i: number) => Promise<void>;
}): Promise<void> {
  let started = 0;
  let inFlight = 0;
  const another = () => started < opts.wanted || (opts.overlapped() + inFlight < opts.needed && started < opts.max);
  // Lanes that stopped while a trial was in flight that then did not overlap start again.
  while (another())
    await Promise.all(
      Array.from({ length: opts.lanes }, async () => {
        while (another()) {
          const i = started++;
          inFlight++;
          try {
            await opts.trial(i);
          } finally {
            inFlight--;
          }
        }
      }),
    );
}
