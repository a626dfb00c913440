import type { BackendCalls } from '../http/calls.js';
import { BackendError, type ObjectOutcome } from '../../core/backend-outcome.js';
import { ensure as ensureOne, type ObjectKind } from '../reconcile/reconcile.js';
import { BackendHttp } from '../http/client.js';
import { unifiApiBase, unifiSession, writeRefusedFix, type UnifiAccess, type UnifiDeployment, type UnifiSession } from './unifi-session.js';
import type { WifiAdapter, WifiChange, WifiController, WifiKeyRef, WifiKeySpec, WifiKeyState, WifiPlace } from './adapter.js';
import type { ChangeResult } from '../../core/backend-outcome.js';
import { isPlaceholderPassword, placeholderPassword, pskFingerprint, pskProblem } from '../../core/credentials/wifi-psk.js';
import { normalizeMac } from '../../core/names/mac.js';
import { Mutex } from 'async-mutex';

export type { WifiAdapter, WifiChange, WifiController, WifiKeyRef, WifiKeySpec, WifiKeyState, WifiPlace } from './adapter.js';
export { unifiApiBase, type UnifiDeployment } from './unifi-session.js';

/**
 * Wi-Fi keys as UniFi Network private pre-shared keys, through the Network application's classic
 * API on either deployment: a UniFi OS console (the application proxied under `/proxy/network`,
 * with an API key in `X-API-KEY` or a local admin's login) or a self-hosted Network application
 * (its own `/api`, a login only). See unifi-session.ts for the logins.
 *
 * A WLAN's PPSK list is one field of the wlanconf object, so every change is a read of the
 * WLAN and a PUT of the whole list. Entries have no name: the service's entry is the one whose
 * password matches the key (ensure has the psk; observe and remove use the fingerprint the
 * service stored, so a key can be found and revoked even when its psk is no longer readable).
 *
 * Writes to one SSID are serialized inside this adapter. Two processes writing the same WLAN
 * can still lose one another's entry (the controller has no conditional update), so callers
 * that run several workers must serialize per SSID themselves; a reconcile puts a lost entry back.
 */
export interface UnifiWifiOptions {
  /** The console's or the application's base URL, e.g. `https://192.168.1.1`, `https://unifi:8443`. */
  url: string;
  /** `unifi-os` (default): a console; `self-hosted`: the Network application on a server of its own. */
  deployment?: UnifiDeployment;
  /** A console's API key (UniFi OS only); else `username` and `password` log in. */
  apiKey?: string;
  username?: string;
  password?: string;
  /** Short site name as in `api/s/<site>`; `default` unless the console has several. */
  site?: string;
  /**
   * Network (name or id) for the placeholder left when a WLAN's last key is revoked: an isolated
   * one with nowhere to go. Absent: the revoked key's own network (the placeholder's random
   * password already keeps everyone out).
   */
  placeholderNetwork?: string;
  timeoutMs?: number;
  /** The worker's pacing and telemetry of its backend calls (backends/http/calls.ts); neither when absent. */
  calls?: BackendCalls;
  /** PEM certificates to trust for this backend's HTTPS (its private CA); public roots when absent. */
  ca?: string;
  /** The controller's own certificate's SHA-256 fingerprint, pinned (instead of `ca`). */
  pin?: string;
}

/**
 * The controller's whole PPSK entry: a password and the network it places clients on. There is no
 * field that binds an entry to a client (go-unifi's generated `WLANPrivatePresharedKeys`, from the
 * controller's own field list); a key is bound to a client by the WLAN's MAC allow-list instead
 * (`mac_filter_*`), on a WLAN the site keeps for bound keys.
 */
interface PpskEntry {
  password: string;
  networkconf_id: string;
  [field: string]: unknown;
}

/** UniFi Network: private pre-shared keys, bound to clients by a WLAN's MAC allow-list. */
export const unifiController: WifiController<UnifiWifiOptions> = {
  connect: (opts) => createUnifiWifiAdapter(opts),
};

interface Wlan {
  _id: string;
  name: string;
  enabled?: boolean;
  /** The WLAN's own network and passphrase: where a client goes when private keys are off. */
  networkconf_id?: string;
  x_passphrase?: string;
  private_preshared_keys_enabled?: boolean;
  private_preshared_keys?: PpskEntry[];
  mac_filter_enabled?: boolean;
  mac_filter_policy?: string;
  mac_filter_list?: string[];
}

/** The WLAN's allow-list as the service reads it: lowercase colon form, like every MAC it stores. */
const allowListOf = (wlan: Wlan): string[] => (wlan.mac_filter_list ?? []).map((m) => m.toLowerCase());
const filtersByAllowList = (wlan: Wlan): boolean => wlan.mac_filter_enabled === true && wlan.mac_filter_policy === 'allow';

interface Network {
  _id: string;
  name: string;
  vlan_enabled?: boolean;
  vlan?: number;
}

interface Answer<T> {
  meta?: { rc?: string; msg?: string };
  data?: Array<T & { msg?: string; validationError?: { field?: string } }>;
}

const PRODUCT = 'unifi';

/** What the adapter's functions share: the logged-in API, the site's path, and the per-SSID write locks. */
interface Unifi {
  session: UnifiSession;
  /** The credential's kind, for the fix a refused write names. */
  access: UnifiAccess;
  base: string;
  placeholderNetwork?: string;
  /** One lock per SSID while it is wanted, shared by every call of this adapter: writes to one SSID never overlap. */
  locks: Map<string, Mutex>;
}

export function createUnifiWifiAdapter(opts: UnifiWifiOptions): WifiAdapter {
  const http = new BackendHttp(PRODUCT, opts.url, { accept: 'application/json' }, opts.timeoutMs, { ca: opts.ca, pin: opts.pin, calls: opts.calls });
  const ctx: Unifi = {
    session: unifiSession(http, opts),
    access: opts,
    base: unifiApiBase(opts),
    placeholderNetwork: opts.placeholderNetwork,
    locks: new Map(),
  };
  return {
    observe: (ref) => observe(ctx, ref),
    ensure: (spec: WifiKeySpec) => ensureKeys(ctx, spec.ssid, [spec], false),
    ensureKeys: (ssid, specs, plan) => ensureKeys(ctx, ssid, specs, plan),
    write: (ssid, changes) => serialized(ctx, ssid, () => write(ctx, ssid, changes)),
    remove: (ref) => remove(ctx, ref),
    placesOf: (psk) => placesOf(ctx, psk),
  };
}

async function call<T>(ctx: Unifi, method: 'GET' | 'PUT', path: string, json?: unknown): Promise<T[]> {
  const res = await ctx.session.call({ method, path: `${ctx.base}/${path}`, json, accept: [400, 401, 403, 404] });
  let body: Answer<T> | undefined;
  try {
    body = res.json<Answer<T>>();
  } catch {
    body = undefined;
  }
  if (res.status < 300 && body?.meta?.rc === 'ok') return body.data ?? [];
  // Only the controller's codes and the refused field name go into the detail: the data of an
  // answer can hold passwords.
  const first = body?.data?.[0];
  const field = first?.validationError?.field;
  const detail = [body?.meta?.msg ?? 'no controller message', first?.msg, field && `field ${field}`].filter(Boolean).join(' ');
  // A write refused for want of the right (the read before it passed): say which setting to change.
  const fix = method === 'PUT' && res.status === 403 ? `: ${writeRefusedFix(ctx.access)}` : '';
  throw new BackendError(PRODUCT, `${method} ${path} -> ${res.status} ${detail}${fix}`, false, res.status);
}

function serialized<T>(ctx: Unifi, ssid: string, work: () => Promise<T>): Promise<T> {
  let lock = ctx.locks.get(ssid);
  if (!lock) ctx.locks.set(ssid, (lock = new Mutex()));
  const held = lock;
  // Forgotten once no write of that SSID holds or waits for it.
  return held.runExclusive(work).finally(() => {
    if (!held.isLocked() && ctx.locks.get(ssid) === held) ctx.locks.delete(ssid);
  });
}

async function wlanBySsid(ctx: Unifi, ssid: string): Promise<Wlan | undefined> {
  return (await call<Wlan>(ctx, 'GET', 'rest/wlanconf')).find((w) => w.name === ssid);
}

const matches = (ref: WifiKeyRef) => (e: PpskEntry) => !isPlaceholderPassword(e.password) && pskFingerprint(ref.keyId, e.password) === ref.fingerprint;

async function observe(ctx: Unifi, ref: WifiKeyRef): Promise<WifiKeyState | undefined> {
  const wlan = await wlanBySsid(ctx, ref.ssid);
  const entry = wlan?.private_preshared_keys?.find(matches(ref));
  if (!entry) return undefined;
  const networks = await call<Network>(ctx, 'GET', 'rest/networkconf');
  return {
    ssid: ref.ssid,
    keyId: ref.keyId,
    networkId: entry.networkconf_id,
    networkName: networks.find((n) => n._id === entry.networkconf_id)?.name,
    ...(ref.releaseMac && filtersByAllowList(wlan!) && allowListOf(wlan!).includes(ref.releaseMac) ? { mac: ref.releaseMac } : {}),
  };
}

async function placesOf(ctx: Unifi, psk: string): Promise<WifiPlace[]> {
  const [wlans, networks] = [await call<Wlan>(ctx, 'GET', 'rest/wlanconf'), await call<Network>(ctx, 'GET', 'rest/networkconf')];
  const place = (ssid: string, networkId: string): WifiPlace => {
    const net = networks.find((n) => n._id === networkId);
    return { ssid, networkId, networkName: net?.name, ...(net?.vlan_enabled && net.vlan !== undefined ? { vlan: net.vlan } : {}) };
  };
  return wlans.flatMap((w) => {
    // A disabled WLAN places no one. The WLAN's own passphrase counts whether private keys are on
    // or not: which of the two a controller honours beside the other is not documented.
    if (w.enabled === false) return [];
    const keys = w.private_preshared_keys_enabled
      ? (w.private_preshared_keys ?? []).filter((e) => e.password === psk).map((e) => place(w.name, e.networkconf_id))
      : [];
    return [...keys, ...(w.x_passphrase === psk && w.networkconf_id ? [place(w.name, w.networkconf_id)] : [])];
  });
}

async function remove(ctx: Unifi, ref: WifiKeyRef): Promise<void> {
  unwrap(await serialized(ctx, ref.ssid, () => write(ctx, ref.ssid, [{ kind: 'remove', ref }])));
}

/** The changes to one WLAN, on its state as read; `put` is the body of the write, when one is needed. */
async function edited(
  ctx: Unifi,
  ssid: string,
  wlan: Wlan,
  networks: Network[],
  changes: WifiChange[],
): Promise<{ outcomes: Array<ChangeResult<ObjectOutcome[]>>; put?: Record<string, unknown> }> {
  const st: WlanState = {
    entries: wlan.private_preshared_keys ?? [],
    allowList: allowListOf(wlan),
    ppskEnabled: wlan.private_preshared_keys_enabled === true,
    filterAllow: filtersByAllowList(wlan),
    entriesChanged: false,
    listChanged: false,
    enable: false,
    bound: false,
  };
  const outcomes: Array<ChangeResult<ObjectOutcome[]>> = [];
  for (const c of changes) {
    try {
      outcomes.push({ ok: true, value: c.kind === 'ensure' ? await editEnsure(st, ssid, networks, c.specs) : editRemove(ctx, st, networks, c.ref) });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }
  if (!st.entriesChanged && !st.listChanged && !st.enable && !st.bound) return { outcomes };
  return {
    outcomes,
    put: {
      private_preshared_keys: st.entries,
      ...(st.enable ? { private_preshared_keys_enabled: true } : {}),
      // The allow-list goes in the key's own write: a bound key never stands without its binding.
      ...(st.listChanged ? { mac_filter_list: st.allowList } : {}),
      ...(st.bound ? { mac_filter_enabled: true, mac_filter_policy: 'allow' } : {}),
    },
  };
}

/**
 * Keys of one WLAN: each stands with its psk on its network, the entries it `replaces` go, a
 * placeholder goes once a key stands. Throws for a key that cannot be written (its network unknown).
 */
async function editEnsure(st: WlanState, ssid: string, networks: Network[], specs: WifiKeySpec[]): Promise<ObjectOutcome[]> {
  const bound = specs.some((s) => s.mac !== undefined);
  const release = new Set(specs.flatMap((s) => s.releaseMacs ?? []).filter((m) => !specs.some((s) => s.mac === m)));
  const resolved = specs.map((spec) => ({ spec, net: networkByRef(networks, spec.vlanNetwork) }));
  const kind = keyKind(st, ssid);
  const outcomes: ObjectOutcome[] = [];
  for (const key of resolved) outcomes.push(await ensureOne(kind, key));
  if (release.size > 0 && st.allowList.some((m) => release.has(m))) {
    st.allowList = st.allowList.filter((m) => !release.has(m));
    st.listChanged = true;
  }
  return [...outcomes, ...editWlanSettings(st, ssid, specs.length > 0, bound)];
}

/**
 * A key of one WLAN in the WLAN's state as the batch laid it so far: observe compares its entry,
 * the entries it replaces and its client with it; apply lays the key's entry (and its client) on
 * it, which the group commit's one PUT writes.
 */
function keyKind(st: WlanState, ssid: string): ObjectKind<{ spec: WifiKeySpec; net: Network }> {
  const entriesOf = (spec: WifiKeySpec, net: Network) => {
    const replaced = new Set(spec.replaces ?? []);
    const isMine = (e: PpskEntry) => e.password === spec.psk;
    const isStale = (e: PpskEntry) => !isMine(e) && replaced.has(pskFingerprint(spec.keyId, e.password));
    const mine = st.entries.filter(isMine);
    return { isMine, isStale, mine, stale: st.entries.filter(isStale), keyDrifted: mine.length !== 1 || mine[0]!.networkconf_id !== net._id };
  };
  return {
    object: ({ spec }) => `wifi key ${spec.keyId} on ${ssid}`,
    async observe({ spec, net }) {
      const { mine, stale, keyDrifted } = entriesOf(spec, net);
      // The binding is the WLAN's filter admitting exactly the listed clients, this one among them.
      const macDrifted = spec.mac !== undefined && (!st.allowList.includes(spec.mac) || !st.filterAllow);
      // A key is found by its psk, so what can differ of one found is its network and its binding.
      const drift =
        mine.length > 0
          ? [...(keyDrifted ? ['network'] : []), ...(macDrifted ? ['mac'] : []), ...(stale.length > 0 ? ['psk'] : [])]
          : stale.length > 0
            ? ['psk']
            : [];
      return { exists: mine.length > 0 || stale.length > 0, drift };
    },
    async apply({ spec, net }) {
      if (spec.mac !== undefined && !st.allowList.includes(spec.mac)) {
        st.allowList = [...st.allowList, spec.mac];
        st.listChanged = true;
      }
      const { isMine, isStale, stale, keyDrifted } = entriesOf(spec, net);
      if (!keyDrifted && stale.length === 0) return;
      // Keep the other entries (other tenants', the site's own) exactly as the controller has them.
      const desired: PpskEntry = { password: spec.psk, networkconf_id: net._id };
      const next: PpskEntry[] = [];
      for (const e of st.entries) {
        if (isMine(e)) {
          if (!next.includes(desired)) next.push(desired);
        } else if (!isStale(e)) {
          next.push(e);
        }
      }
      if (!next.includes(desired)) next.push(desired);
      st.entries = next;
      st.entriesChanged = true;
    },
  };
}

/** The end of editEnsure: private keys enabled, the MAC filter set for bound keys, placeholders gone. */
function editWlanSettings(st: WlanState, ssid: string, anyKey: boolean, bound: boolean): ObjectOutcome[] {
  const outcomes: ObjectOutcome[] = [];
  if (!st.ppskEnabled) outcomes.push({ object: `wlan ${ssid} private keys`, result: 'corrected', fields: ['private_preshared_keys_enabled'] });
  if (bound && !st.filterAllow) outcomes.push({ object: `wlan ${ssid} MAC filter`, result: 'corrected', fields: ['mac_filter_enabled', 'mac_filter_policy'] });
  if (anyKey) {
    if (!st.ppskEnabled) st.enable = true;
    st.ppskEnabled = true;
    if (bound && !st.filterAllow) st.bound = true;
    if (bound) st.filterAllow = true;
    if (st.entries.some((e) => isPlaceholderPassword(e.password))) {
      st.entries = st.entries.filter((e) => !isPlaceholderPassword(e.password));
      st.entriesChanged = true;
    }
  }
  return outcomes;
}

/** Revokes a key (and its `releaseMac`); when it was the WLAN's last, leaves one unusable placeholder entry. */
function editRemove(ctx: Unifi, st: WlanState, networks: Network[], ref: WifiKeyRef): ObjectOutcome[] {
  const revoked = st.entries.filter(matches(ref));
  const unlist = ref.releaseMac !== undefined && st.allowList.includes(ref.releaseMac);
  if (revoked.length === 0 && !unlist) return [];
  const keep = st.entries.filter((e) => !revoked.includes(e));
  if (keep.length === 0 && revoked.length > 0 && st.ppskEnabled) {
    const networkId = ctx.placeholderNetwork ? networkByRef(networks, ctx.placeholderNetwork)._id : revoked[0]!.networkconf_id;
    keep.push({ password: placeholderPassword(), networkconf_id: networkId });
  }
  if (revoked.length > 0) {
    st.entries = keep;
    st.entriesChanged = true;
  }
  // The client leaves the allow-list in the key's own write; the filter stays on, so an empty
  // list keeps everyone out of a WLAN that holds no bound key.
  if (unlist) {
    st.allowList = st.allowList.filter((m) => m !== ref.releaseMac);
    st.listChanged = true;
  }
  return [];
}

/** Whether the WLAN as the controller answered holds the change. */
function confirmed(wlan: Wlan, networks: Network[], c: WifiChange, all: WifiChange[]): boolean {
  const entries = wlan.private_preshared_keys ?? [];
  const allowList = allowListOf(wlan);
  if (c.kind === 'remove') {
    // A key bound to the same client by a later change of the same write keeps it listed.
    const rebound = all.some((o) => o.kind === 'ensure' && o.specs.some((s) => s.mac === c.ref.releaseMac));
    return !entries.some(matches(c.ref)) && (c.ref.releaseMac === undefined || rebound || !allowList.includes(c.ref.releaseMac));
  }
  return c.specs.every((spec) => {
    const net = networks.find((n) => n._id === spec.vlanNetwork) ?? networks.find((n) => n.name === spec.vlanNetwork);
    const mine = entries.filter((e) => e.password === spec.psk);
    const replaced = new Set(spec.replaces ?? []);
    const stale = entries.some((e) => e.password !== spec.psk && replaced.has(pskFingerprint(spec.keyId, e.password)));
    const boundOk = spec.mac === undefined || (allowList.includes(spec.mac) && filtersByAllowList(wlan));
    return mine.length === 1 && mine[0]!.networkconf_id === net?._id && !stale && boundOk;
  });
}

/** One group commit's write in progress: each change's result once known, the WLAN as last written. */
interface WlanWrite {
  ssid: string;
  changes: WifiChange[];
  networks: Network[];
  wlan: Wlan;
  results: Array<ChangeResult<ObjectOutcome[]> | undefined>;
  /** The outcomes of each change a write carried, until the controller's WLAN confirms it. */
  outcomesOf: Map<number, ChangeResult<ObjectOutcome[]>>;
  wrote: boolean;
}

/**
 * Every change to one WLAN on one read of it and one PUT of its whole key list (group commit),
 * in order, as if each were written alone; then a read of the WLAN confirms each. The controller
 * takes or refuses a PUT whole: a refused write of several changes is split in halves until the
 * refused change stands alone, and the others are written without it.
 */
async function write(ctx: Unifi, ssid: string, changes: WifiChange[]): Promise<Array<ChangeResult<ObjectOutcome[]>>> {
  const results: Array<ChangeResult<ObjectOutcome[]> | undefined> = changes.map((c) => {
    if (c.kind === 'remove') return undefined;
    const problem = specsProblem(ssid, c.specs);
    return problem ? { ok: false, error: problem } : undefined;
  });
  const open = () => changes.flatMap((_, i) => (results[i] === undefined ? [i] : []));
  if (open().length === 0) return results as Array<ChangeResult<ObjectOutcome[]>>;
  const networks = await call<Network>(ctx, 'GET', 'rest/networkconf');
  const wlan = await wlanBySsid(ctx, ssid);
  if (!wlan) {
    // Nothing to revoke on a WLAN that is gone; a key cannot stand on it.
    for (const i of open())
      results[i] =
        changes[i]!.kind === 'remove'
          ? { ok: true, value: [] }
          : { ok: false, error: new BackendError(PRODUCT, `wlan ${ssid} not found on the controller`, false) };
    return results as Array<ChangeResult<ObjectOutcome[]>>;
  }
  const w: WlanWrite = { ssid, changes, networks, wlan, results, outcomesOf: new Map(), wrote: false };
  const before = open();
  await attempt(ctx, w, before);
  // Each change ends when the controller's own WLAN holds it.
  const now = w.wrote ? await wlanBySsid(ctx, ssid) : w.wlan;
  before.forEach((i) => {
    if (results[i] !== undefined) return;
    const c = changes[i]!;
    results[i] = now && confirmed(now, networks, c, changes) && w.outcomesOf.has(i) ? w.outcomesOf.get(i)! : notConfirmed(ssid, c);
  });
  return results as Array<ChangeResult<ObjectOutcome[]>>;
}

/** The changes `indexes` in one PUT; a refused PUT of several is split in halves (see write). */
async function attempt(ctx: Unifi, w: WlanWrite, indexes: number[]): Promise<void> {
  const { outcomes, put } = await edited(
    ctx,
    w.ssid,
    w.wlan,
    w.networks,
    indexes.map((i) => w.changes[i]!),
  );
  const ok = indexes.filter((i, k) => {
    const r = outcomes[k]!;
    if (!r.ok) w.results[i] = r;
    return r.ok;
  });
  // A change that failed its edit is not in `put`: write the rest without it.
  if (ok.length < indexes.length) return attempt(ctx, w, ok);
  const keep = () => indexes.forEach((i, k) => w.outcomesOf.set(i, outcomes[k]!));
  if (!put) return keep();
  try {
    const answer = await call<Wlan>(ctx, 'PUT', `rest/wlanconf/${w.wlan._id}`, put);
    w.wlan = answer.find((x) => x._id === w.wlan._id) ?? { ...w.wlan, ...(put as Partial<Wlan>) };
    w.wrote = true;
    keep();
  } catch (e) {
    if (!(e instanceof BackendError) || e.status !== 400) throw e;
    if (indexes.length === 1) {
      w.results[indexes[0]!] = { ok: false, error: e };
      return;
    }
    const half = Math.ceil(indexes.length / 2);
    await attempt(ctx, w, indexes.slice(0, half));
    await attempt(ctx, w, indexes.slice(half));
  }
}

function notConfirmed(ssid: string, c: WifiChange): ChangeResult<ObjectOutcome[]> {
  return {
    ok: false,
    error: new BackendError(
      PRODUCT,
      `${c.kind === 'remove' ? `revoke of ${c.ref.keyId}` : c.specs.map((s) => s.keyId).join(', ')} on ${ssid}: not on the controller after the write`,
    ),
  };
}

function specsProblem(ssid: string, specs: WifiKeySpec[]): Error | undefined {
  for (const spec of specs) {
    const problem = pskProblem(spec.psk);
    if (problem) return new BackendError(PRODUCT, `key ${spec.keyId}: ${problem}`, false);
    if (spec.mac !== undefined && normalizeMac(spec.mac) !== spec.mac) return new Error(`key ${spec.keyId}: the MAC is not in the lowercase colon form`);
    if (spec.ssid !== ssid) return new Error(`key ${spec.keyId} is for ${spec.ssid}, not ${ssid}`);
  }
  return undefined;
}

/** The keys of one WLAN from one read of it and at most one write; a `plan` reads and reports the same outcomes without the write. */
async function ensureKeys(ctx: Unifi, ssid: string, specs: WifiKeySpec[], plan: boolean): Promise<ObjectOutcome[]> {
  const problem = specsProblem(ssid, specs);
  if (problem) throw problem;
  if (specs.length === 0) return [];
  if (plan) {
    const networks = await call<Network>(ctx, 'GET', 'rest/networkconf');
    const wlan = await wlanBySsid(ctx, ssid);
    if (!wlan) throw new BackendError(PRODUCT, `wlan ${ssid} not found on the controller`, false);
    return unwrap((await edited(ctx, ssid, wlan, networks, [{ kind: 'ensure', specs }])).outcomes)[0]!;
  }
  return unwrap(await serialized(ctx, ssid, () => write(ctx, ssid, [{ kind: 'ensure', specs }])))[0]!;
}

/** One WLAN's state while a batch of changes is laid on it, and what its write must carry. */
interface WlanState {
  entries: PpskEntry[];
  allowList: string[];
  ppskEnabled: boolean;
  filterAllow: boolean;
  entriesChanged: boolean;
  listChanged: boolean;
  /** private_preshared_keys_enabled goes in the write. */
  enable: boolean;
  /** The MAC filter's settings go in the write. */
  bound: boolean;
}

function networkByRef(networks: Network[], ref: string): Network {
  const net = networks.find((n) => n._id === ref) ?? networks.find((n) => n.name === ref);
  if (!net) throw new BackendError(PRODUCT, `network ${ref} not found on the controller`, false);
  return net;
}

function unwrap<R>(results: Array<ChangeResult<R>>): R[] {
  return results.map((r) => {
    if (!r.ok) throw r.error;
    return r.value;
  });
}
