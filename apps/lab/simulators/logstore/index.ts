/**
 * The site's log store as tenants and the service see it: a Caddy token gateway (admin API on
 * /config, /id, /load; the served routes everywhere else) in front of a multitenant VictoriaLogs.
 * Real deployments run the admin API on its own listener (localhost:2019); the lab serves both on
 * one port because the paths do not overlap.
 *
 * The gateway enforces nothing by itself: every token rule comes from the routes the service wrote
 * through the admin API, evaluated with Caddy's semantics (see caddy-routes.ts), so the tests of
 * token isolation test the service's entries, not a hard-coded policy.
 *
 * Run: `serveApp(createLogStoreSimulator().app)`.
 */
import { Hono, type Context } from 'hono';
import { withFaults, type Faults } from '../faults.js';
import type { Json, JsonObject } from '../../../../activities/log-store/routes.js';
import { AdminError, CaddyConfig } from './caddy-config.js';
import { evaluateRoutes, validateConfig, type GatewayRequest } from './caddy-routes.js';
import { victoriaLogs, type LogTenants } from './victorialogs.js';

export interface LogStoreSimulatorOptions {
  /** The dial address at which the gateway reaches VictoriaLogs. */
  upstream?: string;
  /** The Caddy server (apps.http.servers.<name>) this listener serves. */
  server?: string;
  now?: () => Date;
}

export interface LogStoreState {
  caddy: CaddyConfig;
  /** Ingested rows per `<AccountID>:<ProjectID>`. */
  logs: LogTenants;
  upstream: string;
  server: string;
}

export const defaultUpstream = 'victorialogs:9428';

/** The site's starting gateway config: one server whose only route refuses everything with 401. */
export function bootstrapConfig(server: string): JsonObject {
  return {
    apps: {
      http: {
        servers: {
          [server]: {
            listen: [':443'],
            routes: [
              {
                '@id': 'svc-logs-unauthorized',
                handle: [
                  {
                    handler: 'static_response',
                    status_code: 401,
                    headers: { 'WWW-Authenticate': ['Bearer realm="logs"'], 'Content-Type': ['text/plain; charset=utf-8'] },
                    body: 'unauthorized\n',
                  },
                ],
              },
            ],
          },
        },
      },
    },
  };
}

function adminError(c: Context, e: unknown): Response {
  const status = e instanceof AdminError ? e.status : 500;
  return c.json({ error: (e as Error).message }, status as 400);
}

async function readJsonBody(c: Context): Promise<Json | undefined> {
  const text = await c.req.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch (e) {
    throw new AdminError(500, `decoding request body: ${(e as Error).message}`);
  }
}

function routesOf(config: Json, server: string): Json[] {
  const servers = (config as { apps?: { http?: { servers?: Record<string, { routes?: Json[] }> } } } | null)?.apps?.http?.servers;
  return servers?.[server]?.routes ?? [];
}

export function createLogStoreSimulator(opts: LogStoreSimulatorOptions = {}): { app: Hono; state: LogStoreState; faults: Faults } {
  const app = new Hono();
  const faults = withFaults(app);
  const server = opts.server ?? 'logs';
  const state: LogStoreState = {
    caddy: new CaddyConfig(bootstrapConfig(server), validateConfig),
    logs: new Map(),
    upstream: opts.upstream ?? defaultUpstream,
    server,
  };
  const store = victoriaLogs(state.logs, opts.now);

  async function configRequest(c: Context, path: string): Promise<Response> {
    const method = c.req.method;
    try {
      if (method === 'GET') return c.body(JSON.stringify(state.caddy.read(path)) + '\n', 200, { 'Content-Type': 'application/json' });
      if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) throw new AdminError(405, `method ${method} not allowed`);
      const ct = c.req.header('content-type') ?? '';
      if (method !== 'DELETE' && !ct.includes('/json')) {
        throw new AdminError(400, `unacceptable content-type: ${ct}; 'application/json' required`);
      }
      state.caddy.change(method, path, await readJsonBody(c));
      return c.body(null, 200);
    } catch (e) {
      return adminError(c, e);
    }
  }

  app.all('/config', (c) => configRequest(c, '/config/'));
  app.all('/config/*', (c) => configRequest(c, c.req.path));
  app.all('/id/*', (c) => {
    try {
      return configRequest(c, state.caddy.expandId(c.req.path));
    } catch (e) {
      return adminError(c, e);
    }
  });
  app.post('/load', async (c) => {
    try {
      const body = await readJsonBody(c);
      state.caddy.load(body ?? null);
      return c.body(null, 200);
    } catch (e) {
      return adminError(c, e instanceof AdminError && e.status === 500 ? new AdminError(400, e.message) : e);
    }
  });

  app.all('*', async function gateway(c) {
    const url = new URL(c.req.url);
    const req: GatewayRequest = {
      method: c.req.method,
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(c.req.raw.headers),
      body: new Uint8Array(await c.req.arrayBuffer()),
    };
    const dial = (address: string) => (address === state.upstream ? store : undefined);
    const res = await evaluateRoutes(routesOf(state.caddy.current, server), req, dial);
    // Caddy's answer when no handler wrote a response.
    return res ?? new Response(null, { status: 200 });
  });

  return { app, state, faults };
}
