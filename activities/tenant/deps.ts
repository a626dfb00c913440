import type { Logger } from 'pino';
import type { Site } from '../../core/site.js';
import type { Db } from '../../db/registry.js';
import type { SealKeys } from '../../db/seal.js';
import type { TenantPorts } from './ports.js';

export interface TenantActivityDeps {
  site: Site;
  db: Db;
  keys: SealKeys;
  log: Logger;
  ports: TenantPorts;
}
