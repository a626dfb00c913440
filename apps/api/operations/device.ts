import type { Condition, RunFailure } from '../../../core/object-life.js';
import type { Refusal } from '../../../core/refusal.js';
import { isServed, unservedReason } from '../../../core/trust-class.js';
import type { DeviceView, DeviceAddressView } from '../../../core/views/device.js';
import { viewDevice, viewDeviceAddress } from '../../../db/views/device.js';
import { ADMISSION_KEY, type WifiKeyView } from '../../../core/views/wifi-key.js';
import { revealWifiKey, viewWifiKey } from '../../../db/views/wifi-key.js';
import { getDeviceAddress } from '../../../db/queries/device-addresses.js';
import { deleteDevice, getDevice, listDevices, registerDevice, type RegisterRefusal } from '../../../db/queries/devices.js';
import { getTenantRow, tenantExists } from '../../../db/queries/tenants.js';
import { withdrawAdmission } from '../../../db/queries/admissions.js';
import { getWifiKey, listWifiKeys, unusedAdmissionExists } from '../../../db/queries/wifi-keys.js';
import { deriveIdentity } from '../../../core/identity.js';
import { admissionWifiKey, deviceAddressRelease, deviceAddressReserve, deviceMacMove, wifiKeyIssue, wifiKeyRevoke } from '../../../workflows/index.js';
import {
  attemptDeviceAddressRelease,
  attemptDeviceAddressReserve,
  attemptDeviceMacMove,
  type BackendStep,
  type ReleaseResult,
  type ReserveResult,
} from '../../../contracts/device-address.js';
import { attemptAdmissionWifiKey, attemptWifiKeyIssue, attemptWifiKeyRevoke, type IssueKeyInput, type RevokeKeyResult } from '../../../contracts/wifi-key.js';
import { sealValue } from '../../../db/seal.js';
import { sealKeys } from '../../config/keys.js';
import { stepFailed } from '../errors.js';
import type { Runs } from '../runs.js';
import { objectPath, withCondition } from '../conditions.js';
import { objectReads } from './object-reads.js';
import { objectDeps, type PublishingDeps } from './published-reads.js';
import { runIds } from '../../../contracts/ids.js';

/** An issue's answer with its psk in clear (the workflow hands it over sealed). */
export type IssuedWifiKey = { kind: 'done'; key: WifiKeyView } | { kind: 'failed'; step: BackendStep; key?: WifiKeyView; failure?: RunFailure } | Refusal;

export type RegisterDeviceResult =
  { kind: 'done'; device: DeviceView } | { kind: 'failed'; step: BackendStep; device: DeviceView; failure?: RunFailure } | Refusal;

/**
 * What the device, device-address and Wi-Fi key routes ask of the service. The registry entry
 * of a device is written here (it touches no backend); reservations and keys run on Temporal
 * (`workflows/device-address-reserve.ts` and the other device and Wi-Fi key workflows, one file each); reads come from the registry.
 */
export interface DeviceOperations {
  tenantRegistered(tenant: string): Promise<boolean>;
  registerDevice(req: { tenant: string; name: string; trustClass: string; mac: string | null; actor: string }): Promise<RegisterDeviceResult>;
  getDevice(tenant: string, name: string): Promise<DeviceView | undefined>;
  listDevices(tenant: string): Promise<DeviceView[]>;
  deleteDevice(req: { tenant: string; name: string; actor: string }): Promise<'deleted' | 'not-found' | 'holds-address'>;
  reserveAddress(req: { tenant: string; device: string; address?: string; actor: string }): Promise<ReserveResult>;
  getDeviceAddress(tenant: string, device: string): Promise<(DeviceAddressView & { condition: Condition }) | undefined>;
  releaseAddress(req: { tenant: string; device: string; actor: string }): Promise<ReleaseResult>;
  issueWifiKey(req: Omit<IssueKeyInput, 'psk'> & { psk?: string; actor: string }): Promise<IssuedWifiKey>;
  getWifiKey(tenant: string, name: string): Promise<(WifiKeyView & { condition: Condition }) | undefined>;
  listWifiKeys(tenant: string): Promise<(WifiKeyView & { condition: Condition })[]>;
  revokeWifiKey(req: { tenant: string; name: string; actor: string }): Promise<RevokeKeyResult>;
}

/** What the device operations need: the same as the published objects' (the registry, Temporal for their runs). */
export type DeviceOperationsDeps = PublishingDeps;

const REGISTER_REFUSALS: Record<RegisterRefusal, Refusal> = {
  'trust-class-changed': { kind: 'refused', error: 'bad_request', message: "a device's trust class cannot change; register a new name instead" },
  'mac-cleared-with-address': {
    kind: 'refused',
    error: 'bad_request',
    message: 'the device holds a fixed address: its mac cannot be cleared (release the address first)',
  },
  'mac-holds-address': { kind: 'refused', error: 'conflict', message: 'the mac already holds an address on the device network' },
};

/** What the device operations share, built once: the registry, the seal keys and the runner. */
interface Devices {
  site: DeviceOperationsDeps['site'];
  db: DeviceOperationsDeps['registry']['db'];
  keys: ReturnType<typeof sealKeys>;
  run: Runs;
}

export function deviceOperations(deps: DeviceOperationsDeps): DeviceOperations {
  const { site } = deps;
  const { db, run } = objectDeps(deps);
  const ctx: Devices = { site, db, keys: sealKeys(site), run };
  const wifiKeys = objectReads(db, {
    get: getWifiKey,
    list: listWifiKeys,
    view: (row) => viewWifiKey(ctx.keys, row),
    path: objectPath.wifiKey,
    finished: () => true,
  });
  return {
    tenantRegistered: (tenant) => tenantExists(db, tenant),
    registerDevice: (req) => registerOne(ctx, req),
    getDevice: (tenant, name) => getOne(ctx, tenant, name),
    listDevices: async (tenant) => (await listDevices(db, tenant)).map(viewDevice),
    deleteDevice: (req) => deleteOne(ctx, req),
    reserveAddress: (req) => reserveAddress(ctx, req),
    getDeviceAddress: (tenant, device) => getAddress(ctx, tenant, device),
    releaseAddress: (req) => releaseAddress(ctx, req),
    issueWifiKey: (req) => issueWifiKey(ctx, req),
    getWifiKey: wifiKeys.get,
    listWifiKeys: wifiKeys.list,
    revokeWifiKey: (req) => revokeWifiKey(ctx, req),
  };
}

async function zoneOf(ctx: Devices, tenant: string): Promise<string | undefined> {
  const row = await getTenantRow(ctx.db, tenant);
  return row ? deriveIdentity(ctx.site, tenant, row.index).zone : undefined;
}

async function registerOne(ctx: Devices, req: Parameters<DeviceOperations['registerDevice']>[0]): Promise<RegisterDeviceResult> {
  const { site, db, run } = ctx;
  if (!isServed(site.trustClasses, req.trustClass)) {
    return { kind: 'refused', error: 'bad_request', message: unservedReason(site.trustClasses, req.trustClass) };
  }
  // A new entry is audited in the transaction that registers it (docs/decisions.md, "One audit place").
  const outcome = await registerDevice(db, { tenant: req.tenant, name: req.name, trustClass: req.trustClass, mac: req.mac, actor: req.actor });
  if (outcome.kind === 'refused') return REGISTER_REFUSALS[outcome.reason];
  const device = viewDevice(outcome.row);
  // A fixed address follows the device's MAC: its reservation on the router is brought to the
  // registry's (the registry row moved with the device), and a repeated call resumes a move.
  if (outcome.holdsAddress && req.mac !== null && site.dhcp) {
    const moved = await run.call(
      deviceMacMove,
      attemptDeviceMacMove,
      { workflowId: runIds.deviceMacMove(req.tenant, req.name, req.mac), tenant: req.tenant, object: `device ${req.name}` },
      { tenant: req.tenant, device: req.name },
    );
    if (moved.kind === 'failed') return { kind: 'failed', step: moved.step, device, ...(moved.failure ? { failure: moved.failure } : {}) };
    if (moved.kind === 'refused') return moved;
  }
  return { kind: 'done', device };
}

async function getOne(ctx: Devices, tenant: string, name: string): Promise<DeviceView | undefined> {
  const row = await getDevice(ctx.db, tenant, name);
  return row ? viewDevice(row) : undefined;
}

async function deleteOne(ctx: Devices, req: Parameters<DeviceOperations['deleteDevice']>[0]): ReturnType<DeviceOperations['deleteDevice']> {
  return deleteDevice(ctx.db, req.tenant, req.name, req.actor);
}

async function reserveAddress(ctx: Devices, req: Parameters<DeviceOperations['reserveAddress']>[0]): Promise<ReserveResult> {
  // The worker audits the reservation with the registry change (docs/decisions.md, "One audit place").
  const input = { tenant: req.tenant, device: req.device, actor: req.actor, ...(req.address !== undefined ? { address: req.address } : {}) };
  const result = await ctx.run.call(
    deviceAddressReserve,
    attemptDeviceAddressReserve,
    { workflowId: runIds.deviceAddressReserve(req.tenant, req.device, req.address), tenant: req.tenant, object: `the address of device ${req.device}` },
    input,
  );
  return result;
}

async function getAddress(ctx: Devices, tenant: string, device: string): ReturnType<DeviceOperations['getDeviceAddress']> {
  const [zone, row] = await Promise.all([zoneOf(ctx, tenant), getDeviceAddress(ctx.db, tenant, device)]);
  return withCondition(ctx.db, zone && row ? viewDeviceAddress(row, zone) : undefined, () => ({
    object: objectPath.deviceAddress(tenant, device),
    finished: true,
  }));
}

async function releaseAddress(ctx: Devices, req: Parameters<DeviceOperations['releaseAddress']>[0]): Promise<ReleaseResult> {
  const { run } = ctx;
  // A reserve parked on a failed step is told its object is gone: the one that asked for the
  // lowest free address, and the one that asked for this very address.
  const held = await getDeviceAddress(ctx.db, req.tenant, req.device);
  const result = await run.call(
    deviceAddressRelease,
    attemptDeviceAddressRelease,
    {
      workflowId: runIds.deviceAddressRelease(req.tenant, req.device),
      tenant: req.tenant,
      object: `the address of device ${req.device}`,
    },
    { tenant: req.tenant, device: req.device, actor: req.actor },
  );
  const reserves = [
    runIds.deviceAddressReserve(req.tenant, req.device),
    ...(held ? [runIds.deviceAddressReserve(req.tenant, req.device, String(held.address))] : []),
  ];
  return run.superseded(result, 'released', reserves);
}

async function issueWifiKey(ctx: Devices, req: Parameters<DeviceOperations['issueWifiKey']>[0]): Promise<IssuedWifiKey> {
  const { keys } = ctx;
  if (req.name === ADMISSION_KEY) {
    return { kind: 'refused', error: 'bad_request', message: 'name: "admission" is the name of the key an admission issues' };
  }
  const input: IssueKeyInput = {
    tenant: req.tenant,
    name: req.name,
    trustClass: req.trustClass,
    actor: req.actor,
    ...(req.psk !== undefined ? { psk: sealValue(keys, req.psk) } : {}),
  };
  const result = await ctx.run.call(
    wifiKeyIssue,
    attemptWifiKeyIssue,
    { workflowId: runIds.wifiKeyIssue(req.tenant, req.name, req.psk !== undefined), tenant: req.tenant, object: `Wi-Fi key ${req.name}` },
    input,
  );
  if (result.kind === 'refused') return result;
  if (result.kind === 'failed') return { ...result, ...(result.key ? { key: revealWifiKey(keys, result.key) } : {}) };
  return { kind: 'done', key: revealWifiKey(keys, result.key) };
}

async function revokeWifiKey(ctx: Devices, req: Parameters<DeviceOperations['revokeWifiKey']>[0]): Promise<RevokeKeyResult> {
  const result = await ctx.run.call(
    wifiKeyRevoke,
    attemptWifiKeyRevoke,
    { workflowId: runIds.wifiKeyRevoke(req.tenant, req.name), tenant: req.tenant, object: `Wi-Fi key ${req.name}` },
    { tenant: req.tenant, name: req.name, actor: req.actor },
  );
  return ctx.run.superseded(result, 'revoked', [runIds.wifiKeyIssue(req.tenant, req.name, false), runIds.wifiKeyIssue(req.tenant, req.name, true)]);
}

/**
 * The Wi-Fi key of an admission, at a site with a tenant developer network: every admission
 * issues a new one (the earlier key of the name stops working); withdrawing an unused admission
 * revokes it. Used by the tenant operations' admit and withdrawAdmission.
 */
export function admissionKeys(deps: DeviceOperationsDeps) {
  const { site, registry } = deps;
  const { run } = objectDeps(deps);
  return {
    /** The `wifi` object of the admission answer, or undefined at a site with no developer network. */
    async issue(input: { name: string; mac?: string }): Promise<{ ssid: string; psk: string; mac?: string } | undefined> {
      if (!site.wifi?.developer) return undefined;
      const result = await run.call(
        admissionWifiKey,
        attemptAdmissionWifiKey,
        { workflowId: runIds.admissionWifiKey(input.name), tenant: input.name, object: 'its admission Wi-Fi key' },
        input,
      );
      if (result.kind === 'failed') throw stepFailed(result.step, {}, result.failure);
      const key = revealWifiKey(sealKeys(site), result.key);
      return { ssid: key.ssid, psk: key.psk!, ...(key.mac ? { mac: key.mac } : {}) };
    },

    /**
     * Withdraws the admission of a name: false (404) when there is nothing to withdraw. An unused
     * admission is withdrawn; so is the Wi-Fi key of one that expired or whose token was spent for
     * another name, because the key outlives its token on the developer network and only a
     * registered tenant owns (and revokes) it. The key is revoked before the admission is marked
     * withdrawn, so a failed revoke can be repeated.
     */
    async withdraw(name: string, actor: string): Promise<boolean> {
      const [unused, key, registered] = await Promise.all([
        unusedAdmissionExists(registry.db, name),
        getWifiKey(registry.db, name, ADMISSION_KEY),
        tenantExists(registry.db, name),
      ]);
      const orphanKey = key !== undefined && !registered;
      if (!unused && !orphanKey) return false;
      if (key) {
        const result = await run.call(
          wifiKeyRevoke,
          attemptWifiKeyRevoke,
          { workflowId: runIds.wifiKeyRevoke(name, ADMISSION_KEY), tenant: name, object: 'its admission Wi-Fi key' },
          { tenant: name, name: ADMISSION_KEY },
        );
        if (result.kind === 'failed') throw stepFailed(result.step, {}, result.failure);
      }
      await withdrawAdmission(registry.db, name, actor);
      return true;
    },
  };
}
