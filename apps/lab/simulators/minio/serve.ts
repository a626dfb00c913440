import type { Context } from 'hono';
import { ADMIN_PREFIX, handleAdmin } from './admin.js';
import { authenticate } from './auth.js';
import { adminError, requestId, s3Error } from './errors.js';
import { handleS3 } from './s3.js';
import type { MinioSimState } from './state.js';

/** A long-running lab keeps only recent calls. */
const KEPT_CALLS = 10_000;

/** `/<bucket>/<key...>`, each part URL-decoded where it decodes. */
function s3Target(pathname: string): { bucket: string; key: string } {
  const [, bucketRaw = '', ...rest] = pathname.split('/');
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return { bucket: decode(bucketRaw), key: decode(rest.join('/')) };
}

/**
 * One request, as MinIO's router takes it: the admin API under its prefix, S3 elsewhere; every
 * request is SigV4-authenticated first, and every answer recorded in `state.calls`.
 */
export async function serve(c: Context, state: MinioSimState, now: Date): Promise<Response> {
  const url = new URL(c.req.url);
  const reqId = requestId();
  const body = new Uint8Array(await c.req.arrayBuffer());
  const isAdmin = url.pathname.startsWith(ADMIN_PREFIX);
  const api = isAdmin ? 'admin' : 's3';
  const path = isAdmin ? url.pathname.slice(ADMIN_PREFIX.length) : url.pathname;
  const record = (status: number, accessKey?: string) => {
    state.calls.push({ method: c.req.method, path, api, accessKey, status });
    if (state.calls.length > KEPT_CALLS) state.calls.splice(0, state.calls.length - KEPT_CALLS);
  };

  const auth = authenticate(state, { method: c.req.method, url, headers: c.req.raw.headers, body }, now);
  if (!auth.ok) {
    record(auth.error.status, auth.accessKey);
    return isAdmin ? adminError(c, auth.error, url.pathname, reqId) : s3Error(c, auth.error, { resource: url.pathname }, reqId);
  }
  const res = isAdmin
    ? await handleAdmin({ c, state, op: path, query: url.searchParams, body, caller: auth.caller, reqId, now })
    : handleS3({ c, state, caller: auth.caller, ...s3Target(url.pathname), query: url.searchParams, body, reqId, now });
  record(res.status, auth.caller.accessKey);
  return res;
}
