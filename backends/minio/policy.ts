/**
 * The canned policy a tenant's state-store user gets: read, write and delete its own objects under
 * `<bucket>/<prefix>`, list the bucket only below that prefix, and find the bucket's region (SDKs
 * such as minio-go and mc ask for it before anything else). Nothing else in the bucket.
 */

export interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action: string[];
  Resource: string[];
  Condition?: Record<string, Record<string, string[]>>;
}

export interface PolicyDocument {
  Version: string;
  Statement: PolicyStatement[];
}

export const TENANT_OBJECT_ACTIONS = ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'] as const;

/** The canned policy's name for a tenant. */
export function tenantPolicyName(tenant: string): string {
  return `tenant-${tenant}`;
}

const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Throws on a bucket or prefix that would make the policy wrong or wider than meant. */
export function validatePolicyInput(bucket: string, prefix: string): void {
  if (!BUCKET_RE.test(bucket) || bucket.includes('..')) throw new Error(`invalid bucket name`);
  // A wildcard character would widen the grant; an empty or slash-less prefix would reach other tenants.
  if (!prefix.endsWith('/') || prefix.length < 2 || prefix.startsWith('/') || /[*?$]/.test(prefix)) {
    throw new Error(`invalid key prefix`);
  }
}

export function tenantPolicy(bucket: string, prefix: string): PolicyDocument {
  validatePolicyInput(bucket, prefix);
  return {
    Version: '2012-10-17',
    Statement: [
      { Effect: 'Allow', Action: ['s3:GetBucketLocation'], Resource: [`arn:aws:s3:::${bucket}`] },
      {
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: [`arn:aws:s3:::${bucket}`],
        Condition: { StringLike: { 's3:prefix': [`${prefix}*`] } },
      },
      { Effect: 'Allow', Action: [...TENANT_OBJECT_ACTIONS], Resource: [`arn:aws:s3:::${bucket}/${prefix}*`] },
    ],
  };
}

function asList(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return [];
}

function normalizeCondition(c: unknown): Record<string, Record<string, string[]>> | undefined {
  if (!c || typeof c !== 'object') return undefined;
  const out: Record<string, Record<string, string[]>> = {};
  for (const op of Object.keys(c).sort()) {
    const keys = (c as Record<string, unknown>)[op];
    if (!keys || typeof keys !== 'object') continue;
    const inner: Record<string, string[]> = {};
    for (const k of Object.keys(keys).sort()) inner[k] = [...new Set(asList((keys as Record<string, unknown>)[k]))].sort();
    out[op] = inner;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * A policy in a canonical form, so a document MinIO hands back (re-marshalled: scalars as arrays,
 * sets sorted, Sid and Id as given) compares equal to the one sent. Unknown input yields undefined.
 */
export function normalizePolicy(doc: unknown): PolicyDocument | undefined {
  if (!doc || typeof doc !== 'object') return undefined;
  const d = doc as Record<string, unknown>;
  const statements = Array.isArray(d.Statement) ? d.Statement : d.Statement ? [d.Statement] : [];
  const out: PolicyStatement[] = [];
  for (const s of statements) {
    if (!s || typeof s !== 'object') return undefined;
    const st = s as Record<string, unknown>;
    if (st.Effect !== 'Allow' && st.Effect !== 'Deny') return undefined;
    const n: PolicyStatement = {
      Effect: st.Effect,
      Action: [...new Set(asList(st.Action))].sort(),
      Resource: [...new Set(asList(st.Resource))].sort(),
    };
    const cond = normalizeCondition(st.Condition);
    if (cond) n.Condition = cond;
    out.push(n);
  }
  const key = (s: PolicyStatement) => JSON.stringify(s);
  out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return { Version: typeof d.Version === 'string' ? d.Version : '', Statement: out };
}

/** Whether two policy documents grant the same thing in the same shape. */
export function samePolicy(a: unknown, b: unknown): boolean {
  const na = normalizePolicy(a);
  const nb = normalizePolicy(b);
  return na !== undefined && nb !== undefined && JSON.stringify(na) === JSON.stringify(nb);
}
