import { BackendError } from '../../core/backend-outcome.js';
import type { Site } from '../site.js';
import { probe, type Probe } from '../backend-area.js';
import { PveApi } from '../../backends/proxmox/pve-api.js';
import { foreignPending, foreignPendingProblem } from '../../backends/proxmox/sdn-pending.js';
import type { SdnObject } from '../../backends/proxmox/sdn.js';

/**
 * `--check-backends` for the fabric (Proxmox VE SDN): what every tenant create needs of it, and
 * what people sharing it can stand in the way with. The token's SDN privileges (`GET
 * /access/permissions`, as PVE 8 and 9 both answer it); the site's EVPN controller applied; no edit
 * someone else staged and left unapplied (the service's apply would carry it, so it applies
 * nothing until they do: the reason and what to do, as the step says it); and on PVE 9 the global
 * SDN lock free and the token allowed to take it, shown by taking it and releasing it at once with
 * its token (the one write of this check, and no change to SDN's configuration).
 */
export function sdnProbe(site: Site, timeoutMs: number): Probe {
  const { apiUrl, tokenId, tokenSecret, ca } = site.proxmox;
  return probe('sdn', apiUrl, async () => {
    const pve = new PveApi({ apiUrl, tokenId, tokenSecret, ca, taskTimeoutMs: timeoutMs, timeoutMs });
    const { version } = await pve.get<{ version?: string }>('/version');
    await sdnPrivileges(pve);
    const controllers = await pve.get<SdnObject[]>('/cluster/sdn/controllers', { running: 1 });
    const controller = controllers.find((c) => c.controller === site.fabricController);
    if (controller?.type !== 'evpn') {
      throw new BackendError(
        'proxmox',
        `SITE_FABRIC_CONTROLLER ${site.fabricController} is not an applied EVPN controller${controller ? ` (it is ${String(controller.type)})` : ''}: ` +
          'define it (Datacenter > SDN > Options > Controllers, type EVPN) and apply, or correct the setting',
        false,
      );
    }
    const opts = { controller: site.fabricController, vrfVniBase: site.vrfVniBase, vnetVniBase: site.vnetVniBase };
    const foreign = await foreignPending({ pve, opts }, []);
    if (foreign.length > 0) throw new BackendError('proxmox', foreignPendingProblem(foreign), false);
    return `Proxmox VE ${version ?? '?'} SDN: controller ${site.fabricController} (evpn) applied; nothing staged by others; ${await lockCheck(pve)}`;
  });
}

/** Every tenant's zone, VNet and subnet are written under /sdn: the token must hold SDN.Audit and SDN.Allocate there. */
async function sdnPrivileges(pve: PveApi): Promise<void> {
  const perms = await pve.get<Record<string, Record<string, unknown>>>('/access/permissions', { path: '/sdn' });
  const missing = ['SDN.Audit', 'SDN.Allocate'].filter((p) => !(p in (perms['/sdn'] ?? {})));
  if (missing.length === 0) return;
  throw new BackendError(
    'proxmox',
    `the API token lacks ${missing.join(' and ')} on /sdn, where every tenant's network is written: grant it ` +
      '(`pveum acl modify /sdn --tokens "$SITE_PROXMOX_TOKEN_ID" --roles PVESDNAdmin`), or turn the token\'s privilege separation off',
    false,
  );
}

async function lockCheck(pve: PveApi): Promise<string> {
  let token: string;
  try {
    token = await pve.call<string>('POST', '/cluster/sdn/lock', { 'allow-pending': true });
  } catch (e) {
    if (e instanceof BackendError && e.status === 501) {
      return "no global SDN lock (PVE 8): an edit a person stages while a tenant is created may be applied with the tenant's";
    }
    if (e instanceof BackendError && /invalid lock token provided/.test(e.detail)) {
      throw new BackendError(
        'proxmox',
        `the global SDN lock is held (${e.detail}): by a create running now (check again), by a person or another tool, whom creates wait for, ` +
          'or by a worker of the service that died, which the next create releases itself; if none of these, no one is changing SDN and it can be released: ' +
          '`pvesh delete /cluster/sdn/lock --force 1`',
        false,
      );
    }
    if (e instanceof BackendError && e.status === 403) {
      throw new BackendError(
        'proxmox',
        `the API token may not change SDN (${e.detail}): grant it SDN.Allocate on /sdn (PVESDNAdmin), or turn its privilege separation off`,
        false,
      );
    }
    throw e;
  }
  await pve.call('DELETE', '/cluster/sdn/lock', { 'lock-token': token });
  return 'the global SDN lock is free and this token may take it (taken and released)';
}
