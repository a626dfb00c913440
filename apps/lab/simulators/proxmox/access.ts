import type { Context, Hono } from 'hono';
import { ok, PveError } from './envelope.js';
import { readParams, validate } from './params.js';
import type { ProxmoxSimState } from './state.js';

/**
 * The API token's privileges (pve-access-control): `state.privileges` is its ACL, path to
 * privileges, each propagating below its path, the most specific path deciding (absent: every
 * privilege everywhere, a token without privilege separation of an admin). Served by `GET
 * /access/permissions` (AccessControl.pm permissions: with `path`, `{path: {priv: 1}}` or `{}`;
 * without, every ACL path), and checked on the SDN routes as pve-network checks them (`GET`:
 * SDN.Audit, a write: SDN.Allocate, on /sdn), a refusal being RPCEnvironment's 403 "Permission
 * check failed (<path>, <priv>)". Only the SDN routes are checked here.
 */
export function effectivePrivileges(state: ProxmoxSimState, path: string): string[] | 'all' {
  const acl = state.privileges;
  if (!acl) return 'all';
  const covering = Object.keys(acl)
    .filter((p) => p === '/' || path === p || path.startsWith(`${p}/`))
    .sort((a, b) => b.length - a.length)[0];
  return covering === undefined ? [] : acl[covering]!;
}

const has = (state: ProxmoxSimState, path: string, priv: string) => {
  const privs = effectivePrivileges(state, path);
  return privs === 'all' || privs.includes(priv);
};

export function mountAccessRoutes(api: Hono, state: ProxmoxSimState): void {
  api.get('/access/permissions', async (c: Context) => {
    const q = validate(await readParams(c), { path: { type: 'string', optional: true }, userid: { type: 'string', optional: true } });
    const privsAt = (path: string) => {
      const privs = effectivePrivileges(state, path);
      return Object.fromEntries(
        (privs === 'all' ? ['Sys.Audit', 'SDN.Audit', 'SDN.Allocate', 'VM.Allocate', 'VM.Audit', 'Datastore.AllocateSpace'] : privs).map((p) => [p, 1]),
      );
    };
    if (q.path !== undefined) {
      const perms = privsAt(String(q.path));
      return ok(c, Object.keys(perms).length ? { [String(q.path)]: perms } : {});
    }
    return ok(c, Object.fromEntries(Object.keys(state.privileges ?? { '/': [] }).map((p) => [p, privsAt(p)])));
  });
}

/**
 * pve-network's permission check of a `/cluster/sdn...` method, once the method is found (a method
 * the release lacks answers 501 first, as pve-http-server looks the method up before its check).
 */
export function requireSdnPrivilege(state: ProxmoxSimState, method: string): void {
  const priv = method === 'GET' ? 'SDN.Audit' : 'SDN.Allocate';
  if (!has(state, '/sdn', priv)) throw new PveError(403, `Permission check failed (/sdn, ${priv})`);
}
