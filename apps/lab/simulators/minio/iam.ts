import type { PolicyDocument, PolicyStatement } from '../../../../backends/minio/policy.js';

/**
 * Parsing and evaluation of IAM policy documents the way MinIO does it (minio/pkg policy):
 * scalars become sets, Version is required, an explicit Deny wins, otherwise any matching Allow
 * grants. Patterns use `*` and `?` wildcards. Condition operators: String(Not)Equals, String(Not)Like;
 * a key the request does not carry fails a positive operator (that is why a GetObject of a missing
 * key reports AccessDenied rather than NoSuchKey to a prefix-restricted user).
 */

export class PolicyError extends Error {}

const OPERATORS = new Set(['StringEquals', 'StringNotEquals', 'StringLike', 'StringNotLike']);
const ACTION_RE = /^(\*|(s3|admin|kms|sts):[A-Za-z0-9*?]+)$/;

function set(v: unknown, what: string): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return [...new Set(v as string[])].sort();
  if (v === undefined) return [];
  throw new PolicyError(`invalid ${what} value`);
}

/** Parse a policy as add-canned-policy receives it; the result is what info-canned-policy returns. */
export function parsePolicy(text: string): PolicyDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new PolicyError(`invalid JSON: ${(err as Error).message}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new PolicyError('policy must be a JSON object');
  const doc = raw as Record<string, unknown>;
  const statements = Array.isArray(doc.Statement) ? doc.Statement : doc.Statement === undefined ? [] : [doc.Statement];
  if (statements.length === 0) throw new PolicyError('policy statement must not be empty');
  const out: PolicyStatement[] = statements.map((s, i) => {
    if (!s || typeof s !== 'object') throw new PolicyError(`statement ${i} is not an object`);
    const st = s as Record<string, unknown>;
    if (st.Effect !== 'Allow' && st.Effect !== 'Deny') throw new PolicyError(`invalid Effect ${JSON.stringify(st.Effect)}`);
    const actions = set(st.Action, 'Action');
    if (actions.length === 0) throw new PolicyError('Action must not be empty');
    for (const a of actions) if (!ACTION_RE.test(a)) throw new PolicyError(`invalid action '${a}'`);
    const resources = set(st.Resource, 'Resource');
    const s3Actions = actions.some((a) => a === '*' || a.startsWith('s3:'));
    if (s3Actions && resources.length === 0) throw new PolicyError('Resource must not be empty');
    for (const r of resources) if (!r.startsWith('arn:aws:s3:::')) throw new PolicyError(`invalid resource '${r}'`);
    const statement: PolicyStatement = { Effect: st.Effect, Action: actions, Resource: resources };
    if (st.Condition !== undefined) {
      if (!st.Condition || typeof st.Condition !== 'object') throw new PolicyError('invalid Condition');
      const cond: Record<string, Record<string, string[]>> = {};
      for (const [op, keys] of Object.entries(st.Condition as Record<string, unknown>)) {
        if (!OPERATORS.has(op)) throw new PolicyError(`invalid condition operator '${op}'`);
        if (!keys || typeof keys !== 'object') throw new PolicyError(`invalid condition '${op}'`);
        cond[op] = {};
        for (const [k, v] of Object.entries(keys as Record<string, unknown>)) cond[op][k] = set(v, 'Condition');
      }
      statement.Condition = cond;
    }
    return statement;
  });
  return { Version: typeof doc.Version === 'string' ? doc.Version : '', Statement: out };
}

/** MinIO's wildcard.Match: `*` any run (also empty), `?` exactly one character. */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

export interface AccessRequest {
  action: string;
  /** `arn:aws:s3:::bucket` or `arn:aws:s3:::bucket/key`. */
  resource: string;
  /** Condition keys the request carries, e.g. `s3:prefix`. */
  conditions: Record<string, string>;
}

function conditionsHold(cond: PolicyStatement['Condition'], req: AccessRequest): boolean {
  for (const [op, keys] of Object.entries(cond ?? {})) {
    for (const [key, values] of Object.entries(keys)) {
      const value = req.conditions[key];
      const like = op.includes('Like');
      const hit = value !== undefined && values.some((v) => (like ? wildcardMatch(v, value) : v === value));
      const negated = op.includes('Not');
      if (negated ? hit : !hit) return false;
    }
  }
  return true;
}

function statementMatches(s: PolicyStatement, req: AccessRequest): boolean {
  return s.Action.some((a) => wildcardMatch(a, req.action)) && s.Resource.some((r) => wildcardMatch(r, req.resource)) && conditionsHold(s.Condition, req);
}

export function isAllowed(policies: PolicyDocument[], req: AccessRequest): boolean {
  const statements = policies.flatMap((p) => p.Statement);
  if (statements.some((s) => s.Effect === 'Deny' && statementMatches(s, req))) return false;
  return statements.some((s) => s.Effect === 'Allow' && statementMatches(s, req));
}
