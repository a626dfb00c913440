// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as tenantctl writes it to a terminal: a control character (an escape sequence, a carriage
 * return) or a bidirectional override shown as its code, not obeyed. A backend's answer reaches
 * the screen in a failure's text; it must not move the cursor, retitle the window or hide a line.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Fields that carry a secret in some answer of the spec. */
export const SECRET_FIELDS = new Set(['tsig_secret', 'secret_key', 'api_token', 'ingest_token', 'read_token', 'password', 'psk', 'enrollment_token']);

/** The answer with every secret replaced by a pointer to where it went; `found` says whether there were any. */
export function redact(value: unknown, placeholder: string): { value: unknown; found: boolean } {
  let found = false;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => {
        if (SECRET_FIELDS.has(k) && typeof x === 'string') {
          found = true;
          return [k, placeholder];
        }
        return [k, walk(x)];
      }),
    );
  };
  return { value: walk(value), found };
}

interface Failure {
  step?: string;
  activity?: string;
  reason?: string;
  backend?: string;
  status?: number;
  answer?: string;
}

/** A failed step in a line a person acts on: which step, which backend answered what, and whether to repeat or to change something. */
export function failureLine(f: Failure): string {
  const who = f.backend ? `${f.backend}${f.status ? ` answered ${f.status}` : ''}` : 'the backend';
  const what = f.reason === 'BackendRefused' ? 'refused on purpose: repeating alone will not help' : 'failed after its retries';
  return `step ${f.step ?? '?'}${f.activity ? ` (${f.activity})` : ''}: ${who}, ${what}${f.answer ? `\n  ${f.answer}` : ''}`;
}

interface Condition {
  ready?: boolean;
  run?: { id?: string; state?: string; operation?: string };
  failure?: Failure;
  since?: string;
}

/** A read's condition, when the object is not ready: what its run is doing, and why. */
export function conditionLine(value: unknown): string | undefined {
  const c = (value as { condition?: Condition } | null)?.condition;
  if (!c || c.ready !== false) return undefined;
  const run = c.run ? `its run ${c.run.id} is ${c.run.state}${c.since ? ` since ${c.since}` : ''}` : 'no run of it is recorded';
  const next = c.run?.state === 'parked' || c.run?.state === 'given-up' ? `; repeat the ${c.run.operation?.replace(/-/g, ' ') ?? 'call'} to resume` : '';
  return `not ready: ${run}${next}${c.failure ? `\n${failureLine(c.failure)}` : ''}`;
}

/** Nested objects as dotted keys: one table row per leaf. */
function flatten(value: unknown, at = ''): [string, string][] {
  if (value === null || typeof value !== 'object') return [[at, value === undefined ? '' : String(value)]];
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) return [[at, value.join(',')]];
    return value.flatMap((v, i) => flatten(v, `${at}[${i}]`));
  }
  return Object.entries(value).flatMap(([k, v]) => flatten(v, at ? `${at}.${k}` : k));
}

function grid(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * An answer as a table: a list (`{tenants: [...]}` and the like) one row per item, columns the
 * items' top-level scalar fields; anything else as field/value rows.
 */
export function table(value: unknown): string {
  if (isReconciled(value)) return reconciledTable(value);
  if (isRunList(value)) return runsTable(value);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 1 && Array.isArray(entries[0]![1])) {
      const items = entries[0]![1] as Record<string, unknown>[];
      if (items.length === 0) return `(no ${entries[0]![0]})`;
      const columns = Object.keys(items[0]!).filter((k) => items.some((i) => i[k] === null || typeof i[k] !== 'object'));
      return grid([columns.map((c) => c.toUpperCase()), ...items.map((i) => columns.map((c) => (i[c] === undefined ? '' : String(i[c]))))]);
    }
  }
  return grid([['FIELD', 'VALUE'], ...flatten(value)]);
}

interface Reconciled {
  name?: string;
  plan?: boolean;
  plan_id?: string;
  plan_expires_at?: string;
  prune?: boolean;
  applied_plan?: string;
  objects: { area: string; object: string; result: string; fields?: string[]; run?: string; note?: string }[];
}

function isReconciled(value: unknown): value is Reconciled {
  const objects = (value as { objects?: unknown } | null)?.objects;
  return Array.isArray(objects) && objects.every((o) => o && typeof o === 'object' && 'area' in o && 'result' in o);
}

const LEFT_AS_IS = new Set(['in-place', 'in-flight', 'unfinished']);

/** In a plan, what a reconcile would do with each object. */
const PLANNED: Record<string, string> = {
  'in-place': 'keep',
  created: 'create',
  corrected: 'correct',
  'needs-restore': 'needs-restore (the tenant restores it)',
  unknown: 'unknown (removed only with --prune)',
  'in-flight': 'leave (a run holds it)',
  unfinished: 'leave (its create is to be repeated)',
};

/**
 * A reconcile's answer (or its plan) as one row per backend object, what is not in place first,
 * then a count: an operator sees at once what drifted and what a reconcile would change.
 */
function reconciledTable(value: Reconciled): string {
  const rows = [...value.objects].sort((a, b) => Number(a.result === 'in-place') - Number(b.result === 'in-place'));
  const word = (r: string) => (value.plan ? (value.prune && r === 'unknown' ? 'remove' : (PLANNED[r] ?? r)) : r);
  // What a reconcile acts on: not what is in place, nor what it leaves to a run or to a repeat.
  const changing = value.objects.filter((o) => !LEFT_AS_IS.has(o.result)).length;
  const head = value.plan
    ? `plan ${value.plan_id ?? ''} for tenant ${value.name ?? ''}: nothing was changed; applying it would act on ${changing} of ${value.objects.length} objects` +
      (value.plan_id ? `\napply it until ${value.plan_expires_at ?? '?'}: tenantctl tenant reconcile ${value.name ?? ''} --apply ${value.plan_id}` : '')
    : `${value.applied_plan ? `applied plan ${value.applied_plan}: ` : ''}reconciled tenant ${value.name ?? ''}: ${changing} of ${value.objects.length} objects were not in place`;
  // An object left alone says by which run and why, in a column of its own when there is one.
  const noted = rows.some((o) => o.run || o.note);
  const noteOf = (o: Reconciled['objects'][number]) =>
    o.run && !(o.note ?? '').includes(o.run) ? [`run ${o.run}`, o.note].filter(Boolean).join(': ') : (o.note ?? '');
  const header = ['AREA', 'OBJECT', value.plan ? 'PLAN' : 'RESULT', 'FIELDS', ...(noted ? ['NOTE'] : [])];
  const cells = rows.map((o) => [o.area, o.object, word(o.result), (o.fields ?? []).join(','), ...(noted ? [noteOf(o)] : [])]);
  return `${head}\n\n${grid([header, ...cells])}`;
}

interface RunList {
  runs: { id: string; operation: string; object?: string; status: string; outcome?: string; failed_steps: string[]; failure?: Failure; started_at: string }[];
  next_page?: string;
}

function isRunList(value: unknown): value is RunList {
  const runs = (value as { runs?: unknown } | null)?.runs;
  return Array.isArray(runs) && runs.every((r) => r && typeof r === 'object' && 'operation' in r && 'status' in r);
}

/** A tenant's runs, newest first; a parked or failed one says what failed, as a 502 would. */
function runsTable(value: RunList): string {
  if (value.runs.length === 0) return '(no runs)';
  const rows = value.runs.map((r) => [
    r.started_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    r.operation,
    r.object ?? '',
    r.status,
    r.outcome ?? '',
    r.failed_steps.join(','),
    r.failure ? failureLine(r.failure).split('\n')[0]! : '',
  ]);
  const more = value.next_page ? `\n\nmore: --page ${value.next_page}` : '';
  return `${grid([['STARTED', 'OPERATION', 'OBJECT', 'STATUS', 'OUTCOME', 'FAILED STEPS', 'FAILURE'], ...rows])}${more}`;
}
