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

export async function startLogGateway(opts: { dir?: string } = {}): Promise<RunningLogGateway> {
  const standIn = createVictoriaLogsStandIn();
  const vl: RunningServer = await serveApp(standIn.app);
  const caddy = await startCaddy({ dir: opts.dir }).catch(async (e: unknown) => {
    await vl.close();
    throw e;
  });
  const proxy = createFaultProxy(caddy.adminUrl);
  const proxyServer = await serveApp(proxy.app);
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
