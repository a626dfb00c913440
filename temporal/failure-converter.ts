import { DefaultFailureConverter, type PayloadConverter, type ProtoFailure, type SerializationContext } from '@temporalio/common';

/**
 * Failure messages and stack traces are moved into an encoded payload, so the codec encrypts them
 * too (a backend's error text can name its host). Loaded by path inside the workflow sandbox.
 *
 * A message the service writes itself from a step's name alone (`backend step "dns" failed`, what
 * the API's 502 says too) stays readable besides, so the Temporal UI's collapsed failure row and
 * `temporal workflow list` say which step failed without the codec; what the backend answered
 * stays in the encoded cause and details.
 */
const CLEAR_MESSAGES = [
  /^backend step "[a-z][a-z0-9-]{0,31}" failed$/,
  /^gave up: step "[a-z][a-z0-9-]{0,31}" failed and no repeat of the [a-z -]{1,40} came within \d+ s$/,
];

class StepFailureConverter extends DefaultFailureConverter {
  override errorToFailure(err: unknown, payloadConverter: PayloadConverter, context?: SerializationContext): ProtoFailure {
    const failure = super.errorToFailure(err, payloadConverter, context);
    const message = err instanceof Error ? err.message : undefined;
    if (message !== undefined && CLEAR_MESSAGES.some((m) => m.test(message))) failure.message = message;
    return failure;
  }
}

export const failureConverter = new StepFailureConverter({ encodeCommonAttributes: true });
