import type { BackendCalls } from '../http/calls.js';
import { BackendError, type ObjectOutcome } from '../../core/backend-outcome.js';
import { ensure, once, plan, type ObjectKind } from '../reconcile/reconcile.js';
import { BackendHttp, type HttpAnswer, type HttpCall } from '../http/client.js';
import { DerivedKeys, encryptData } from './madmin-crypto.js';
import { samePolicy, tenantPolicy, tenantPolicyName, validatePolicyInput } from './policy.js';
import { signRequest, type SigV4Credentials } from './sigv4.js';
import { stateAccessKey } from '../../core/identity.js';

/**
 * The state store of a tenant on MinIO: a user (access key = tenant name) holding the tenant's
 * secret, a canned policy `tenant-<name>` that confines it to `<bucket>/<prefix>`, and that policy
 * mapped to the user. Spoken over MinIO's admin API as madmin-go does: SigV4 with the root
 * credential, add-user bodies encrypted with madmin's EncryptData, and the mapping set with
 * madmin's SetPolicy (PUT set-user-or-group-policy), which replaces the user's policies with
 * exactly the given one, so a stray extra policy is dropped as drift. Objects are never touched.
 *
 * MinIO never returns a user's secret, so whether the stored secret is still the tenant's is
 * checked by signing one S3 listing of the tenant's own prefix with it: SignatureDoesNotMatch means
 * it changed (and the user is re-added with the right one); anything past the signature check
 * (200, AccessDenied, NoSuchBucket) means it is right.
 */

const PRODUCT = 'minio';
const ADMIN = '/minio/admin/v3';

export interface MinioStateOptions {
  /** e.g. `http://minio.site:9000` */
  endpoint: string;
  /** Root (or admin-policy) credential for the admin API. */
  accessKey: string;
  secretKey: string;
  /** The site's bucket that holds every tenant's prefix. */
  bucket: string;
  region?: string;
  timeoutMs?: number;
  /** The worker's pacing and telemetry of its backend calls (backends/http/calls.ts); neither when absent. */
  calls?: BackendCalls;
  /** PEM certificates to trust for this backend's HTTPS (its private CA); public roots when absent. */
  ca?: string;
}

export interface StateSpec {
  tenant: string;
  /** The tenant's MinIO user; equals the tenant name. */
  accessKey: string;
  secretKey: string;
  /** `<name>/` */
  prefix: string;
}

export type StateObserveSpec = Omit<StateSpec, 'secretKey'> & { secretKey?: string };
export type StateRemoveSpec = Pick<StateSpec, 'tenant' | 'accessKey'>;

export interface StateObservation {
  policy: { name: string; exists: boolean; /** The document grants exactly the tenant's prefix. */ current: boolean };
  user: {
    exists: boolean;
    enabled: boolean;
    /** Canned policies mapped to the user. */
    policies: string[];
    /** Whether the user still holds the given secret; absent when no secret was given or the user can't sign. */
    secretCurrent?: boolean;
  };
}

export interface StateAdapter {
  observe(spec: StateObserveSpec): Promise<StateObservation>;
  ensure(spec: StateSpec): Promise<ObjectOutcome[]>;
  /** What ensure would report, from reads alone. */
  plan(spec: StateSpec): Promise<ObjectOutcome[]>;
  remove(spec: StateRemoveSpec): Promise<void>;
}

interface UserInfo {
  policyName?: string;
  status?: string;
}

/** What the adapter's functions share: the HTTP client, the root credential and the site's bucket. */
interface Minio {
  opts: MinioStateOptions;
  http: BackendHttp;
  root: SigV4Credentials;
  base: string;
  region: string;
  /** The add-user bodies' Argon2id key, kept for a while (madmin-crypto.ts `DerivedKeys`). */
  bodyKeys: DerivedKeys;
}

export function createMinioStateAdapter(opts: MinioStateOptions): StateAdapter {
  const ctx: Minio = {
    opts,
    region: opts.region ?? 'us-east-1',
    http: new BackendHttp(PRODUCT, opts.endpoint, {}, opts.timeoutMs, { ca: opts.ca, calls: opts.calls }),
    root: { accessKey: opts.accessKey, secretKey: opts.secretKey },
    bodyKeys: new DerivedKeys(),
    base: opts.endpoint.endsWith('/') ? opts.endpoint : opts.endpoint + '/',
  };
  return {
    observe: (spec) => observe(ctx, spec),
    ensure: (spec) => each(ctx, spec, ensure),
    plan: (spec) => each(ctx, spec, plan),
    remove: (spec) => remove(ctx, spec),
  };
}

/** A SigV4-signed call; the URL is built exactly as BackendHttp builds it, so the signature covers it. */
function signed(ctx: Minio, creds: SigV4Credentials, c: HttpCall): Promise<HttpAnswer> {
  const url = new URL(c.path.replace(/^\//, ''), ctx.base);
  for (const [k, v] of Object.entries(c.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const method = c.method ?? 'GET';
  const headers = signRequest({ method, url, headers: c.headers, body: c.body }, creds, { region: ctx.region });
  return ctx.http.call({ ...c, method, headers });
}

const admin = (ctx: Minio, c: HttpCall) => signed(ctx, ctx.root, { ...c, path: `${ADMIN}/${c.path}` });

function check(ctx: Minio, spec: { tenant: string; accessKey: string; secretKey?: string; prefix?: string }): void {
  const invalid = (what: string) => new BackendError(PRODUCT, `invalid state spec: ${what}`, false);
  if (!/^[a-z][a-z0-9]{0,7}$/.test(spec.tenant)) throw invalid('tenant name');
  if (spec.accessKey !== stateAccessKey(spec.tenant)) throw invalid("access key must be the tenant's (design §7)");
  if (spec.secretKey !== undefined && (spec.secretKey.length < 8 || spec.secretKey.length > 40)) throw invalid('secret length');
  if (spec.prefix === undefined) return;
  // The prefix is derived from the name (design §7); any other would hand the tenant someone else's objects.
  if (spec.prefix !== `${spec.tenant}/`) throw invalid('key prefix must be <name>/');
  try {
    validatePolicyInput(ctx.opts.bucket, spec.prefix);
  } catch (e) {
    throw invalid((e as Error).message);
  }
}

async function readPolicy(ctx: Minio, name: string): Promise<unknown> {
  const res = await admin(ctx, { path: 'info-canned-policy', query: { name }, accept: [404] });
  return res.status === 404 ? undefined : res.json();
}

async function readUser(ctx: Minio, accessKey: string): Promise<UserInfo | undefined> {
  const res = await admin(ctx, { path: 'user-info', query: { accessKey }, accept: [404] });
  return res.status === 404 ? undefined : res.json<UserInfo>();
}

const policiesOf = (u: UserInfo | undefined) =>
  (u?.policyName ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Sign a listing of the tenant's own prefix with its secret; see the note at the top. */
async function secretWorks(ctx: Minio, spec: StateSpec): Promise<boolean> {
  const res = await signed(
    ctx,
    { accessKey: spec.accessKey, secretKey: spec.secretKey },
    { path: `/${ctx.opts.bucket}`, query: { 'list-type': 2, prefix: spec.prefix, 'max-keys': 1 }, accept: [403, 404] },
  );
  if (res.status !== 403) return true;
  const code = /<Code>([^<]*)<\/Code>/.exec(res.text)?.[1];
  return code !== 'SignatureDoesNotMatch' && code !== 'InvalidAccessKeyId';
}

async function addUser(ctx: Minio, accessKey: string, secretKey: string): Promise<void> {
  await admin(ctx, { method: 'PUT', path: 'add-user', query: { accessKey }, body: await addUserBody(ctx.opts.secretKey, secretKey, ctx.bodyKeys) });
}

/**
 * madmin's add-user body as `mc admin user add` sends it: Argon2id + AES-GCM (id 0x00), the form an
 * implementation other than this adapter's (MinIO's Python SDK) is checked to decrypt.
 */
export async function addUserBody(adminSecret: string, secretKey: string, keys?: DerivedKeys): Promise<Buffer> {
  const derived = keys ? await keys.of(adminSecret) : undefined;
  return encryptData(adminSecret, Buffer.from(JSON.stringify({ secretKey, status: 'enabled' })), derived ? { derived } : {});
}

/** What an ensure or a plan reads of the tenant's state store, once for its three objects. */
interface StateReads {
  /** The canned policy's document; undefined when absent. */
  doc: unknown;
  user: UserInfo | undefined;
  /** Whether the user still signs with the spec's secret; read only of an enabled user. */
  secretWorks?: boolean;
}

async function readState(ctx: Minio, spec: StateSpec): Promise<StateReads> {
  const doc = await readPolicy(ctx, tenantPolicyName(spec.tenant));
  const user = await readUser(ctx, spec.accessKey);
  return { doc, user, ...(user?.status === 'enabled' ? { secretWorks: await secretWorks(ctx, spec) } : {}) };
}

/**
 * The policy, the user and its mapping, each observed in one read of all three (`reads`), taken
 * before any of them is written: add-user keeps an existing user's mapping, so what user-info said
 * still holds after the user's apply.
 */
function stateKinds(ctx: Minio, reads: () => Promise<StateReads>): Array<ObjectKind<StateSpec>> {
  const policy: ObjectKind<StateSpec> = {
    object: (spec) => `policy ${tenantPolicyName(spec.tenant)}`,
    async observe(spec) {
      const { doc } = await reads();
      const current = doc !== undefined && samePolicy(doc, tenantPolicy(ctx.opts.bucket, spec.prefix));
      return { exists: doc !== undefined, drift: doc === undefined || current ? [] : ['statement'] };
    },
    async apply(spec) {
      const body = JSON.stringify(tenantPolicy(ctx.opts.bucket, spec.prefix));
      await admin(ctx, { method: 'PUT', path: 'add-canned-policy', query: { name: tenantPolicyName(spec.tenant) }, body });
    },
  };
  const user: ObjectKind<StateSpec> = {
    object: (spec) => `user ${spec.accessKey}`,
    async observe() {
      const { user, secretWorks } = await reads();
      return { exists: user !== undefined, drift: user === undefined ? [] : user.status !== 'enabled' ? ['enabled'] : secretWorks ? [] : ['secret'] };
    },
    apply: (spec) => addUser(ctx, spec.accessKey, spec.secretKey),
  };
  const mapping: ObjectKind<StateSpec> = {
    object: (spec) => `policy mapping ${tenantPolicyName(spec.tenant)} -> user ${spec.accessKey}`,
    async observe(spec) {
      const mapped = policiesOf((await reads()).user);
      const current = mapped.length === 1 && mapped[0] === tenantPolicyName(spec.tenant);
      return { exists: mapped.length > 0, drift: mapped.length === 0 || current ? [] : ['policy'] };
    },
    async apply(spec) {
      const query = { policyName: tenantPolicyName(spec.tenant), userOrGroup: spec.accessKey, isGroup: 'false' };
      await admin(ctx, { method: 'PUT', path: 'set-user-or-group-policy', query });
    },
  };
  return [policy, user, mapping];
}

/** Each of the state store's objects through `step` (the reconciler's ensure or plan). */
async function each(ctx: Minio, spec: StateSpec, step: (kind: ObjectKind<StateSpec>, spec: StateSpec) => Promise<ObjectOutcome>): Promise<ObjectOutcome[]> {
  check(ctx, spec);
  const outcomes: ObjectOutcome[] = [];
  for (const kind of stateKinds(
    ctx,
    once(() => readState(ctx, spec)),
  ))
    outcomes.push(await step(kind, spec));
  return outcomes;
}

async function observe(ctx: Minio, spec: StateObserveSpec): Promise<StateObservation> {
  check(ctx, spec);
  const name = tenantPolicyName(spec.tenant);
  const doc = await readPolicy(ctx, name);
  const user = await readUser(ctx, spec.accessKey);
  const enabled = user?.status === 'enabled';
  const observation: StateObservation = {
    policy: { name, exists: doc !== undefined, current: doc !== undefined && samePolicy(doc, tenantPolicy(ctx.opts.bucket, spec.prefix)) },
    user: { exists: user !== undefined, enabled, policies: policiesOf(user) },
  };
  if (spec.secretKey !== undefined && enabled) {
    observation.user.secretCurrent = await secretWorks(ctx, { ...spec, secretKey: spec.secretKey });
  }
  return observation;
}

async function remove(ctx: Minio, spec: StateRemoveSpec): Promise<void> {
  check(ctx, spec);
  // The user first: removing it drops its mapping, which would otherwise keep the policy "in use".
  await admin(ctx, { method: 'DELETE', path: 'remove-user', query: { accessKey: spec.accessKey }, accept: [404] });
  await admin(ctx, { method: 'DELETE', path: 'remove-canned-policy', query: { name: tenantPolicyName(spec.tenant) }, accept: [404] });
}
