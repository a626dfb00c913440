import { BackendError } from '../../core/backend-outcome.js';
import type { BackendHttp, HttpAnswer, HttpCall } from '../http/client.js';

/**
 * How the adapter reaches and authenticates to the Network application's classic API, on either
 * deployment (the way Art-of-WiFi/UniFi-API-client and aiounifi log in):
 * - `unifi-os`, a console: the application under `/proxy/network`; an API key in `X-API-KEY`, or
 *   `POST /api/auth/login {username, password}`, which sets the `TOKEN` cookie and answers the
 *   CSRF token in the `X-CSRF-Token` header; writes carry it back in `X-CSRF-Token`, and a newer
 *   one comes in `X-Updated-CSRF-Token`.
 * - `self-hosted`, the application on a server of its own: no prefix; `POST /api/login
 *   {username, password}` sets the `unifises` session cookie. It has no API keys. Where it also sets
 *   a `csrf_token` cookie, writes carry its value in `X-Csrf-Token` (the clients above send none,
 *   the lab's controller requires it: sending it costs nothing either way).
 * A session is reused; an answer of 401 (it expired, or the controller restarted) logs in again
 * once and repeats the request.
 */
export type UnifiDeployment = 'unifi-os' | 'self-hosted';

export interface UnifiAccess {
  deployment?: UnifiDeployment;
  apiKey?: string;
  username?: string;
  password?: string;
  site?: string;
}

/** Where the Network application's site API is, relative to the configured URL. */
export function unifiApiBase(opts: { site?: string; deployment?: UnifiDeployment }): string {
  const prefix = opts.deployment === 'self-hosted' ? '' : 'proxy/network/';
  return `${prefix}api/s/${encodeURIComponent(opts.site ?? 'default')}`;
}

/**
 * What to do when the controller refuses the service's write though it let it read (403): the
 * credential lacks the right. Said by the check's no-op write and by every refused key write.
 */
export function writeRefusedFix(opts: UnifiAccess): string {
  return opts.apiKey && opts.deployment !== 'self-hosted'
    ? 'the API key may read but not write the classic API the service uses (some controllers open API keys only for reading or for the Integration API): ' +
        'use a local admin with full rights on the Network application instead (SITE_WIFI_USERNAME and SITE_WIFI_PASSWORD, SITE_WIFI_API_KEY unset), or a key of such an admin'
    : 'the admin SITE_WIFI_USERNAME may read but not write: give it full management of the Network application (not View Only)';
}

export interface UnifiSession {
  call(c: HttpCall): Promise<HttpAnswer>;
}

export function unifiSession(http: BackendHttp, opts: UnifiAccess): UnifiSession {
  const selfHosted = opts.deployment === 'self-hosted';
  if (opts.apiKey && !selfHosted) {
    const apiKey = opts.apiKey;
    return { call: (c) => http.call({ ...c, headers: { ...c.headers, 'x-api-key': apiKey } }) };
  }
  if (!opts.username || !opts.password) {
    throw new BackendError(
      'unifi',
      selfHosted ? 'a self-hosted Network application needs a username and password' : 'an API key or a username and password is needed',
      false,
    );
  }
  const s: LoginSession = { http, selfHosted, credentials: { username: opts.username, password: opts.password } };
  const loggedIn = () => (s.loggingIn ??= login(s).finally(() => (s.loggingIn = undefined)));

  return {
    async call(c) {
      if (!s.cookie) await loggedIn();
      let res = await send(s, c);
      if (res.status === 401) {
        s.cookie = undefined;
        await loggedIn();
        res = await send(s, c);
      }
      // A fresh session refused as well: the account lacks the right, not a stale cookie.
      if (res.status === 401 && !c.accept?.includes(401)) {
        throw new BackendError('unifi', `${c.method ?? 'GET'} ${c.path} -> 401 after a fresh login`, false, 401);
      }
      return res;
    },
  };
}

/** A logged-in session, shared by every call through it: its cookies, its CSRF token, a login under way. */
interface LoginSession {
  http: BackendHttp;
  selfHosted: boolean;
  credentials: { username: string; password: string };
  cookie?: string;
  csrf?: string;
  loggingIn?: Promise<void>;
}

async function login(s: LoginSession): Promise<void> {
  const { http, selfHosted, credentials } = s;
  const res = await http.call({ method: 'POST', path: selfHosted ? 'api/login' : 'api/auth/login', json: credentials, accept: [400, 401, 403, 429] });
  if (res.status >= 300) {
    // Never the answer's body: it may echo the login.
    throw new BackendError(
      'unifi',
      `login refused -> ${res.status}; check the site's wireless controller username and password`,
      res.status === 429,
      res.status,
    );
  }
  const jar = new Map<string, string>();
  for (const line of [res.headers['set-cookie'] ?? []].flat()) {
    const pair = line.split(';', 1)[0]!;
    const at = pair.indexOf('=');
    if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  const session = selfHosted ? 'unifises' : 'TOKEN';
  if (!jar.has(session)) throw new BackendError('unifi', `login answered no ${session} cookie: is SITE_WIFI_DEPLOYMENT right?`, false);
  s.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  s.csrf = selfHosted ? jar.get('csrf_token') : headerOf(res, 'x-csrf-token');
}

async function send(s: LoginSession, c: HttpCall): Promise<HttpAnswer> {
  const write = (c.method ?? 'GET') !== 'GET';
  const headers = { ...c.headers, cookie: s.cookie!, ...(write && s.csrf ? { 'x-csrf-token': s.csrf } : {}) };
  const res = await s.http.call({ ...c, headers, accept: [...(c.accept ?? []), 401] });
  s.csrf = headerOf(res, 'x-updated-csrf-token') ?? s.csrf;
  return res;
}

function headerOf(res: HttpAnswer, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
