import type { StepAbout } from './run-step.js';

/** A device address's activities write to the router, then to DNS: a failure names which. */
export const about = (input: { tenant: string; device: string }): StepAbout => ({
  object: `the address of device ${input.device} of tenant ${input.tenant}`,
  areas: ['device-address', 'dns'],
});
