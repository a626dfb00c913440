/**
 * A run's business refusal: the request is wrong or conflicts with what exists. Not a failure (no
 * backend was at fault, nothing to retry); the API answers it with the status of its `error`
 * (apps/api/errors.ts `fromRefusal`). One shape for every workflow that refuses.
 */
export type Refusal = { kind: 'refused'; error: 'bad_request' | 'conflict' | 'not_found'; message: string };
