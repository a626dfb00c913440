import type { MiddlewareHandler } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import { unauthorized } from './envelope.js';

/**
 * API token authentication: `Authorization: PVEAPIToken=USER@REALM!TOKENID=SECRET`. A refusal is
 * a 401 whose reason phrase is PVE::AccessControl's message and whose body is empty (the JSON
 * formatter has no login page). Real PVE also delays every 401 by 3 s; `delayMs` can mimic it.
 */
export function tokenAuth(opts: { tokenId: string; tokenSecret: string; delayMs?: number }): MiddlewareHandler {
  const bang = opts.tokenId.indexOf('!');
  if (bang < 1 || !opts.tokenId.slice(0, bang).includes('@')) {
    throw new Error(`tokenId must look like USER@REALM!TOKENID`);
  }
  const user = opts.tokenId.slice(0, bang);
  const token = opts.tokenId.slice(bang + 1);
  const secret = Buffer.from(opts.tokenSecret);

  return async function pveTokenAuth(c, next) {
    const refuse = async (reason: string) => {
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      return unauthorized(c, reason);
    };
    const m = /^PVEAPIToken[= ]([^=\s!]+@[^=\s!]+)!([^=\s]+)=(\S+)$/.exec(c.req.header('authorization')?.trim() ?? '');
    if (!m) return refuse('No ticket');
    const [, gotUser, gotToken, gotSecret] = m as unknown as [string, string, string, string];
    if (gotUser !== user) return refuse(`no such user ('${gotUser}')`);
    if (gotToken !== token) return refuse(`no such token '${gotToken}' for user '${gotUser}'`);
    const presented = Buffer.from(gotSecret);
    if (presented.length !== secret.length || !timingSafeEqual(presented, secret)) return refuse('invalid token value!');
    await next();
  };
}
