import { failedStepOf, isStepFailure } from './failures.js';
import type { BackendStep } from '../contracts/device-address.js';

/**
 * The step a failed device or Wi-Fi activity names (its ApplicationFailure carries it in its
 * details), or `fallback` when the failure came from elsewhere (a timeout, a lost worker).
 * Anything that is not an activity failure is not a backend step failing: it is rethrown.
 */
export function failedStep(err: unknown, fallback: BackendStep): BackendStep {
  if (!isStepFailure(err)) throw err;
  const step = failedStepOf(err);
  return step === 'device-address' || step === 'dns' || step === 'wifi' ? step : fallback;
}
