/**
 * Who is calling and in which organization, as Grafana resolves it for basic auth:
 *   - credentials are login-or-email + password; a miss is 401 `password-auth.failed`; every
 *     attempt is counted per login and 5 misses within 5 minutes lock the login (brute-force
 *     protection, on by default), which is why the service never signs in as a tenant;
 *   - the org is `X-Grafana-Org-Id` when sent, else the user's current org; a user who is not a
 *     member of that org gets no role there (Grafana signs them into org -1), so every org-scoped
 *     permission check fails;
 *   - RBAC refusals are 403 with Grafana's access-denied body naming the missing permission.
 * Server-wide endpoints (/api/orgs, /api/admin/*, user lookup) need a Grafana server admin;
 * data sources need the Admin role in the org (Viewers and Editors hold no datasources:* write or
 * read action in the basic-role definitions).
 */
import type { Context } from 'hono';
import type { GrafanaState, OrgRole, User } from './state.js';

export interface Caller {
  user: User;
  orgId: number;
  role: OrgRole | undefined;
}

export function apiError(c: Context, status: number, message: string, extra: Record<string, unknown> = {}): Response {
  return c.json({ message, ...extra }, status as 400);
}

function unauthorized(c: Context, messageId: string, message: string): Response {
  return c.json({ extra: null, message, messageId, statusCode: 401, traceID: '' }, 401);
}

export function accessDenied(c: Context, permission: string): Response {
  const id = String(Math.floor(Math.random() * 1e10)).padStart(10, '0');
  return c.json(
    {
      accessErrorId: `ACE${id}`,
      message: `You'll need additional permissions to perform this action. Permissions needed: ${permission}`,
      title: 'Access denied',
    },
    403,
  );
}

export function authenticate(state: GrafanaState, c: Context): Caller | Response {
  const header = c.req.header('authorization') ?? '';
  const m = /^Basic\s+(.+)$/i.exec(header);
  if (!m) return unauthorized(c, 'auth.unauthorized', 'Unauthorized');
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const login = colon < 0 ? decoded : decoded.slice(0, colon);
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  // Brute-force protection (pkg/services/loginattempt): 5 failed attempts for a login within
  // 5 minutes lock it, whatever the password of the next attempt.
  const attempts = state.loginAttempts.get(login.toLowerCase()) ?? { ok: 0, failed: 0, failedAt: [] };
  state.loginAttempts.set(login.toLowerCase(), attempts);
  const now = Date.now();
  attempts.failedAt = attempts.failedAt.filter((t) => now - t < 5 * 60_000);
  if (attempts.failedAt.length >= 5) return unauthorized(c, 'login-attempt.blocked', 'Invalid username or password');
  const user = state.userByLoginOrEmail(login);
  if (!user || user.password !== password) {
    attempts.failed++;
    attempts.failedAt.push(now);
    return unauthorized(c, 'password-auth.failed', 'Invalid username or password');
  }
  attempts.ok++;
  const orgHeader = c.req.header('x-grafana-org-id');
  const parsed = orgHeader !== undefined && /^\d+$/.test(orgHeader) ? Number(orgHeader) : undefined;
  const orgId = parsed ?? user.orgId;
  return { user, orgId, role: state.roleOf(orgId, user.id) };
}

/** Wrap a handler so it runs only for an authenticated caller. */
export function withCaller(state: GrafanaState, handler: (c: Context, caller: Caller) => Response | Promise<Response>) {
  return async (c: Context): Promise<Response> => {
    const caller = authenticate(state, c);
    if (caller instanceof Response) return caller;
    return handler(c, caller);
  };
}

export function serverAdmin(state: GrafanaState, permission: string, handler: (c: Context, caller: Caller) => Response | Promise<Response>) {
  return withCaller(state, (c, caller) => (caller.user.isGrafanaAdmin ? handler(c, caller) : accessDenied(c, permission)));
}

export function orgAdmin(state: GrafanaState, permission: string, handler: (c: Context, caller: Caller) => Response | Promise<Response>) {
  return withCaller(state, (c, caller) => (caller.role === 'Admin' ? handler(c, caller) : accessDenied(c, permission)));
}

/** Bind a JSON body as Grafana's web.Bind does: anything unparsable is 400 "bad request data". */
export async function bindJson(c: Context): Promise<Record<string, unknown> | Response> {
  try {
    const v = (await c.req.json()) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  return apiError(c, 400, 'bad request data');
}

export function intParam(v: string | undefined): number | undefined {
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/**
 * A write to one numbered object (`/api/orgs/:orgId`, `/api/admin/users/:id/...`): the path id
 * parsed (400 "<param> is invalid"), then the JSON body bound, in the order Grafana's handlers do.
 */
export function idAndForm(param: string, handler: (c: Context, id: number, form: Record<string, unknown>) => Response | Promise<Response>) {
  return async (c: Context): Promise<Response> => {
    const id = intParam(c.req.param(param));
    if (id === undefined) return apiError(c, 400, `${param} is invalid`);
    const form = await bindJson(c);
    return form instanceof Response ? form : handler(c, id, form);
  };
}

/**
 * A server admin's change of one object by the id in the path (`idAndForm`): `missing` (Grafana's
 * status and text) when `objects` holds none by that id, else `change` with the object and the form.
 */
export function changeById<T>(
  state: GrafanaState,
  permission: string,
  param: string,
  objects: ReadonlyMap<number, T>,
  missing: [number, string],
  change: (c: Context, found: T, form: Record<string, unknown>, id: number) => Response,
) {
  return serverAdmin(
    state,
    permission,
    idAndForm(param, (c, id, form) => {
      const found = objects.get(id);
      return found === undefined ? apiError(c, missing[0], missing[1]) : change(c, found, form, id);
    }),
  );
}
