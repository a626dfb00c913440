/**
 * The lab's log store: the real Caddy gateway in front of the VictoriaLogs stand-in, and a fault
 * proxy in front of Caddy's admin API so tests can make the service's admin calls fail or stall
 * (real Caddy cannot be told to). The service is pointed at the proxy; tenants at Caddy itself.
 */
import { createFaultProxy } from '../simulators/fault-proxy.js';
import type { Faults } from '../simulators/faults.js';
import { serveApp, type RunningServer } from '../simulators/serve.js';
import { createVictoriaLogsStandIn, type LogTenants, type ReceivedRequest } from '../simulators/victorialogs/index.js';
import { startCaddy, type RunningCaddy } from './caddy.js';
import { onLastPortOrAny } from '../last-port.js';

export interface RunningLogGateway {
  caddy: RunningCaddy;
  /** The admin API as the service reaches it (through the fault proxy). */
  adminUrl: string;
  /** Where tenants ship and read: Caddy's `logs` server. */
  endpoint: string;
  /** The stand-in's dial address, `127.0.0.1:<port>`. */
  upstream: string;
  server: string;
  faults: Faults;
  /** Rows the stand-in holds per `<AccountID>:<ProjectID>`. */
  logs: LogTenants;
  /** Every request that reached the stand-in, with the tenant headers it carried. */
  received: ReceivedRequest[];
  stop(): Promise<void>;
}

export interface LogGatewayOptions {
  /** Caddy's directory; with `keep`, kept across starts with the routes it autosaved. */
  dir?: string;
  /** Resume Caddy's autosaved routes from `dir` (the lab across restarts). */
  keep?: boolean;
  /** Ports to try first (the last start's); free ones when taken. */
  ports?: { upstream?: number; admin?: number; logs?: number; proxy?: number };
}

export async function startLogGateway(opts: LogGatewayOptions = {}): Promise<RunningLogGateway> {
  const standIn = createVictoriaLogsStandIn();
  const vl: RunningServer = await onLastPortOrAny(opts.ports?.upstream, (port) => serveApp(standIn.app, port));
  const p = opts.ports;
  // Routes saved by the last start dial its stand-in's port: moved to this one's if it changed.
  const rewrite = (config: string) =>
    p?.upstream && p.upstream !== vl.port ? config.replaceAll(`"127.0.0.1:${p.upstream}"`, `"127.0.0.1:${vl.port}"`) : config;
  const caddy = await startCaddy({
    dir: opts.dir,
    ...(p?.admin && p.logs ? { ports: { admin: p.admin, logs: p.logs } } : {}),
    ...(opts.keep ? { resume: { rewrite } } : {}),
  }).catch(async (e: unknown) => {
    await vl.close();
    throw e;
  });
  // Caddy replaces its admin server after every change, and a connection made meanwhile can meet the
  // old one's close: a CI run's concurrent removes got a reset DELETE here, answered as a 500 Caddy
  // never gives. Its DELETE /id/<id> is sent again: repeated after it was applied, it is a 404, gone.
  const proxy = createFaultProxy(caddy.adminUrl, ['GET', 'HEAD', 'DELETE']);
  const proxyServer = await onLastPortOrAny(p?.proxy, (port) => serveApp(proxy.app, port));
  return {
    caddy,
    adminUrl: proxyServer.url,
    endpoint: caddy.url,
    upstream: `127.0.0.1:${vl.port}`,
    server: caddy.server,
    faults: proxy.faults,
    logs: standIn.logs,
    received: standIn.received,
    stop: async () => {
      await Promise.all([proxyServer.close(), caddy.stop(), vl.close()]);
    },
  };
}
