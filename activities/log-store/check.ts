/**
 * `--check-backends` for the log store's Caddy gateway: that its admin API takes the adapter's
 * requests as the adapter sends them (the Host it is reached by, and writes, not only reads), and
 * that it keeps what is written (docs/decisions.md, "Caddy reloaded by its service manager").
 * The write is a PATCH of the server's `listen` with the value just read: Caddy compares the new
 * config with the running one and, when they are equal, neither reloads nor autosaves.
 */
import { BackendError } from '../../core/backend-outcome.js';
import { BackendHttp } from '../../backends/http/client.js';

const PRODUCT = 'caddy';
const ORIGIN_FIX =
  "Caddy refuses this Host (403 host not allowed): its admin API answers only the address it listens on; set SITE_LOG_URL to that address, or add this one to admin.origins in Caddy's config";

const ENFORCE_ORIGIN_FIX =
  'Caddy refuses requests without an allowed Origin header (admin.enforce_origin), and the service sends none: turn enforce_origin off and keep the admin API on an interface only the worker reaches';

export interface GatewaySite {
  adminUrl: string;
  server: string;
  ca?: string;
  routeCheckMs: number;
}

export async function checkGateway(site: GatewaySite, timeoutMs: number): Promise<string> {
  const http = new BackendHttp(PRODUCT, site.adminUrl, {}, timeoutMs, { ca: site.ca });
  const listenPath = `config/apps/http/servers/${encodeURIComponent(site.server)}/listen`;
  // Caddy answers 400 'invalid traversal path' for a path below a server it does not have.
  const read = await http.call({ path: listenPath, accept: [400, 403] });
  refusal('GET', read);
  const listen = read.status === 400 ? undefined : read.json<unknown>();
  if (listen === null || listen === undefined) {
    throw new BackendError(
      PRODUCT,
      `Caddy has no server ${site.server} (SITE_LOG_SERVER): load the gateway's bootstrap config, or name its server in SITE_LOG_SERVER`,
      false,
    );
  }
  const wrote = await http.call({ method: 'PATCH', path: listenPath, json: listen, accept: [403, 405] });
  refusal('PATCH', wrote);
  // Caddy's default is to autosave; only an explicit persist: false turns it off.
  const admin = (await http.call({ path: 'config/admin' })).json<{ config?: { persist?: boolean } } | null>();
  if (admin?.config?.persist === false) {
    throw new BackendError(
      PRODUCT,
      'admin.config.persist is false: Caddy does not autosave the routes written through its admin API, so a restart (even with --resume) starts without them; remove persist: false from the admin config and run Caddy with --resume',
      false,
    );
  }
  return `Caddy admin API takes reads and writes (a no-op PATCH); server ${site.server} is configured; its config is autosaved (run Caddy with --resume); routes a reload drops come back within SITE_LOG_ROUTE_CHECK_INTERVAL (${site.routeCheckMs / 1000} s)`;
}

/** A 403 or 405 to the adapter's own kind of request: the Host check (caddyserver/caddy admin.go, checkHost), or something in front refusing writes. */
function refusal(method: string, res: { status: number; text: string }): void {
  if (res.status === 403 && /host not allowed/i.test(res.text)) throw new BackendError(PRODUCT, ORIGIN_FIX, false, 403);
  // admin.enforce_origin: Caddy then wants an Origin header, which the service does not send.
  if (res.status === 403 && /origin/i.test(res.text)) throw new BackendError(PRODUCT, ENFORCE_ORIGIN_FIX, false, 403);
  if (res.status === 403 || res.status === 405) {
    const why = `${method} config -> ${res.status} ${res.text.slice(0, 160)}`;
    const fix = method === 'GET' ? '' : ': the service writes every tenant route through the admin API; let the worker PUT, PATCH and DELETE there';
    throw new BackendError(PRODUCT, `${why}${fix}`, false, res.status);
  }
}
