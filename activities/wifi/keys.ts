import type { Db } from '../../db/registry.js';
import { audit, UNKNOWN_ACTOR } from '../../db/queries/audit.js';
import type { Refusal } from '../../core/refusal.js';
import { LOCK_SPACE, whileLocked, withLocks, type Tx } from '../../db/queries/locks.js';
import { committers, GroupCommit, type Carried } from '../group-commit.js';
import { tenantExists } from '../../db/queries/tenants.js';
import {
  deleteWifiKey,
  expiredAdmissionKeys,
  getWifiKey,
  issueWifiKey,
  listWifiKeys,
  macBoundOnSsid,
  replaceAdmissionKey,
  type PreviousAdmissionKey,
  type WifiKeyRow,
} from '../../db/queries/wifi-keys.js';
import { open, openValue } from '../../db/seal.js';
import type { AdmissionKeyInput, IssueKeyInput } from '../../contracts/wifi-key.js';
import { taggedWithStep, backendActivity } from '../backend-activity.js';
import { isServed, unservedReason, wifiOf } from '../../core/trust-class.js';
import type { ActivityDeps } from '../deps.js';
import { BackendError, type ObjectOutcome, type ReconcileMode } from '../../core/backend-outcome.js';
import type { WifiAdapter, WifiChange, WifiKeyRef, WifiKeySpec } from '../../backends/unifi/adapter.js';
import { modeOf, type ReconcileInput, type StepInput } from '../step-input.js';
import { generatePsk, pskFingerprint } from '../../core/credentials/wifi-psk.js';
import { ADMISSION_CLASS, ADMISSION_KEY, wifiKeyId, type SealedWifiKey } from '../../core/views/wifi-key.js';
import { sealedWifiKey } from '../../db/views/wifi-key.js';
import { leftAlone, mayCorrect } from '../../core/object-life.js';
import { objectPath } from '../../contracts/ids.js';
import { livesOf } from '../object-lives.js';

export type PrepareWifiKeyResult = { kind: 'proceed'; key: SealedWifiKey; replaces: string[] } | Refusal;

const refuse = (error: Refusal['error'], message: string): Refusal => ({ kind: 'refused', error, message });

const ISSUE_REFUSALS = {
  'trust-class-changed': "a Wi-Fi key's trust class cannot change; issue a key of another name",
  'psk-mismatch': 'psk does not match the key the service holds; psk only restores a key whose stored copy was lost',
  'psk-unreadable': "the stored psk can no longer be read; issue the key again with the tenant's psk",
  'psk-elsewhere': 'psk is not a password of this key; psk only restores a key of this tenant whose stored copy was lost',
} as const;

/**
 * Wi-Fi keys (per-key PSKs on the wireless controller): the registry holds each key sealed, the
 * controller holds the entry. The controller's list is rewritten whole and has no conditional
 * update, so its writes run one at a time under the WLAN's registry lock (`wlan`), and each carries
 * every change staged since the last (group commit, activities/group-commit.ts). A change is decided
 * from the registry and staged under the WLAN's stage lock (`wlanStage`): an issue holds it only
 * to stage; a revoke, a key moving between WLANs and a reconcile hold it to their end, because what
 * they decide (the client a key releases) depends on the registry's other keys of the WLAN.
 */
export function wifiKeyActivities(deps: ActivityDeps) {
  const { log } = deps;
  return {
    /** Registry step of an issue: mints the psk of a new key, keeps an existing one, or restores a supplied one. */
    async prepareWifiKey(input: IssueKeyInput): Promise<PrepareWifiKeyResult> {
      return prepareWifiKey(deps, input);
    },

    /** Makes the controller hold the key as the registry does (psk, network, MAC binding). */
    async 'wifi.ensure-key'(input: { tenant: string; name: string; replaces: string[]; previous?: PreviousAdmissionKey }): Promise<ObjectOutcome[]> {
      // The step's outcome, in the run's history: the key's says how many changes its WLAN's write carried.
      return backendActivity(log, { tenant: input.tenant, key: input.name }, 'wifi', () =>
        ensureOnController(deps, input.tenant, input.name, input.replaces, input.previous),
      );
    },

    /**
     * A tenant's reconcile of its Wi-Fi keys: each key the registry holds is made to stand in the
     * controller with its stored psk on its trust class's network; a key whose stored copy cannot
     * be opened is `needs-restore` (the tenant issues it again with its psk); a key a run holds (its
     * issue parked after a failed step) is `in-flight`, left to that run. Keys the registry does
     * not hold cannot be told apart on the controller (an entry carries a password and a network,
     * no name), so none is reported `unknown` (docs/decisions.md).
     */
    async 'wifi.reconcile-keys'(input: ReconcileInput): Promise<ObjectOutcome[]> {
      return reconcileKeys(deps, input.name, modeOf(input));
    },

    /** What `wifi.reconcile-keys` would do, from one read per SSID: nothing is written. */
    async 'wifi.plan-keys'(input: StepInput): Promise<ObjectOutcome[]> {
      return reconcileKeys(deps, input.name, 'plan');
    },

    /**
     * The sweep's expiry of admissions: the key of each admission that expired unused leaves the
     * developer WLAN, and a bound one's client leaves the allow-list. Each is revoked only if it is
     * still the key found expired (a re-admission meanwhile mints another). Every key is tried; one
     * that fails fails the activity after the others, and its retry finds only what is left.
     */
    async 'wifi.expire-admission-keys'(): Promise<{ revoked: string[] }> {
      return backendActivity(log, {}, 'wifi', () => expireAdmissionKeys(deps));
    },

    async 'wifi.revoke-key'(input: { tenant: string; name: string; actor?: string }): Promise<boolean> {
      // The revoke of an admission's key is the admission's withdrawal: the API audits that.
      return backendActivity(log, { tenant: input.tenant, key: input.name }, 'wifi', () => revokeKey(deps, input.tenant, input.name, undefined, input.actor));
    },

    /**
     * A new admission key for a name: a fresh psk on the developer WLAN, or on the MAC-filtered one
     * when it is bound to a client; the earlier key's entry is dropped in the same write, or, when
     * it stood on the other WLAN or was bound to another client, named in `previous` for the ensure.
     */
    async mintAdmissionKey(input: AdmissionKeyInput): Promise<{ key: SealedWifiKey; replaces: string[]; previous?: PreviousAdmissionKey }> {
      return mintAdmissionKey(deps, input);
    },
  };
}

async function prepareWifiKey(deps: ActivityDeps, input: IssueKeyInput): Promise<PrepareWifiKeyResult> {
  const { db, keys, site } = deps;
  if (!(await tenantExists(db, input.tenant))) return refuse('not_found', 'tenant not found');
  if (!isServed(site.trustClasses, input.trustClass)) return refuse('bad_request', unservedReason(site.trustClasses, input.trustClass));
  const wifi = wifiOf(site.trustClasses, input.trustClass);
  if (!wifi) return refuse('bad_request', `trust class "${input.trustClass}" has no Wi-Fi network at this site`);
  const keyId = wifiKeyId(input.tenant, input.name);
  const outcome = await issueWifiKey(
    db,
    keys,
    { tenant: input.tenant, name: input.name, trustClass: input.trustClass, ssid: wifi.ssid, supplied: openValue(keys, input.psk) },
    {
      mint: () => generatePsk(),
      fingerprint: (psk) => pskFingerprint(keyId, psk),
      // The fingerprint is salted with the key id, so it answers for one key at a time; it
      // works also for a key whose sealed copy can no longer be opened.
      holds: (row, psk) => pskFingerprint(wifiKeyId(row.tenant, row.name), psk) === row.fingerprint,
    },
  );
  if (outcome.kind === 'refused') return refuse('bad_request', ISSUE_REFUSALS[outcome.reason]);
  await audit(db, {
    actor: input.actor ?? UNKNOWN_ACTOR,
    action: 'wifi-key.issue',
    tenant: input.tenant,
    object: input.name,
    detail: { restore: input.psk !== undefined },
  });
  return { kind: 'proceed', key: sealedWifiKey(keys, outcome.row, outcome.psk), replaces: outcome.replaces };
}

async function expireAdmissionKeys(deps: ActivityDeps): Promise<{ revoked: string[] }> {
  const revoked: string[] = [];
  let failure: unknown;
  for (const key of await expiredAdmissionKeys(deps.db, ADMISSION_KEY, new Date())) {
    try {
      if (await revokeKey(deps, key.tenant, ADMISSION_KEY, key.fingerprint)) revoked.push(key.tenant);
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure) throw failure;
  if (revoked.length) deps.log.info({ names: revoked }, 'wifi keys of expired admissions revoked');
  return { revoked };
}

async function mintAdmissionKey(
  deps: ActivityDeps,
  input: AdmissionKeyInput,
): Promise<{ key: SealedWifiKey; replaces: string[]; previous?: PreviousAdmissionKey }> {
  const { db, keys, site } = deps;
  const developer = site.wifi?.developer;
  if (!developer) throw new Error('this site has no tenant developer network');
  if (input.mac && !developer.boundSsid) throw new Error('this site has no MAC-filtered developer WLAN');
  const psk = generatePsk();
  const { row, replaces, previous } = await replaceAdmissionKey(db, keys, {
    tenant: input.name,
    name: ADMISSION_KEY,
    trustClass: ADMISSION_CLASS,
    ssid: input.mac ? developer.boundSsid! : developer.ssid,
    mac: input.mac ?? null,
    psk,
    fingerprint: pskFingerprint(wifiKeyId(input.name, ADMISSION_KEY), psk),
  });
  return { key: sealedWifiKey(keys, row, psk), replaces, ...(previous ? { previous } : {}) };
}

/** Where a key places its clients: its trust class's network, or the developer network for an admission key. */
function networkOf(deps: ActivityDeps, row: WifiKeyRow): string | undefined {
  const { site } = deps;
  if (row.name === ADMISSION_KEY && row.trustClass === ADMISSION_CLASS) return site.wifi?.developer?.vlan;
  return wifiOf(site.trustClasses, row.trustClass)?.vlan;
}

async function ensureOnController(
  deps: ActivityDeps,
  tenant: string,
  name: string,
  replaces: string[],
  previous?: PreviousAdmissionKey,
): Promise<ObjectOutcome[]> {
  const { db, log } = deps;
  return withLocks(db, async (tx, lock) => {
    const row = await getWifiKey(tx, tenant, name);
    if (!row) return [];
    const ssids = [...new Set([row.ssid, ...(previous ? [previous.ssid] : [])])].sort();
    const decide = () => decideKey(deps, tx, tenant, name, replaces, previous);
    const done = (outcomes: ObjectOutcome[]) => {
      const changed = outcomes.filter((o) => o.result !== 'in-place');
      if (changed.length) log.info({ tenant, key: name, changed }, 'wifi key corrected on the controller');
      return outcomes;
    };
    if (ssids.length > 1) {
      // A re-admission that moves the key between WLANs: both stage locks, in one order for every
      // caller, held to the end; the new key stands before the earlier one stops working.
      for (const ssid of ssids) await lock(LOCK_SPACE.wlanStage, ssid);
      const d = await decide();
      if (!d) return [];
      const outcomes = await taggedWithStep('wifi', () => onWlan(d.wifi, tx, { kind: 'ensure', specs: [d.spec] }));
      if (d.revokeElsewhere) await taggedWithStep('wifi', () => onWlan(d.wifi, tx, { kind: 'remove', ref: d.revokeElsewhere! }));
      return done(outcomes);
    }
    // Group commit: decided and staged under the WLAN's stage lock, held only that long; the
    // write that carries the key runs under the WLAN's own lock, with the others staged by then.
    const staged = await whileLocked(tx, LOCK_SPACE.wlanStage, row.ssid, WLAN_WAIT_MS, async () => {
      const d = await decide();
      return d && { ticket: wlanCommit(d.wifi, d.spec.ssid).stage({ kind: 'ensure', specs: [d.spec] }) };
    });
    if (!staged.ran) throw new BackendError('wifi', `other changes of WLAN ${row.ssid} held it for ${WLAN_WAIT_MS / 1000} s`);
    if (!staged.value) return [];
    const ticket = staged.value.ticket;
    return done(await taggedWithStep('wifi', async () => withBatch(await ticket.wait(tx))));
  });
}

/**
 * Decided under the WLAN's stage lock: re-read the key (a revoke or restore may have finished
 * while we waited), and which client leaves the allow-list. Undefined: no key any more.
 */
async function decideKey(deps: ActivityDeps, tx: Tx, tenant: string, name: string, replaces: string[], previous?: PreviousAdmissionKey) {
  const { keys, ports } = deps;
  const current = await getWifiKey(tx, tenant, name);
  if (!current) return undefined;
  const psk = open(keys, current.psk);
  const self = { tenant, name };
  // The earlier binding leaves the allow-list unless the key keeps it there, or another key of the WLAN is bound to it too.
  const releasable = (ssid: string, mac: string | null | undefined) => macToRelease(tx, ssid, mac, self, ssid === current.ssid ? current.mac : null);
  const releaseHere = previous && previous.ssid === current.ssid ? await releasable(current.ssid, previous.mac) : undefined;
  const elsewhere = previous && previous.ssid !== current.ssid ? previous : undefined;
  const releaseElsewhere = elsewhere ? await releasable(elsewhere.ssid, elsewhere.mac) : undefined;
  return taggedWithStep('wifi', async () => {
    if (!ports.wifi) throw new Error('no wireless controller is configured at this site');
    if (psk === undefined) throw new Error('the stored psk cannot be opened');
    const vlanNetwork = networkOf(deps, current);
    if (!vlanNetwork) throw new Error(`trust class ${current.trustClass} has no Wi-Fi network at this site`);
    const spec: WifiKeySpec = {
      ssid: current.ssid,
      vlanNetwork,
      keyId: wifiKeyId(tenant, name),
      psk,
      ...(current.mac ? { mac: current.mac } : {}),
      ...(releaseHere ? { releaseMacs: [releaseHere] } : {}),
      replaces,
    };
    const revokeElsewhere: WifiKeyRef | undefined = elsewhere && {
      ssid: elsewhere.ssid,
      keyId: wifiKeyId(tenant, name),
      fingerprint: elsewhere.fingerprint,
      ...(releaseElsewhere ? { releaseMac: releaseElsewhere } : {}),
    };
    return { wifi: ports.wifi, spec, revokeElsewhere };
  });
}

/**
 * One SSID at a time under its lock, one read of the controller and at most one write for all
 * of the tenant's keys on it (not one per key).
 */
async function reconcileKeys(deps: ActivityDeps, tenant: string, mode: ReconcileMode): Promise<ObjectOutcome[]> {
  const { db, keys, log, ports } = deps;
  return backendActivity(log, { tenant }, 'wifi', async () => {
    const outcomes: ObjectOutcome[] = [];
    // Once, before the rows: a run that claims a key after this read waits for the tenant's lease, which a reconcile holds alone.
    const lives = await livesOf(deps, tenant);
    const bySsid = new Map<string, WifiKeyRow[]>();
    for (const row of await listWifiKeys(db, tenant)) bySsid.set(row.ssid, [...(bySsid.get(row.ssid) ?? []), row]);
    for (const [ssid, rows] of [...bySsid].sort(([a], [b]) => a.localeCompare(b))) {
      outcomes.push(
        ...(await withLocks(db, async (tx, lock) => {
          if (mode !== 'plan') await lock(LOCK_SPACE.wlanStage, ssid);
          const specs: WifiKeySpec[] = [];
          const found: ObjectOutcome[] = [];
          // Re-read under the SSID lock: a revoke or restore may have finished while we waited.
          for (const row of (await listWifiKeys(tx, tenant)).filter((r) => rows.some((x) => x.name === r.name))) {
            const psk = open(keys, row.psk);
            const vlanNetwork = networkOf(deps, row);
            // A key a run holds (its issue parked after the controller failed) is that run's to write.
            const life = lives(objectPath.wifiKey(tenant, row.name), { registered: true, finished: true });
            if (!mayCorrect(life)) found.push(leftAlone(`wifi key ${wifiKeyId(tenant, row.name)} on ${ssid}`, life)!);
            else if (psk === undefined) found.push({ object: `wifi key ${wifiKeyId(tenant, row.name)} on ${ssid}`, result: 'needs-restore' });
            else if (!vlanNetwork) throw new Error(`trust class ${row.trustClass} has no Wi-Fi network at this site`);
            else specs.push({ ssid, vlanNetwork, keyId: wifiKeyId(tenant, row.name), psk, ...(row.mac ? { mac: row.mac } : {}) });
          }
          if (!ports.wifi) throw new Error('no wireless controller is configured at this site');
          const ensured = await taggedWithStep('wifi', () =>
            mode === 'plan' || specs.length === 0 ? ports.wifi!.ensureKeys(ssid, specs, true) : onWlan(ports.wifi!, tx, { kind: 'ensure', specs }),
          );
          const changed = ensured.filter((o) => o.result !== 'in-place');
          if (changed.length && mode !== 'plan') log.info({ tenant, ssid, changed }, 'wifi keys corrected on the controller');
          return [...ensured, ...found];
        })),
      );
    }
    return outcomes;
  });
}

/** How long a key's change waits for the other changes of its WLAN before it fails (retried). */
export const WLAN_WAIT_MS = 60_000;

/** One group commit per WLAN (and controller) in this process: see activities/group-commit.ts. */
const wlanCommit = committers<WifiAdapter, WifiChange, ObjectOutcome[]>(
  (wifi, ssid) => new GroupCommit({ space: LOCK_SPACE.wlan, key: ssid, waitMs: WLAN_WAIT_MS, what: 'wifi' }, (changes) => wifi.write(ssid, changes)),
);

/** The outcomes of a change a write carried, each saying how many changes that write carried. */
const withBatch = ({ value, objects }: Carried<ObjectOutcome[]>) => value.map((o) => ({ ...o, batch: { objects } }));

/** One change of a WLAN, carried by the next write of its key list; ends when the controller's answer holds it. */
async function onWlan(wifi: WifiAdapter, tx: Tx, change: WifiChange): Promise<ObjectOutcome[]> {
  const ssid = change.kind === 'ensure' ? change.specs[0]!.ssid : change.ref.ssid;
  return withBatch(await wlanCommit(wifi, ssid).submit(tx, change));
}

/**
 * The MAC a key's leaving takes off `ssid`'s allow-list: none when the key had none, when it stays
 * bound to that MAC there (`kept`), or when another key of the WLAN is bound to it too.
 */
async function macToRelease(
  tx: Tx,
  ssid: string,
  mac: string | null | undefined,
  self: { tenant: string; name: string },
  kept: string | null = null,
): Promise<string | undefined> {
  return mac && mac !== kept && !(await macBoundOnSsid(tx, ssid, mac, self)) ? mac : undefined;
}

/**
 * Revokes a key on the controller and forgets it; false when the registry holds no such key (or,
 * with `fingerprint`, no longer that password).
 */
/** `auditAs`: a revoke a caller asked for is audited with the removal (a tenant delete's and an expiry's are not: their run says so). */
async function revokeKey(deps: ActivityDeps, tenant: string, name: string, fingerprint?: string, auditAs?: string): Promise<boolean> {
  const revoked = await withLocks(deps.db, async (tx, lock): Promise<boolean | 'moved'> => {
    const seen = await getWifiKey(tx, tenant, name);
    if (!seen) return false;
    // Held to the end: the client the key releases is decided from the registry's other keys, and
    // no change of the WLAN is decided before this one's row is gone.
    await lock(LOCK_SPACE.wlanStage, seen.ssid);
    // Re-read under the SSID lock: a re-admission or another revoke may have finished while we waited.
    const row = await getWifiKey(tx, tenant, name);
    if (!row || (fingerprint !== undefined && row.fingerprint !== fingerprint)) return false;
    // A re-admission moved the key to the other developer WLAN: start again under that one's lock.
    if (row.ssid !== seen.ssid) return 'moved';
    const wifi = deps.ports.wifi;
    // Its client leaves the WLAN's allow-list with it, unless another key there is bound to it too.
    const releaseMac = await macToRelease(tx, row.ssid, row.mac, { tenant, name });
    if (wifi)
      await taggedWithStep('wifi', () =>
        onWlan(wifi, tx, {
          kind: 'remove',
          ref: { ssid: row.ssid, keyId: wifiKeyId(tenant, name), fingerprint: row.fingerprint, ...(releaseMac ? { releaseMac } : {}) },
        }),
      );
    await deleteWifiKey(tx, tenant, name);
    if (auditAs) await audit(tx as unknown as Db, { actor: auditAs, action: 'wifi-key.revoke', tenant, object: name });
    deps.log.info({ tenant, key: name }, 'wifi key revoked');
    return true;
  });
  return revoked === 'moved' ? revokeKey(deps, tenant, name, fingerprint, auditAs) : revoked;
}

/** Tenant delete: every key of the tenant, `admission` included, leaves the controller and the registry. */
export async function revokeTenantWifiKeys(deps: ActivityDeps, tenant: string): Promise<void> {
  await backendActivity(deps.log, { tenant }, 'wifi', async () => {
    for (const row of await listWifiKeys(deps.db, tenant)) await revokeKey(deps, tenant, row.name);
  });
}
