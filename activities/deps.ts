import type { Logger } from 'pino';
import type { Site } from './site.js';
import type { Db } from '../db/registry.js';
import type { SealKeys } from '../db/seal.js';
import type { BackendPorts } from './backend-areas.js';

export interface ActivityDeps {
  site: Site;
  db: Db;
  keys: SealKeys;
  log: Logger;
  ports: BackendPorts;
}
