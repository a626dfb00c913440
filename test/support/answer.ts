import { expect } from 'vitest';

/**
 * What a call answered, for an assertion's message: its status, its error text, each step it
 * reports, the failure the body names, and the service's last warnings when given its log. Never the body itself: a 502
 * carries the tenant's secrets. A failed step's cause is only in the service log (the spec).
 */
export function answerOf(res: { status: number; body: any }, logs: string[] = []): string {
  const object = res.body && typeof res.body === 'object' ? res.body : {};
  const inner = Object.values(object).find((v: any) => v && typeof v === 'object' && Array.isArray(v.steps)) as any;
  const steps: any[] = Array.isArray(object.steps) ? object.steps : (inner?.steps ?? []);
  const said = steps.map((s) => `${s.name}:${s.ok ? 'ok' : 'failed'}`).join(' ');
  const warned = logs.filter((l) => /"level":(40|50|60)\b/.test(l)).slice(-6);
  // The failed step with what the backend answered: the service keeps hosts and secrets out of it.
  const failure = object.failure ? `, failure ${JSON.stringify(object.failure)}` : '';
  return [
    `answered ${res.status}${typeof object.error === 'string' ? ` (${object.error})` : ''}${failure}${said ? `, steps ${said}` : ''}`,
    ...warned.map((l) => `  log: ${l.slice(0, 600)}`),
  ].join('\n');
}

/**
 * Checks a call's status and hands the answer on; a wrong status fails with `answerOf` (the failed
 * step, the error, the service's last warnings when given its log), not a bare "expected 502 to be 201".
 */
export function expectStatus<R extends { status: number; body: any }>(res: R, status: number, logs?: string[]): R {
  expect(res.status, answerOf(res, logs)).toBe(status);
  return res;
}
