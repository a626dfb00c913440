import { randomBytes } from 'node:crypto';
import type { Context, Hono, Next } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/**
 * How the two deployments of the Network application authenticate its classic API, as their
 * clients use them (Art-of-WiFi/UniFi-API-client `src/Client.php` `login()` and
 * `response_header_callback()`, Kane610/aiounifi `interfaces/connectivity.py` `login`):
 * - `unifi-os` (a console): `X-API-KEY` (Art-of-WiFi's `examples/api_key_auth.php`, a classic
 *   call with only the key; help.ui.com "Getting Started with the Official UniFi API" for the key
 *   itself), or `POST /api/auth/login {username, password}` → the `TOKEN` cookie and an
 *   `X-CSRF-Token` header; a write with the cookie must send that token in `X-CSRF-Token`
 *   (both clients send it on every non-GET call).
 * - `self-hosted`: `POST /api/login {username, password}` → the `unifises` cookie; no API keys
 *   (Art-of-WiFi's README). No prefix.
 * Without a valid key or session: 401 `api.err.LoginRequired` (aiounifi logs in again on it).
 * Lab assumptions, not taken from a document: a wrong password answers 401 on a console and 400
 * `api.err.Invalid` self-hosted (as the clients above report it); a write with the session but
 * without its CSRF token answers 403 `api.err.NoPermission`; and the self-hosted application also
 * sets a `csrf_token` cookie whose value its writes must carry in `X-Csrf-Token`. The clients
 * above send no CSRF token to a self-hosted application, so that last one is stricter than they
 * show the product to be: an adapter that passes here passes there.
 * A read-only API key (`keyAccess: 'read-only'`): API keys may open only the Integration API, or
 * be made for a read-only admin (aiounifi#1088; help.ui.com's "Getting Started with the Official
 * UniFi API"), so whether a key may write on the classic API differs between controllers. The lab
 * lets such a key read and refuses its writes 403 `api.err.NoPermission`, as the classic API
 * answers an admin without the right (a lab assumption for the exact answer).
 */
export type UnifiDeployment = 'unifi-os' | 'self-hosted';

export interface UnifiAuthOptions {
  deployment: UnifiDeployment;
  apiKey: string;
  login?: { username: string; password: string };
  /** What the API key may do: `full` (default), or `read-only` (its writes refused). */
  keyAccess?: () => 'full' | 'read-only';
}

export interface UnifiAuth {
  /** Mounts the deployment's login route on the app (before the API). */
  mountLogin(app: Hono): void;
  /** Middleware of the API: a valid key or session, and the CSRF token on writes. */
  require(c: Context, next: Next): Promise<Response | void>;
  /** Forgets every session, as a controller restart or an expiry does. */
  expireSessions(): void;
  /** Successful logins, so tests can tell a reused session from a new one. */
  logins(): number;
}

const SESSION_COOKIE = { 'unifi-os': 'TOKEN', 'self-hosted': 'unifises' } as const;
const refused = (c: Context, status: 400 | 401 | 403, msg: string) => c.json({ meta: { rc: 'error', msg }, data: [] }, status);

export function unifiAuth(opts: UnifiAuthOptions): UnifiAuth {
  const sessions = new Map<string, string>(); // session token → its CSRF token
  let logins = 0;
  const selfHosted = opts.deployment === 'self-hosted';

  async function login(c: Context): Promise<Response> {
    const body = (await c.req.json().catch(() => ({}))) as { username?: unknown; password?: unknown };
    const good = opts.login !== undefined && body.username === opts.login.username && body.password === opts.login.password;
    if (!good)
      return selfHosted
        ? refused(c, 400, 'api.err.Invalid')
        : c.json({ code: 'AUTHENTICATION_FAILED_INVALID_CREDENTIALS', message: 'Invalid username or password' }, 401);
    const token = randomBytes(24).toString('hex');
    const csrf = randomBytes(16).toString('hex');
    sessions.set(token, csrf);
    logins += 1;
    setCookie(c, SESSION_COOKIE[opts.deployment], token, { path: '/', httpOnly: true, secure: true, sameSite: 'Strict' });
    if (selfHosted) {
      setCookie(c, 'csrf_token', csrf, { path: '/', secure: true });
      return c.json({ meta: { rc: 'ok' }, data: [] });
    }
    c.header('X-CSRF-Token', csrf);
    return c.json({ unique_id: 'lab-admin', username: opts.login!.username });
  }

  return {
    mountLogin(app) {
      app.post(selfHosted ? '/api/login' : '/api/auth/login', login);
    },
    async require(c, next) {
      if (!selfHosted && c.req.header('x-api-key') === opts.apiKey) {
        if (c.req.method !== 'GET' && opts.keyAccess?.() === 'read-only') return refused(c, 403, 'api.err.NoPermission');
        return next();
      }
      const token = getCookie(c, SESSION_COOKIE[opts.deployment]);
      const csrf = token === undefined ? undefined : sessions.get(token);
      if (csrf === undefined) return refused(c, 401, 'api.err.LoginRequired');
      if (c.req.method !== 'GET' && c.req.header('x-csrf-token') !== csrf) return refused(c, 403, 'api.err.NoPermission');
      return next();
    },
    expireSessions: () => sessions.clear(),
    logins: () => logins,
  };
}
