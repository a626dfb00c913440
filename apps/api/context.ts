import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { RequestObserver } from '../telemetry/http-metrics.js';
import type { Config } from '../config/env.js';
import type { Registry } from '../../db/registry.js';
import type { Caller } from './auth/caller.js';
import type { TenantOperations } from './operations/tenant.js';
import type { DeviceOperations } from './operations/device.js';
import type { RecordOperations } from './operations/record.js';
import type { WorkloadOperations } from './operations/workload.js';
import type { BrokerAccountOperations } from './operations/broker-account.js';
import type { CertificateOperations } from './operations/certificate.js';
import type { RunListOperations } from './operations/run-list.js';

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
  /** Workloads and records (Temporal + registry); absent when no site is configured. */
  workloads?: WorkloadOperations | undefined;
  records?: RecordOperations | undefined;
  /** Broker accounts; absent at a site with no broker (the routes answer 501). */
  brokerAccounts?: BrokerAccountOperations | undefined;
  /** Tenant certificates; absent at a site with no tenant service CA (the routes answer 501). */
  certificates?: CertificateOperations | undefined;
  /** Devices, fixed addresses and Wi-Fi keys (Temporal + registry); absent when no site is configured. */
  devices?: DeviceOperations | undefined;
  /** The runs over REST (Temporal's visibility, the registry's failures); absent when no site is configured. */
  runList?: RunListOperations | undefined;
  /** Request metrics and request spans; each off when absent. */
  telemetry?: { metrics?: RequestObserver; tracing?: MiddlewareHandler };
}

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    caller: Caller;
  };
}
