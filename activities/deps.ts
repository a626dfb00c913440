import type { Logger } from 'pino';
import type { Site } from './site.js';
import type { Db } from '../db/registry.js';
import type { SealKeys } from '../db/seal.js';
import type { BackendPorts } from './backend-areas.js';

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
}
