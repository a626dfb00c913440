import type { BackendCalls } from '../http/calls.js';
import { BackendError, type ObjectOutcome } from '../../core/backend-outcome.js';
import { ensure as ensureOne, plan as planOne, type ObjectKind } from '../reconcile/reconcile.js';
import { BackendHttp } from '../http/client.js';
import { normalizeMac } from '../../core/names/mac.js';
import { reservationDrift, type DeviceAddressAdapter, type Reservation, type ReservationChange, type ReservationRef } from './address-adapter.js';
import type { ChangeResult } from '../../core/backend-outcome.js';
import { baselineOf, ForeignWrite, unchangedSince, type Baseline } from './kea-compare.js';
import { Mutex } from 'async-mutex';

export type { DeviceAddressAdapter, Reservation, ReservationChange, ReservationRef } from './address-adapter.js';

/**
 * Fixed device addresses as host reservations in one subnet of Kea DHCPv4, through the Kea
 * Control Agent's command API (`POST {command, service: ["dhcp4"], arguments}` answering
 * `[{result, text, arguments}]`, result 0 = success), or on Kea 3.x, which removed the agent,
 * through kea-dhcp4's own HTTP control socket (the same, without `service`).
 *
 * The host_cmds hook (reservation-add/-del) is not open source in Kea 2.2, so every change is
 * config-get, edit the subnet's `reservations`, config-set, then config-write so the router keeps
 * it across a restart. That read-modify-write is serialized inside this adapter, and callers
 * running several workers serialize writes to one router themselves (a registry lock). Others
 * write the same configuration too (an operator, Stork, an HA partner): each config-set is
 * preceded by a compare with what the round read (kea-compare.ts), and a round that finds it
 * changed, or whose changes are gone from Kea after its write, starts over from a fresh read.
 *
 * config-write runs after every ensure and remove, even when nothing changed: a repeated call
 * then also persists a change whose earlier write did not land.
 */
export interface KeaAdapterOptions {
  /** The control agent's URL, e.g. `http://router:8000/`. */
  controlUrl: string;
  /** The Kea subnet `id` of the shared device network. */
  subnetId: number;
  authUser?: string;
  authPassword?: string;
  timeoutMs?: number;
  /** The worker's pacing and telemetry of its backend calls (backends/http/calls.ts); neither when absent. */
  calls?: BackendCalls;
  /** PEM certificates to trust for this backend's HTTPS (its private CA); public roots when absent. */
  ca?: string;
  /**
   * `agent`: the URL is kea-ctrl-agent (Kea 2.x), which forwards to the server named by
   * `service`. `server`: the URL is kea-dhcp4's own HTTP control socket (Kea 3.x, which removed
   * the agent), which takes the command itself: no `service`.
   */
  control?: 'agent' | 'server';
}

/** kea-dhcp4 refuses config-set while its lease-file cleanup runs (memfile LFC): worth waiting. */
const LFC_RUNNING = /Can not update configuration while lease file cleanup process is running/i;

interface KeaAnswer {
  result: number;
  text?: string;
  arguments?: Record<string, unknown>;
}

interface KeaReservation {
  'hw-address'?: string;
  'ip-address'?: string;
  hostname?: string;
  [field: string]: unknown;
}

interface KeaSubnet {
  id: number;
  subnet: string;
  reservations?: KeaReservation[];
  [field: string]: unknown;
}

type Dhcp4 = Record<string, unknown> & {
  subnet4?: KeaSubnet[];
  'shared-networks'?: Array<{ subnet4?: KeaSubnet[] }>;
};

const PRODUCT = 'kea';

type KeaCommand = 'config-get' | 'config-hash-get' | 'config-set' | 'config-test' | 'config-write';

/** Rounds of one write that may meet someone else's write before the write gives up (retryable). */
const FOREIGN_ROUNDS = 5;

const macOf = (r: KeaReservation) => (typeof r['hw-address'] === 'string' ? normalizeMac(r['hw-address']) : undefined);

function toReservation(r: KeaReservation): Reservation | undefined {
  const mac = macOf(r);
  const address = r['ip-address'];
  if (!mac || typeof address !== 'string') return undefined;
  return { mac, address, ...(r.hostname ? { hostname: r.hostname } : {}) };
}

/** What the adapter's functions share: the control API, the subnet, and the one lock of its writes. */
interface Kea {
  http: BackendHttp;
  subnetId: number;
  service: { service?: string[] };
  /** Held by each write, shared by every call of this adapter: its writes never overlap. */
  writes: Mutex;
}

export function createKeaAdapter(opts: KeaAdapterOptions): DeviceAddressAdapter {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.authUser !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${opts.authUser}:${opts.authPassword ?? ''}`).toString('base64')}`;
  }
  const ctx: Kea = {
    http: new BackendHttp(PRODUCT, opts.controlUrl, headers, opts.timeoutMs, { ca: opts.ca, calls: opts.calls }),
    subnetId: opts.subnetId,
    service: (opts.control ?? 'agent') === 'agent' ? { service: ['dhcp4'] } : {},
    writes: new Mutex(),
  };
  const adapter: DeviceAddressAdapter = {
    observe: (mac: string) => observe(ctx, mac),
    list: () => list(ctx),
    plan: (wanted: Reservation[]) => plan(ctx, wanted),
    ensure: async (wanted: Reservation) => unwrap(await serialized(ctx, () => write(ctx, [{ kind: 'ensure', reservation: wanted }])))[0]!,
    remove: async (ref: ReservationRef) => void unwrap(await serialized(ctx, () => write(ctx, [{ kind: 'remove', ref }])))[0],
    write: (changes) => serialized(ctx, () => write(ctx, changes)),
  };
  return adapter;
}

const object = (ctx: Kea, address: string) => `dhcp reservation ${address} in subnet ${ctx.subnetId}`;

async function command(ctx: Kea, name: KeaCommand, args?: Record<string, unknown>): Promise<KeaAnswer> {
  // The lease-file cleanup that blocks config-set ends on its own: wait a little for it here,
  // then leave it to the step's retries.
  for (let attempt = 1, delay = 200; ; attempt++, delay *= 2) {
    try {
      return await commandOnce(ctx, name, args);
    } catch (e) {
      if (!(e instanceof BackendError && LFC_RUNNING.test(e.detail)) || attempt >= 4) throw e;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** One command's answer as Kea gives it, whatever its result. */
async function answerOf(ctx: Kea, name: KeaCommand, args?: Record<string, unknown>): Promise<KeaAnswer | undefined> {
  const res = await ctx.http.call({ method: 'POST', path: '', json: { command: name, ...ctx.service, ...(args ? { arguments: args } : {}) } });
  // The agent and kea-dhcp4's own HTTP socket both answer with a list of one answer.
  const answer = res.json<KeaAnswer[] | KeaAnswer>();
  return Array.isArray(answer) ? answer[0] : answer;
}

async function commandOnce(ctx: Kea, name: KeaCommand, args?: Record<string, unknown>): Promise<KeaAnswer> {
  const first = await answerOf(ctx, name, args);
  if (first?.result === 0) return first;
  const text = first?.text ?? 'no answer';
  // The agent could not reach kea-dhcp4 (restarting, socket gone), or a lease-file cleanup is
  // running: worth another try. Any other refused config-set is Kea saying no to the content;
  // repeating it changes nothing.
  const transient = /unable to forward command|server is likely to be offline/i.test(text) || LFC_RUNNING.test(text);
  // A configuration file Kea cannot write fails every config-write the same way: a step
  // failure that says so, not a retry (the reservation is live in Kea until its next restart).
  if (name === 'config-write' && !transient) throw new BackendError(PRODUCT, keaConfigWriteProblem(text), false);
  const retryable = transient || (name !== 'config-set' && name !== 'config-test');
  throw new BackendError(PRODUCT, `${name} -> result ${first?.result ?? '?'}: ${text.slice(0, 300)}`, retryable);
}

async function readConfig(ctx: Kea): Promise<{ dhcp4: Dhcp4; subnet: KeaSubnet; baseline: Baseline }> {
  const answer = await command(ctx, 'config-get');
  const dhcp4 = answer.arguments?.Dhcp4 as Dhcp4 | undefined;
  if (!dhcp4) throw new BackendError(PRODUCT, 'config-get answered without a Dhcp4 configuration');
  // Taken before any edit: the edits below change `dhcp4` in place.
  const baseline = baselineOf(answer.arguments!);
  const subnets = [...(dhcp4.subnet4 ?? []), ...(dhcp4['shared-networks'] ?? []).flatMap((n) => n.subnet4 ?? [])];
  const subnet = subnets.find((s) => s.id === ctx.subnetId);
  if (!subnet) throw new BackendError(PRODUCT, `subnet id ${ctx.subnetId} is not configured`, false);
  return { dhcp4, subnet, baseline };
}

/**
 * Sets the round's edited configuration, if Kea still runs the one the round read. Every set of a
 * round compares with the same read: a set Kea refused changed nothing, and a round sets at most once.
 */
async function writeConfig(ctx: Kea, w: KeaWrite): Promise<void> {
  const ask = async (name: 'config-hash-get' | 'config-get') => {
    // Kea before 2.4 has no config-hash-get (result 2, unsupported): then the read compares.
    const a = name === 'config-hash-get' ? await answerOf(ctx, name) : undefined;
    return a && (a.result === 0 || a.result === 2) ? a : command(ctx, name);
  };
  if (!(await unchangedSince(w.baseline, ask))) throw new ForeignWrite();
  // Only Dhcp4: newer config-get answers carry a `hash` beside it that config-set refuses.
  await command(ctx, 'config-set', { Dhcp4: w.dhcp4 });
}

/** One write after another, in arrival order; a failed one lets the next go. */
const serialized = <T>(ctx: Kea, work: () => Promise<T>): Promise<T> => ctx.writes.runExclusive(work);

async function observe(ctx: Kea, mac: string): Promise<Reservation | undefined> {
  const wanted = normalizeMac(mac);
  if (!wanted) return undefined;
  const { subnet } = await readConfig(ctx);
  const found = (subnet.reservations ?? []).find((r) => macOf(r) === wanted);
  return found ? toReservation(found) : undefined;
}

async function list(ctx: Kea): Promise<Reservation[]> {
  const { subnet } = await readConfig(ctx);
  return (subnet.reservations ?? []).map(toReservation).filter((r): r is Reservation => !!r);
}

async function plan(ctx: Kea, wanted: Reservation[]): Promise<ObjectOutcome[]> {
  if (wanted.length === 0) return [];
  const { subnet } = await readConfig(ctx);
  const kind = reservationKind(ctx, { list: subnet.reservations ?? [] });
  const outcomes: ObjectOutcome[] = [];
  for (const w of wanted) outcomes.push(await planOne(kind, w));
  return outcomes;
}

/**
 * A reservation in the subnet's list `held` holds: a plan's as read, a write round's as edited by
 * the changes before this one. Observe compares with it; apply edits it (a new list when it changes
 * anything), and the round's one config-set writes it.
 */
function reservationKind(ctx: Kea, held: { list: KeaReservation[] }): ObjectKind<Reservation> {
  const wantOf = (w: Reservation) => {
    const mac = normalizeMac(w.mac);
    if (!mac) throw new BackendError(PRODUCT, 'reservation mac not in an accepted form', false);
    return { ...w, mac, hostname: w.hostname ?? '' };
  };
  return {
    object: (w) => object(ctx, w.address),
    async observe(w) {
      // Every entry, a reservation by another identifier too (mac ''), as the edit below finds them.
      const list = held.list.map((r) => ({ mac: macOf(r) ?? '', address: typeof r['ip-address'] === 'string' ? r['ip-address'] : '', hostname: r.hostname }));
      const { existed, fields } = reservationDrift(list, wantOf(w));
      return { exists: existed, drift: fields };
    },
    async apply(w) {
      const { mac, address, hostname } = wantOf(w);
      const list = held.list;
      const atAddress = list.find((r) => r['ip-address'] === address);
      const ofMac = list.filter((r) => macOf(r) === mac && r !== atAddress);
      // Keep what else the reservation carries (options, classes) when correcting it.
      const fixed: KeaReservation = { ...(atAddress ?? ofMac[0] ?? {}), 'hw-address': mac, 'ip-address': address, hostname };
      const next: KeaReservation[] = [];
      for (const r of list) {
        if (r === atAddress) next.push(fixed);
        else if (!ofMac.includes(r)) next.push(r);
      }
      if (!atAddress) next.push(fixed);
      held.list = next;
    },
  };
}

/** One write in progress: each change's result once known, the configuration it edits, each change's outcomes. */
interface KeaWrite {
  changes: ReservationChange[];
  results: Array<ChangeResult<ObjectOutcome[]> | undefined>;
  dhcp4: Dhcp4;
  subnet: KeaSubnet;
  /** What the round read, for the compare before its config-set. */
  baseline: Baseline;
  outcomes: Map<number, ObjectOutcome[]>;
}

/**
 * Rounds of `writeRound` until one meets no one else's write: a round that finds the configuration
 * changed since its read, or its changes gone after its write, is started over from a fresh read,
 * so what the other writer set stays and the changes are laid on it.
 */
async function write(ctx: Kea, changes: ReservationChange[]): Promise<Array<ChangeResult<ObjectOutcome[]>>> {
  for (let round = 1; ; round++) {
    try {
      return await writeRound(ctx, changes);
    } catch (e) {
      if (!(e instanceof ForeignWrite)) throw e;
      if (round >= FOREIGN_ROUNDS) {
        throw new BackendError(
          PRODUCT,
          `Kea's configuration changed under each of ${round} writes (someone else writes it: an operator, Stork, an HA partner; or Kea altered the reservations written)`,
        );
      }
      // Apart a little more each time, so two writers comparing in turn do not meet again.
      await new Promise((r) => setTimeout(r, 20 * round + Math.random() * 30 * round));
    }
  }
}

/**
 * Every change on one read of the configuration, in order, as if each were written alone; one
 * config-set (more when Kea refuses the whole and the offender is looked for), one config-write,
 * and a config-get that confirms each change in Kea's own answer.
 */
async function writeRound(ctx: Kea, changes: ReservationChange[]): Promise<Array<ChangeResult<ObjectOutcome[]>>> {
  const results: Array<ChangeResult<ObjectOutcome[]> | undefined> = changes.map((c) => {
    const problem = changeProblem(c);
    return problem ? { ok: false, error: problem } : undefined;
  });
  const open = () => changes.flatMap((_, i) => (results[i] === undefined ? [i] : []));
  if (open().length === 0) return results as Array<ChangeResult<ObjectOutcome[]>>;
  const { dhcp4, subnet, baseline } = await readConfig(ctx);
  const w: KeaWrite = { changes, results, dhcp4, subnet, baseline, outcomes: new Map() };
  await setAll(ctx, w, open());
  await command(ctx, 'config-write');
  // Each change ends when Kea's own configuration holds it. One that Kea took and no longer holds
  // was overwritten by someone else's config-set, made from a read older than this round's
  // write: the round is made again on their configuration.
  const { subnet: now } = await readConfig(ctx);
  const held = now.reservations ?? [];
  if (open().some((i) => !confirmed(held, changes[i]!))) throw new ForeignWrite();
  for (const i of open()) results[i] = { ok: true, value: w.outcomes.get(i) ?? [] };
  return results as Array<ChangeResult<ObjectOutcome[]>>;
}

/** The config-set of the changes `all`; when Kea refuses it, sift finds the refused ones and the rest are set again. */
async function setAll(ctx: Kea, w: KeaWrite, all: number[]): Promise<void> {
  const { subnet, results } = w;
  const base = subnet.reservations ?? [];
  const list = await laid(ctx, w, base, all);
  if (list === base) return;
  subnet.reservations = list;
  try {
    await writeConfig(ctx, w);
  } catch (e) {
    const error = refused(e);
    if (all.length === 1) results[all[0]!] = { ok: false, error };
    else {
      const { list: accepted, taken } = await sift(ctx, w, base, all);
      subnet.reservations = await laid(ctx, w, base, taken);
      if (accepted !== base) {
        try {
          await writeConfig(ctx, w);
        } catch (again) {
          const error2 = refused(again);
          for (const i of taken) results[i] = { ok: false, error: error2 };
        }
      }
    }
  }
}

// Kea takes or refuses a configuration whole (config-set keeps the running one when it refuses).
// When it refuses a write of several changes, config-test (which checks a configuration and
// applies nothing) finds the refused ones, halving the changes until each refused one stands
// alone; the others are then written in one more config-set.
async function laid(ctx: Kea, w: KeaWrite, base: KeaReservation[], indexes: number[]): Promise<KeaReservation[]> {
  let list = base;
  for (const i of indexes) {
    const edited = await edit(ctx, list, w.changes[i]!);
    list = edited.list;
    w.outcomes.set(i, edited.outcomes);
  }
  return list;
}

function refused(e: unknown): BackendError {
  if (!(e instanceof BackendError) || e.retryable) throw e;
  return e;
}

async function sift(ctx: Kea, w: KeaWrite, base: KeaReservation[], indexes: number[]): Promise<{ list: KeaReservation[]; taken: number[] }> {
  const list = await laid(ctx, w, base, indexes);
  if (list === base) return { list, taken: indexes };
  w.subnet.reservations = list;
  try {
    await command(ctx, 'config-test', { Dhcp4: w.dhcp4 });
    return { list, taken: indexes };
  } catch (e) {
    const error = refused(e);
    if (indexes.length === 1) {
      w.results[indexes[0]!] = { ok: false, error };
      return { list: base, taken: [] };
    }
    const half = Math.ceil(indexes.length / 2);
    const first = await sift(ctx, w, base, indexes.slice(0, half));
    const second = await sift(ctx, w, first.list, indexes.slice(half));
    return { list: second.list, taken: [...first.taken, ...second.taken] };
  }
}

/** What the change makes of the reservation list (a new list when it changes anything), and its outcome. */
async function edit(ctx: Kea, list: KeaReservation[], c: ReservationChange): Promise<{ list: KeaReservation[]; outcomes: ObjectOutcome[] }> {
  if (c.kind === 'remove') {
    const hit = hits(c.ref);
    return { list: list.some(hit) ? list.filter((r) => !hit(r)) : list, outcomes: [] };
  }
  const held = { list };
  const outcome = await ensureOne(reservationKind(ctx, held), c.reservation);
  return { list: held.list, outcomes: [outcome] };
}

function confirmed(held: KeaReservation[], c: ReservationChange): boolean {
  if (c.kind === 'remove') return !held.some(hits(c.ref));
  const mac = normalizeMac(c.reservation.mac)!;
  const mine = held.filter((r) => macOf(r) === mac);
  return mine.length === 1 && mine[0]!['ip-address'] === c.reservation.address && (mine[0]!.hostname ?? '') === (c.reservation.hostname ?? '');
}

function hits(ref: ReservationRef): (r: KeaReservation) => boolean {
  const mac = 'mac' in ref ? normalizeMac(ref.mac) : undefined;
  return (r) => ('address' in ref ? r['ip-address'] === ref.address : macOf(r) === mac);
}

function changeProblem(c: ReservationChange): BackendError | undefined {
  const mac = c.kind === 'ensure' ? c.reservation.mac : 'mac' in c.ref ? c.ref.mac : undefined;
  return mac !== undefined && !normalizeMac(mac) ? new BackendError(PRODUCT, 'reservation mac not in an accepted form', false) : undefined;
}

function unwrap<R>(results: Array<ChangeResult<R>>): R[] {
  return results.map((r) => {
    if (!r.ok) throw r.error;
    return r.value;
  });
}

/** A refused config-write, with the fix: Kea's user must be able to write its configuration file. */
export function keaConfigWriteProblem(text: string): string {
  return `config-write refused (${text.slice(0, 200)}): Kea cannot save its configuration, so reservations would be lost at its next restart; let the user kea-dhcp4 runs as write its configuration file (and, since Kea 2.6, keep it in Kea's configuration directory)`;
}
