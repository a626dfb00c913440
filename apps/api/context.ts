import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Registry } from '../../db/registry.js';
import type { Caller } from './auth/caller.js';
import type { TenantOperations } from './operations.js';

export interface BuildInfo {
  version: string;
  commit: string;
  built: string;
}

/** What the API is built from: all I/O reaches handlers through these. */
export interface AppDeps {
  config: Config;
  registry: Registry;
  log: Logger;
  build: BuildInfo;
  /** Tenant operations (Temporal + registry); absent when no site is configured. */
  operations: TenantOperations | undefined;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    caller: Caller;
  };
}
