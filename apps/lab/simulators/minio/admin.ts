import type { Context } from 'hono';
import { MadminCryptoError, decryptData, encryptData, type Argon2idKeyOf } from '../../../../backends/minio/madmin-crypto.js';
import { Errors, adminError, commonHeaders, malformedIAMPolicy, unsupportedCall, type ApiError } from './errors.js';
import { PolicyError, parsePolicy } from './iam.js';
import type { Caller } from './auth.js';
import type { MinioSimState, SimUser } from './state.js';
import { rememberingSaltKeys } from './salt-keys.js';

/**
 * The admin API subset (minio cmd/admin-handlers-users.go, madmin-go user-commands.go and
 * policy-commands.go): add-user (body encrypted with the caller's secret), user-info, remove-user,
 * list-users (answer encrypted), add-/info-/remove-canned-policy, set-user-or-group-policy.
 * Only the root credential may call it here: MinIO users would need admin:* policies.
 */

export const ADMIN_PREFIX = '/minio/admin/v3/';

class AdminFailure extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.code);
  }
}

function fail(err: ApiError): never {
  throw new AdminFailure(err);
}

function userInfo(u: SimUser): Record<string, unknown> {
  // madmin.UserInfo: policyName omitted when empty, no secret ever returned.
  const info: Record<string, unknown> = {};
  if (u.policies.length) info.policyName = u.policies.join(',');
  info.status = u.status;
  info.updatedAt = u.updatedAt;
  return info;
}

function requireParam(q: URLSearchParams, name: string): string {
  const v = q.get(name);
  // gorilla/mux routes need the query parameter present; MinIO answers an unrouted call so.
  if (v === null) fail(Errors.AdminInvalidArgument);
  return v ?? '';
}

export interface AdminCall {
  c: Context;
  state: MinioSimState;
  op: string;
  query: URLSearchParams;
  body: Uint8Array;
  caller: Caller;
  reqId: string;
  now: Date;
}

export async function handleAdmin(call: AdminCall): Promise<Response> {
  const { c, op, reqId } = call;
  const resource = new URL(c.req.url).pathname;
  try {
    if (!call.caller.root) fail(Errors.AccessDenied);
    const route = `${c.req.method} ${op}`;
    const handler = ROUTES[route];
    if (!handler) fail(unsupportedCall(c.req.method, resource));
    const answer = await handler(call);
    commonHeaders(c, reqId);
    if (answer === undefined) return c.body(null, 200);
    return c.body(typeof answer === 'string' ? answer : new Uint8Array(answer), 200, { 'Content-Type': 'application/json' });
  } catch (err) {
    if (err instanceof AdminFailure) return adminError(c, err.apiError, resource, reqId);
    throw err;
  }
}

type Handler = (call: AdminCall) => Promise<string | Buffer | undefined> | string | Buffer | undefined;

/** Each simulator's memory of the salts' keys (salt-keys.ts); none in the state a kept lab saves. */
const saltKeys = new WeakMap<MinioSimState, Argon2idKeyOf>();
const saltKeysOf = (state: MinioSimState): Argon2idKeyOf => {
  let keys = saltKeys.get(state);
  if (!keys) saltKeys.set(state, (keys = rememberingSaltKeys()));
  return keys;
};

const ROUTES: Record<string, Handler> = {
  async 'PUT add-user'({ state, query, body, caller, now }) {
    const accessKey = requireParam(query, 'accessKey');
    if (accessKey === caller.accessKey) fail(Errors.AddUserInvalidArgument);
    let req: { secretKey?: unknown; status?: unknown };
    try {
      req = JSON.parse((await decryptData(state.root.secretKey, body, saltKeysOf(state))).toString('utf8')) as typeof req;
    } catch (err) {
      if (err instanceof MadminCryptoError || err instanceof SyntaxError) return fail(Errors.AdminConfigBadJSON);
      throw err;
    }
    if (accessKey.length < 3 || /[=,]/.test(accessKey)) fail(Errors.AdminInvalidAccessKey);
    if (typeof req.secretKey !== 'string' || req.secretKey.length < 8) fail(Errors.AdminInvalidSecretKey);
    const existing = state.users.get(accessKey);
    state.users.set(accessKey, {
      secretKey: req.secretKey as string,
      status: req.status === 'disabled' ? 'disabled' : 'enabled',
      // Re-adding a user (a secret change) keeps its policy mapping, as IAMSys.CreateUser does.
      policies: existing?.policies ?? [],
      updatedAt: now.toISOString(),
    });
    return undefined;
  },

  'GET user-info'({ state, query }) {
    const user = state.users.get(requireParam(query, 'accessKey'));
    if (!user) return fail(Errors.AdminNoSuchUser);
    return JSON.stringify(userInfo(user));
  },

  'DELETE remove-user'({ state, query }) {
    const accessKey = requireParam(query, 'accessKey');
    // The user's policy mapping goes with it; its objects stay in their buckets.
    if (!state.users.delete(accessKey)) fail(Errors.AdminNoSuchUser);
    return undefined;
  },

  async 'GET list-users'({ state }) {
    const all: Record<string, unknown> = {};
    for (const [k, u] of state.users) all[k] = userInfo(u);
    return encryptData(state.root.secretKey, Buffer.from(JSON.stringify(all)));
  },

  'PUT add-canned-policy'({ c, state, query, body, now }) {
    const name = requireParam(query, 'name');
    if (name === '' || name.trim() !== name) fail(Errors.AdminInvalidArgument);
    if (!c.req.header('content-length') || body.length === 0) fail(Errors.MissingContentLength);
    let doc;
    try {
      doc = parsePolicy(Buffer.from(body).toString('utf8'));
    } catch (err) {
      if (err instanceof PolicyError) return fail(malformedIAMPolicy(err.message));
      throw err;
    }
    if (!doc.Version) fail(Errors.MalformedPolicy);
    const prev = state.policies.get(name);
    state.policies.set(name, { document: doc, createDate: prev?.createDate ?? now.toISOString(), updateDate: now.toISOString() });
    return undefined;
  },

  'GET info-canned-policy'({ state, query }) {
    const name = requireParam(query, 'name');
    if (name.includes(',')) fail(Errors.AdminInvalidArgument);
    const p = state.policies.get(name);
    if (!p) return fail(Errors.AdminNoSuchPolicy);
    const v = query.get('v');
    if (v === '2') {
      return JSON.stringify({ PolicyName: name, Policy: p.document, CreateDate: p.createDate, UpdateDate: p.updateDate }, null, ' ');
    }
    if (v !== null && v !== '') fail(Errors.AdminInvalidArgument);
    return JSON.stringify(p.document, null, ' ');
  },

  'DELETE remove-canned-policy'({ state, query }) {
    const name = requireParam(query, 'name');
    if (name === '') fail(Errors.AdminInvalidArgument);
    for (const u of state.users.values()) if (u.policies.includes(name)) fail(Errors.AdminPolicyInUse);
    // Deleting a policy that is already gone is not an error (IAMStoreSys.DeletePolicy).
    state.policies.delete(name);
    return undefined;
  },

  'PUT set-user-or-group-policy'({ state, query, now }) {
    const policyName = requireParam(query, 'policyName');
    const entity = requireParam(query, 'userOrGroup');
    const isGroup = requireParam(query, 'isGroup');
    if (isGroup !== 'true' && isGroup !== 'false') fail(Errors.AdminInvalidArgument);
    if (isGroup === 'true') return fail(Errors.AdminNoSuchGroup);
    const user = state.users.get(entity);
    if (!user) return fail(Errors.AdminNoSuchUser);
    const names = policyName
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const n of names) if (!state.policies.has(n)) fail(Errors.AdminNoSuchPolicy);
    // An empty policy name detaches every policy, as PolicyDBSet does.
    user.policies = [...new Set(names)];
    user.updatedAt = now.toISOString();
    return undefined;
  },
};
