import type { Logger } from 'pino';
import type { Site } from './site.js';
import type { Db } from '../db/registry.js';
import type { SealKeys } from '../db/seal.js';
import type { BackendPorts } from './backend-areas.js';
import type { BackendCalls } from '../backends/http/calls.js';

export interface ActivityDeps {
  site: Site;
  db: Db;
  /**
   * The registry on a connection apart from the pool (Registry.ownConnection), for writes that must
   * commit while the caller's transaction waits holding a pooled connection; `db` when absent.
   */
  ownConnection?: Db;
  keys: SealKeys;
  log: Logger;
  ports: BackendPorts;
  /** The worker's pacing and telemetry of backend calls, the one its ports were bound with (`bindPorts`). */
  calls: BackendCalls;
}
