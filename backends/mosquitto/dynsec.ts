/**
 * Broker accounts on Mosquitto 2 through its dynamic-security plugin. One account is a dynsec
 * client `<tenant>-<name>` holding exactly one role of the same name; the role carries the
 * account's absolute patterns (core/names/broker-patterns.ts) and denies everything else on its
 * own, so the account stays closed even on a broker whose default ACL access is open:
 *   publishClientSend    allow <each publish pattern>     priority 0
 *   subscribePattern     allow <each subscribe pattern>   priority 0
 *   publishClientReceive allow <each subscribe pattern>   priority 0
 *   publishClientSend / subscribePattern / publishClientReceive  deny `#`  priority -1
 *
 * Passwords: the service keeps only a hash and dynsec never reveals one, so ensure leaves the
 * broker's password alone unless one is given (first issue or restore). A given password is
 * first tried with a CONNECT: when it already works nothing is written, because
 * setClientPassword disconnects the account's current connections.
 *
 * Mosquitto 2.0 behaviour this relies on (checked against 2.0.11 in test/integration/broker.test.ts):
 * modifyRole replaces a role's ACL list in one step and leaves connected clients connected, but
 * every later publish, subscribe and delivery, on open connections too, is checked against the new
 * list: an open subscription to a topic no longer allowed stops receiving. deleteClient,
 * setClientPassword and modifyClient disconnect the client's current connections; the next
 * connection then uses the new state (for deleteClient: is refused). Deleting a role while a client still holds it leaves
 * a dangling reference that crashes 2.0.11 at a later command (eclipse-mosquitto/mosquitto#2660),
 * so remove() always deletes the client before its role.
 */
import { BackendError, type ObjectOutcome } from '../../core/backend-outcome.js';
import { ensure as ensureOne, once, plan as planOne, type ObjectKind } from '../reconcile/reconcile.js';
import { createDynsecControl, type DynsecControl, type DynsecResponse } from './dynsec-control.js';
import type { BackendCalls } from '../http/calls.js';

export interface DynsecAdapterOptions {
  /**
   * `mqtt://host:port` or `mqtts://host:port` of a listener where the dynsec admin may log in.
   * Accounts must be able to log in there too: a restored password is tried there first.
   */
  url: string;
  adminUser: string;
  adminPassword: string;
  /** Bound of each command (and of connecting). Default 5000. */
  timeoutMs?: number;
  /** PEM certificates to trust for `mqtts://` (the broker's private CA). */
  ca?: string;
  /** Its worker's pace and admission of backend calls, as the HTTP adapters' (`BackendCalls`); none: neither. */
  calls?: BackendCalls;
}

export interface BrokerAccountSpec {
  username: string;
  /**
   * Only when this call minted one or the caller restores one. Absent: the broker's password is
   * left as it is (and an absent client is created without one, so it cannot log in).
   */
  password?: string | undefined;
  /** Absolute patterns, as returned by absolutePatterns(). */
  publish: readonly string[];
  subscribe: readonly string[];
}

export interface DynsecAcl {
  acltype: string;
  topic: string;
  allow: boolean;
  priority: number;
}

export interface BrokerAccountObservation {
  username: string;
  client: { roles: string[]; groups: string[]; disabled: boolean; clientid: string | null } | null;
  role: { acls: DynsecAcl[] } | null;
  /** The allowed patterns as the broker enforces them (empty when the role is absent). */
  publish: string[];
  subscribe: string[];
  /** Client and role exist and have exactly the managed shape (patterns aside). */
  managedShape: boolean;
}

export interface BrokerAdapter {
  observe(username: string): Promise<BrokerAccountObservation | null>;
  /** Several accounts from one message to the broker (a reconcile's one read). */
  observeMany(usernames: readonly string[]): Promise<Map<string, BrokerAccountObservation | null>>;
  /**
   * Adopt and correct: role ACLs replaced exactly, client bound to its role only, enabled. From
   * `observed` when the caller has just read the account (a reconcile), else it reads it first.
   */
  ensure(account: BrokerAccountSpec, observed?: BrokerAccountObservation | null): Promise<ObjectOutcome[]>;
  /** What ensure would report, from reads alone (`observed`, or one read); a given password is tried by logging in. */
  plan(account: BrokerAccountSpec, observed?: BrokerAccountObservation | null): Promise<ObjectOutcome[]>;
  /** Delete client then role; absent is fine. The client's next connection is refused. */
  remove(username: string): Promise<void>;
  /** Usernames with this prefix known to the broker as a client or a role (for tenant delete). */
  listClients(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

const ALLOW_PRIORITY = 0;
const DENY_PRIORITY = -1;

/** The exact ACL list the role of an account must hold. */
export function roleAcls(publish: readonly string[], subscribe: readonly string[]): DynsecAcl[] {
  const allow =
    (acltype: string) =>
    (topic: string): DynsecAcl => ({ acltype, topic, allow: true, priority: ALLOW_PRIORITY });
  return [
    ...publish.map(allow('publishClientSend')),
    ...subscribe.map(allow('subscribePattern')),
    ...subscribe.map(allow('publishClientReceive')),
    ...['publishClientSend', 'subscribePattern', 'publishClientReceive'].map((acltype) => ({ acltype, topic: '#', allow: false, priority: DENY_PRIORITY })),
  ];
}

export function createDynsecAdapter(opts: DynsecAdapterOptions): BrokerAdapter {
  const control = pacedBy(opts.calls, createDynsecControl({ ...opts, timeoutMs: opts.timeoutMs ?? 5000 }));
  return {
    observe: (username) => observe(control, username),
    observeMany: (usernames) => observeMany(control, usernames),
    ensure: (account, observed) => ensure(control, account, observed),
    plan: (account, observed) => each(control, account, observed, planOne),
    remove: (username) => remove(control, username),
    listClients: (prefix) => listClients(control, prefix),
    close: () => control.close(),
  };
}

/**
 * Every message to the broker waits its turn and is admitted as an HTTP adapter's call is: paced by
 * SITE_BACKEND_CALLS_PER_SECOND, and never sent by an attempt Temporal gave up on.
 */
function pacedBy(calls: BackendCalls | undefined, control: DynsecControl): DynsecControl {
  if (!calls) return control;
  return {
    run: async (commands) => (await calls.paced('broker'), control.run(commands)),
    canConnect: (username, password) => control.canConnect(username, password),
    close: () => control.close(),
  };
}

async function one(control: DynsecControl, command: Record<string, unknown> & { command: string }): Promise<DynsecResponse> {
  const [r] = await control.run([command]);
  if (!r) throw new BackendError('broker', `no response to ${command.command}`);
  return r;
}

async function ok(control: DynsecControl, command: Record<string, unknown> & { command: string }): Promise<DynsecResponse> {
  const r = await one(control, command);
  // A dynsec refusal is deterministic: repeating the same command will not help.
  if (r.error) throw new BackendError('broker', `${command.command} refused: ${r.error}`, false);
  return r;
}

/** Every account in one message to the broker: a getClient and a getRole for each. */
async function observeMany(control: DynsecControl, usernames: readonly string[]): Promise<Map<string, BrokerAccountObservation | null>> {
  const found = new Map<string, BrokerAccountObservation | null>();
  if (usernames.length === 0) return found;
  const answers = await control.run(
    usernames.flatMap((username) => [
      { command: 'getClient', username },
      { command: 'getRole', rolename: username },
    ]),
  );
  usernames.forEach((username, i) => found.set(username, observation(username, answers[2 * i], answers[2 * i + 1])));
  return found;
}

async function observe(control: DynsecControl, username: string): Promise<BrokerAccountObservation | null> {
  return (await observeMany(control, [username])).get(username) ?? null;
}

/** The account's role and client, each observed in one read of the account (`observed`, or read once). */
async function each(
  control: DynsecControl,
  account: BrokerAccountSpec,
  observed: BrokerAccountObservation | null | undefined,
  step: (kind: ObjectKind<BrokerAccountSpec>, account: BrokerAccountSpec) => Promise<ObjectOutcome>,
): Promise<ObjectOutcome[]> {
  const seen = observed === undefined ? once(() => observe(control, account.username)) : async () => observed;
  return [await step(roleKind(control, seen), account), await step(clientKind(control, seen), account)];
}

async function ensure(control: DynsecControl, account: BrokerAccountSpec, observed?: BrokerAccountObservation | null): Promise<ObjectOutcome[]> {
  const [role, client] = await each(control, account, observed, ensureOne);
  const unusable = client!.result === 'created' && account.password === undefined;
  return [role!, unusable ? { ...client!, object: `${client!.object} (no password: it cannot log in until one is restored)` } : client!];
}

/** The account's role: created with its ACLs, or its ACL list replaced exactly. */
function roleKind(control: DynsecControl, seen: () => Promise<BrokerAccountObservation | null>): ObjectKind<BrokerAccountSpec> {
  return {
    object: (a) => `mqtt role ${a.username}`,
    async observe(a) {
      const found = await seen();
      return { exists: !!found?.role, drift: accountDrift(a, found).role };
    },
    async apply(a, o) {
      const modify = { command: 'modifyRole', rolename: a.username, acls: roleAcls(a.publish, a.subscribe) };
      if (o.exists) return void (await ok(control, modify));
      const r = await one(control, { command: 'createRole', rolename: a.username, acls: modify.acls });
      // A concurrent ensure created it first: make it ours.
      if (r.error && isAlreadyExists(r.error)) await ok(control, modify);
      else if (r.error) throw new BackendError('broker', `createRole refused: ${r.error}`, false);
    },
  };
}

/**
 * The account's client: created bound to its role, or its binding, its enabled flag and its
 * password corrected. A given password is tried by logging in, which only a client in shape can:
 * by observe then, else by the apply once it corrected the rest (reported as `found`).
 */
function clientKind(control: DynsecControl, seen: () => Promise<BrokerAccountObservation | null>): ObjectKind<BrokerAccountSpec> {
  return {
    object: (a) => `mqtt client ${a.username}`,
    async observe(a) {
      const client = (await seen())?.client;
      if (!client) return { exists: false, drift: [] };
      const drift = clientDrift(a.username, client);
      return { exists: true, drift: drift.length > 0 ? drift : await passwordDrift(control, a) };
    },
    async apply(a, o) {
      if (o.exists) return correctClient(control, a, o.drift);
      const r = await one(control, {
        command: 'createClient',
        username: a.username,
        ...(a.password !== undefined ? { password: a.password } : {}),
        roles: [{ rolename: a.username }],
      });
      if (!r.error) return;
      if (!isAlreadyExists(r.error)) throw new BackendError('broker', `createClient refused: ${r.error}`, false);
      // Created by a concurrent ensure: adopt it.
      const now = (await observe(control, a.username))?.client;
      if (!now) throw new BackendError('broker', `client ${a.username} vanished during ensure`);
      const adopted = { exists: true, drift: clientDrift(a.username, now) };
      return { adopted, ...(await correctClient(control, a, adopted.drift)) };
    },
  };
}

/** `password` when the given one does not log in (setClientPassword would disconnect the account: tried first). */
async function passwordDrift(control: DynsecControl, a: BrokerAccountSpec): Promise<string[]> {
  return a.password !== undefined && !(await control.canConnect(a.username, a.password)) ? ['password'] : [];
}

async function correctClient(control: DynsecControl, a: BrokerAccountSpec, drift: string[]): Promise<{ found?: string[] }> {
  const { username } = a;
  if (drift.includes('role binding')) await ok(control, { command: 'modifyClient', username, clientid: '', roles: [{ rolename: username }], groups: [] });
  if (drift.includes('enabled')) await ok(control, { command: 'enableClient', username });
  // Tried by observe (a client in shape), or only now that the client may log in.
  const found = drift.includes('password') ? [] : await passwordDrift(control, a);
  if (drift.includes('password') || found.length > 0) await ok(control, { command: 'setClientPassword', username, password: a.password });
  return { found };
}

async function remove(control: DynsecControl, username: string): Promise<void> {
  const [c, r] = await control.run([
    { command: 'deleteClient', username },
    { command: 'deleteRole', rolename: username },
  ]);
  if (c?.error && !isNotFound(c.error)) throw new BackendError('broker', `deleteClient refused: ${c.error}`, false);
  if (r?.error && !isNotFound(r.error)) throw new BackendError('broker', `deleteRole refused: ${r.error}`, false);
}

async function listClients(control: DynsecControl, prefix: string): Promise<string[]> {
  const [c, r] = await control.run([
    { command: 'listClients', verbose: false, count: -1, offset: 0 },
    { command: 'listRoles', verbose: false, count: -1, offset: 0 },
  ]);
  if (!c || c.error) throw new BackendError('broker', `listClients refused: ${c?.error ?? 'no response'}`, false);
  if (!r || r.error) throw new BackendError('broker', `listRoles refused: ${r?.error ?? 'no response'}`, false);
  const names = new Set<string>();
  for (const n of [...stringList(c.data?.clients), ...stringList(r.data?.roles)]) {
    if (n.startsWith(prefix)) names.add(n);
  }
  return [...names].sort();
}

function observation(username: string, c: DynsecResponse | undefined, r: DynsecResponse | undefined): BrokerAccountObservation | null {
  if (!c || !r) throw new BackendError('broker', `no response to getClient or getRole of ${username}`);
  const client = !c.error ? parseClient(c) : null;
  const role = !r.error ? parseRole(r) : null;
  if (c.error && !isNotFound(c.error)) throw new BackendError('broker', `getClient refused: ${c.error}`, false);
  if (r.error && !isNotFound(r.error)) throw new BackendError('broker', `getRole refused: ${r.error}`, false);
  if (!client && !role) return null;
  const allowed = (t: string) => (role?.acls ?? []).filter((a) => a.acltype === t && a.allow).map((a) => a.topic);
  return {
    username,
    client,
    role,
    publish: allowed('publishClientSend'),
    subscribe: allowed('subscribePattern'),
    managedShape: !!client && !!role && clientInShape(username, client),
  };
}

/**
 * What differs of an account, in the API's words: of its role `publish`, `subscribe` (or `acls`
 * when only the deny rules or priorities differ), of its client `role binding` and `enabled`.
 * Absent parts differ in nothing: they are created, not corrected. Its password cannot be read.
 */
export function accountDrift(
  account: Pick<BrokerAccountSpec, 'username' | 'publish' | 'subscribe'>,
  seen: BrokerAccountObservation | null,
): { role: string[]; client: string[] } {
  const role: string[] = [];
  if (seen?.role && !sameAcls(seen.role.acls, roleAcls(account.publish, account.subscribe))) {
    if (!sameSet([...new Set(seen.publish)], [...new Set(account.publish)])) role.push('publish');
    if (!sameSet([...new Set(seen.subscribe)], [...new Set(account.subscribe)])) role.push('subscribe');
    if (role.length === 0) role.push('acls');
  }
  return { role, client: seen?.client ? clientDrift(account.username, seen.client) : [] };
}

function clientDrift(username: string, c: NonNullable<BrokerAccountObservation['client']>): string[] {
  return [...(!sameSet(c.roles, [username]) || c.groups.length > 0 || c.clientid ? ['role binding'] : []), ...(c.disabled ? ['enabled'] : [])];
}

function clientInShape(username: string, c: NonNullable<BrokerAccountObservation['client']>): boolean {
  return sameSet(c.roles, [username]) && c.groups.length === 0 && !c.disabled && !c.clientid;
}

function parseClient(r: DynsecResponse): NonNullable<BrokerAccountObservation['client']> {
  const c = (r.data?.client ?? {}) as {
    clientid?: unknown;
    disabled?: unknown;
    roles?: Array<{ rolename?: unknown }>;
    groups?: Array<{ groupname?: unknown }>;
  };
  return {
    roles: (c.roles ?? []).map((x) => String(x.rolename)),
    groups: (c.groups ?? []).map((x) => String(x.groupname)),
    disabled: c.disabled === true,
    clientid: typeof c.clientid === 'string' && c.clientid !== '' ? c.clientid : null,
  };
}

function parseRole(r: DynsecResponse): { acls: DynsecAcl[] } {
  const role = (r.data?.role ?? {}) as { acls?: Array<Partial<DynsecAcl>> };
  return {
    acls: (role.acls ?? []).map((a) => ({
      acltype: String(a.acltype),
      topic: String(a.topic),
      allow: a.allow === true,
      priority: typeof a.priority === 'number' ? a.priority : 0,
    })),
  };
}

function aclKey(a: DynsecAcl): string {
  return JSON.stringify([a.acltype, a.topic, a.allow, a.priority]);
}

function sameAcls(have: DynsecAcl[], want: DynsecAcl[]): boolean {
  return sameSet(have.map(aclKey), want.map(aclKey));
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && a.length === b.length && [...sa].every((x) => sb.has(x));
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

const isNotFound = (error: string) => /not found/i.test(error);
const isAlreadyExists = (error: string) => /already exists/i.test(error);
