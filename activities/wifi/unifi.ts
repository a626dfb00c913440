import { BackendError, outcomeOf, type ObjectOutcome } from '../../core/backend-outcome.js';
import { BackendHttp } from '../http.js';
import { unifiApiBase, unifiSession, type UnifiDeployment } from './unifi-session.js';
import type { WifiAdapter, WifiController, WifiKeyRef, WifiKeySpec, WifiKeyState } from './adapter.js';
import { isPlaceholderPassword, placeholderPassword, pskFingerprint, pskProblem } from '../../core/credentials/wifi-psk.js';
import { normalizeMac } from '../../core/names/mac.js';

export type { WifiAdapter, WifiController, WifiKeyRef, WifiKeySpec, WifiKeyState } from './adapter.js';
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
}

interface Answer<T> {
  meta?: { rc?: string; msg?: string };
  data?: Array<T & { msg?: string; validationError?: { field?: string } }>;
}

const PRODUCT = 'unifi';

export function createUnifiWifiAdapter(opts: UnifiWifiOptions): WifiAdapter {
  const http = new BackendHttp(PRODUCT, opts.url, { accept: 'application/json' }, opts.timeoutMs, { ca: opts.ca, pin: opts.pin });
  const session = unifiSession(http, opts);
  const base = unifiApiBase(opts);

  async function call<T>(method: 'GET' | 'PUT', path: string, json?: unknown): Promise<T[]> {
    const res = await session.call({ method, path: `${base}/${path}`, json, accept: [400, 401, 403, 404] });
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
    throw new BackendError(PRODUCT, `${method} ${path} -> ${res.status} ${detail}`, false, res.status);
  }

  const queues = new Map<string, Promise<unknown>>();
  function serialized<T>(ssid: string, work: () => Promise<T>): Promise<T> {
    const run = (queues.get(ssid) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    queues.set(ssid, tail);
    void tail.then(() => {
      if (queues.get(ssid) === tail) queues.delete(ssid);
    });
    return run;
  }

  async function wlanBySsid(ssid: string): Promise<Wlan | undefined> {
    return (await call<Wlan>('GET', 'rest/wlanconf')).find((w) => w.name === ssid);
  }

  async function networkByRef(ref: string): Promise<Network> {
    const networks = await call<Network>('GET', 'rest/networkconf');
    const net = networks.find((n) => n._id === ref) ?? networks.find((n) => n.name === ref);
    if (!net) throw new BackendError(PRODUCT, `network ${ref} not found on the controller`, false);
    return net;
  }

  const matches = (ref: WifiKeyRef) => (e: PpskEntry) => !isPlaceholderPassword(e.password) && pskFingerprint(ref.keyId, e.password) === ref.fingerprint;

  /**
   * The keys of one WLAN from one read of it and at most one write: each key stands with its psk
   * on its network, the entries it `replaces` go, a placeholder goes once a key stands. A `plan`
   * reads and reports the same outcomes without the write.
   */
  async function ensureKeys(ssid: string, specs: WifiKeySpec[], plan: boolean): Promise<ObjectOutcome[]> {
    for (const spec of specs) {
      const problem = pskProblem(spec.psk);
      if (problem) throw new BackendError(PRODUCT, `key ${spec.keyId}: ${problem}`, false);
      if (spec.mac !== undefined && normalizeMac(spec.mac) !== spec.mac) throw new Error(`key ${spec.keyId}: the MAC is not in the lowercase colon form`);
      if (spec.ssid !== ssid) throw new Error(`key ${spec.keyId} is for ${spec.ssid}, not ${ssid}`);
    }
    if (specs.length === 0) return [];

    return serialized(ssid, async () => {
      const networks = await call<Network>('GET', 'rest/networkconf');
      const wlan = await wlanBySsid(ssid);
      if (!wlan) throw new BackendError(PRODUCT, `wlan ${ssid} not found on the controller`, false);
      let entries = wlan.private_preshared_keys ?? [];
      const outcomes: ObjectOutcome[] = [];
      let write = false;
      let allowList = allowListOf(wlan);
      const bound = specs.some((s) => s.mac !== undefined);
      const release = new Set(specs.flatMap((s) => s.releaseMacs ?? []).filter((m) => !specs.some((s) => s.mac === m)));
      let listChanged = false;
      for (const spec of specs) {
        const net = networks.find((n) => n._id === spec.vlanNetwork) ?? networks.find((n) => n.name === spec.vlanNetwork);
        if (!net) throw new BackendError(PRODUCT, `network ${spec.vlanNetwork} not found on the controller`, false);
        const replaced = new Set(spec.replaces ?? []);
        const isMine = (e: PpskEntry) => e.password === spec.psk;
        const isStale = (e: PpskEntry) => !isMine(e) && replaced.has(pskFingerprint(spec.keyId, e.password));
        const mine = entries.filter(isMine);
        const stale = entries.filter(isStale);
        const keyDrifted = mine.length !== 1 || mine[0]!.networkconf_id !== net._id;
        // The binding is the WLAN's filter admitting exactly the listed clients, this one among them.
        const macDrifted = spec.mac !== undefined && (!allowList.includes(spec.mac) || !filtersByAllowList(wlan));
        if (spec.mac !== undefined && !allowList.includes(spec.mac)) {
          allowList = [...allowList, spec.mac];
          listChanged = true;
        }
        // A key is found by its psk, so what can differ of one found is its network and its binding.
        const fields =
          mine.length > 0
            ? [...(keyDrifted ? ['network'] : []), ...(macDrifted ? ['mac'] : []), ...(stale.length > 0 ? ['psk'] : [])]
            : stale.length > 0
              ? ['psk']
              : [];
        outcomes.push(
          outcomeOf(`wifi key ${spec.keyId} on ${ssid}`, mine.length > 0 || stale.length > 0, keyDrifted || stale.length > 0 || macDrifted, fields),
        );
        if (!keyDrifted && stale.length === 0) continue;
        write = true;
        // Keep the other entries (other tenants', the site's own) exactly as the controller has them.
        const desired: PpskEntry = { password: spec.psk, networkconf_id: net._id };
        const next: PpskEntry[] = [];
        for (const e of entries) {
          if (isMine(e)) {
            if (!next.includes(desired)) next.push(desired);
          } else if (!isStale(e)) {
            next.push(e);
          }
        }
        if (!next.includes(desired)) next.push(desired);
        entries = next;
      }
      if (release.size > 0 && allowList.some((m) => release.has(m))) {
        allowList = allowList.filter((m) => !release.has(m));
        listChanged = true;
      }
      const filterOff = bound && !filtersByAllowList(wlan);
      const placeholders = entries.filter((e) => isPlaceholderPassword(e.password));
      const ppskOff = wlan.private_preshared_keys_enabled !== true;
      if (ppskOff) outcomes.push({ object: `wlan ${ssid} private keys`, result: 'corrected', fields: ['private_preshared_keys_enabled'] });
      if (filterOff) outcomes.push({ object: `wlan ${ssid} MAC filter`, result: 'corrected', fields: ['mac_filter_enabled', 'mac_filter_policy'] });
      if (!write && placeholders.length === 0 && !ppskOff && !listChanged && !filterOff) return outcomes;
      if (!plan) {
        const next = entries.filter((e) => !isPlaceholderPassword(e.password));
        await call('PUT', `rest/wlanconf/${wlan._id}`, {
          private_preshared_keys: next,
          private_preshared_keys_enabled: true,
          // The allow-list goes in the key's own write: a bound key never stands without its binding.
          ...(listChanged ? { mac_filter_list: allowList } : {}),
          ...(bound ? { mac_filter_enabled: true, mac_filter_policy: 'allow' } : {}),
        });
      }
      return outcomes;
    });
  }

  return {
    async observe(ref: WifiKeyRef): Promise<WifiKeyState | undefined> {
      const wlan = await wlanBySsid(ref.ssid);
      const entry = wlan?.private_preshared_keys?.find(matches(ref));
      if (!entry) return undefined;
      const networks = await call<Network>('GET', 'rest/networkconf');
      return {
        ssid: ref.ssid,
        keyId: ref.keyId,
        networkId: entry.networkconf_id,
        networkName: networks.find((n) => n._id === entry.networkconf_id)?.name,
        ...(ref.releaseMac && filtersByAllowList(wlan!) && allowListOf(wlan!).includes(ref.releaseMac) ? { mac: ref.releaseMac } : {}),
      };
    },

    ensure: (spec: WifiKeySpec) => ensureKeys(spec.ssid, [spec], false),
    ensureKeys,

    async remove(ref: WifiKeyRef): Promise<void> {
      await serialized(ref.ssid, async () => {
        const wlan = await wlanBySsid(ref.ssid);
        const entries = wlan?.private_preshared_keys ?? [];
        const revoked = entries.filter(matches(ref));
        const allowList = wlan ? allowListOf(wlan) : [];
        const unlist = ref.releaseMac !== undefined && allowList.includes(ref.releaseMac);
        if (!wlan || (revoked.length === 0 && !unlist)) return;
        const keep = entries.filter((e) => !revoked.includes(e));
        if (keep.length === 0 && revoked.length > 0 && wlan.private_preshared_keys_enabled === true) {
          const networkId = opts.placeholderNetwork ? (await networkByRef(opts.placeholderNetwork))._id : revoked[0]!.networkconf_id;
          keep.push({ password: placeholderPassword(), networkconf_id: networkId });
        }
        // The client leaves the allow-list in the key's own write; the filter stays on, so an empty
        // list keeps everyone out of a WLAN that holds no bound key.
        await call('PUT', `rest/wlanconf/${wlan._id}`, {
          private_preshared_keys: keep,
          ...(unlist ? { mac_filter_list: allowList.filter((m) => m !== ref.releaseMac) } : {}),
        });
      });
    },
  };
}
