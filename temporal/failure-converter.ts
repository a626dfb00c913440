import { DefaultFailureConverter } from '@temporalio/common';

/**
 * Failure messages and stack traces are moved into an encoded payload, so the codec encrypts them
 * too (a backend's error text can name its host). Loaded by path inside the workflow sandbox.
 */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
