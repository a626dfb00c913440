import type { StepName } from '../activities/tenant/view.js';

/** The activity that runs each step, so workflows call steps by the spec's name. */
export const STEP_ACTIVITY = {
  dns: 'stepDns',
  resolver: 'stepResolver',
  state: 'stepState',
  network: 'stepNetwork',
  'device-address': 'stepDeviceAddress',
  'log-store': 'stepLogStore',
  dashboards: 'stepDashboards',
} as const satisfies Record<StepName, string>;
