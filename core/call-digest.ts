import { createHash } from 'node:crypto';

/** A JSON value with its objects' keys sorted, so the same value sent in another key order is the same. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * Which call a run's answer answers: a digest of the request the API sent the run, whoever sent
 * it (the actor is left out), computed alike by the worker that keeps the answer and the API that
 * collects it for a repeat (apps/api/lost-answers.ts). A call asking something else of the object
 * (a broker account's new patterns, a restore) is another call, and collects nothing.
 */
export function callDigest(request: unknown): string {
  const { actor: _actor, ...asked } = (request ?? {}) as Record<string, unknown>;
  return createHash('sha256')
    .update(JSON.stringify(canonical(asked)))
    .digest('base64url');
}
