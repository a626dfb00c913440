/**
 * The isolation check's shapes (issue 49): what each probe tried and what it came to. No secret
 * crosses Temporal here: a probe is told which canary's credential to present against which
 * canary's object, and its activity reads the credential from the registry itself.
 */
import type { CanaryName } from '../core/canaries.js';

/** The backends a probe reaches, as their step areas name them, in the order the check probes them. */
export const ISOLATION_BACKENDS = ['api', 'dns', 'state', 'broker', 'log-store', 'dashboards', 'wifi', 'certificates'] as const;
export type IsolationBackend = (typeof ISOLATION_BACKENDS)[number];

/** `own`: a canary's credential against its own object (the check itself works); `cross`: against the other's. */
export interface ProbeInput {
  credentialOf: CanaryName;
  objectOf: CanaryName;
}

/** What a probe that held answers: each attempt, what it reached or was refused (`write: refused`). */
export interface ProbeAnswer {
  result: 'refused' | 'reached';
  attempts: string[];
}

/**
 * One probe's finding. `isolated`: the other canary's object refused the credential; `works`: the
 * canary's own object took it; `crossed`: the credential reached the other's object (the failure
 * names what); `broken`: the credential did not reach its own object, or the backend did not
 * answer, so nothing is known of its isolation.
 */
export interface ProbeFinding {
  backend: IsolationBackend;
  credential: string;
  credential_of: CanaryName;
  object_of: CanaryName;
  result: 'isolated' | 'works' | 'crossed' | 'broken';
  detail: string;
}

export interface IsolationCheckResult {
  /** Every probe isolated or working. */
  passed: boolean;
  started_at: string;
  finished_at: string;
  run_id: string;
  /** Each crossing, in words: backend, credential kind and what it reached. */
  crossings: string[];
  probes: ProbeFinding[];
  /** Backends this site does not run, so not probed. */
  skipped: IsolationBackend[];
}

/** What the check runs its probes with, from `ensureCanaries`: the backends this site has. */
export interface CanaryPair {
  backends: IsolationBackend[];
  skipped: IsolationBackend[];
}
