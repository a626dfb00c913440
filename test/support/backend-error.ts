import { expect } from 'vitest';
import { BackendError } from '../../core/backend-outcome.js';

/** The BackendError a call fails with; the test fails if it succeeds or throws anything else. */
export async function backendError(p: Promise<unknown>): Promise<BackendError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(BackendError);
  return e as BackendError;
}

/** What a call failed with, as a BackendError; undefined when it succeeded. */
export const failureOf = (p: Promise<unknown>): Promise<BackendError | undefined> =>
  p.then(
    () => undefined,
    (e: unknown) => e as BackendError,
  );
