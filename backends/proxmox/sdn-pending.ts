import { BackendError } from '../../core/backend-outcome.js';
import type { PveApi } from './pve-api.js';
import type { NetworkSpec, ProxmoxNetworkOptions, SdnObject } from './sdn.js';

/**
 * The fabric's pending (staged, unapplied) SDN edits, told apart: the service's own (a tenant's
 * zone, VNet and subnet) and everyone else's. `PUT /cluster/sdn` applies every pending edit, so an
 * edit someone else staged stops the service's applies until it is applied or rolled back; the
 * network step and `--check-backends` (check.ts) both name them.
 */
export interface SdnReader {
  pve: PveApi;
  opts: Pick<ProxmoxNetworkOptions, 'controller' | 'vrfVniBase' | 'vnetVniBase'>;
}

/** PVE's id of a subnet: `<zone>-<network>-<mask>`. */
export function subnetIdOf(zone: string, cidr: string): string {
  return `${zone}-${cidr.replace('/', '-')}`;
}

const same = (a: unknown, b: unknown) => a !== undefined && a !== null && String(a) === String(b);

/**
 * Whether a pending SDN object is one the service itself writes: a tenant zone (EVPN on the
 * site's controller, its VRF VNI in the site's tenant range), a tenant VNet (`tvNN`, its tag in the
 * tenant VNet range) or a subnet of one. Another tenant's create that died between its writes and
 * its apply leaves such edits pending; applying them is what that create wanted.
 */
const vrfRange = (ctx: SdnReader, v: unknown) => Number(v) > ctx.opts.vrfVniBase && Number(v) < ctx.opts.vrfVniBase + 64;
const vnetRange = (ctx: SdnReader, v: unknown) => Number(v) >= ctx.opts.vnetVniBase + 16 && Number(v) < ctx.opts.vnetVniBase + 16 * 64;
// With `pending=1`, PVE nests a new or changed object's values under `pending`.
const values = (o: SdnObject): SdnObject => ({ ...o, ...((o.pending as SdnObject | undefined) ?? {}) });
export const serviceZone = (ctx: SdnReader, z: SdnObject) => {
  const v = values(z);
  return v.type === 'evpn' && same(v.controller, ctx.opts.controller) && vrfRange(ctx, v['vrf-vxlan']);
};
const serviceVnet = (ctx: SdnReader, v: SdnObject) => /^tv\d{2}$/.test(String(v.vnet)) && vnetRange(ctx, values(v).tag);

/**
 * Staged edits of SDN controllers and (PVE 9) fabrics and their nodes: the service never edits
 * either, so any is an operator's, and `PUT /cluster/sdn` would apply it with ours. PVE 8 has
 * no fabrics (501: none).
 */
async function pendingControllersAndFabrics(ctx: SdnReader): Promise<string[]> {
  const none = (e: unknown) => {
    if (e instanceof BackendError && e.status === 501) return undefined;
    throw e;
  };
  const [controllers, fabrics] = await Promise.all([
    ctx.pve.get<SdnObject[]>('/cluster/sdn/controllers', { pending: 1 }),
    ctx.pve.get<{ fabrics?: SdnObject[]; nodes?: SdnObject[] }>('/cluster/sdn/fabrics/all', { pending: 1 }).catch(none),
  ]);
  const staged: string[] = [];
  for (const c of controllers) if (c.state) staged.push(`controller ${String(c.controller)} (${String(c.state)})`);
  for (const f of fabrics?.fabrics ?? []) if (f.state) staged.push(`fabric ${String(f.id ?? values(f).id)} (${String(f.state)})`);
  for (const n of fabrics?.nodes ?? []) {
    const v = values(n);
    if (n.state) staged.push(`fabric ${String(v.fabric_id)} node ${String(v.node_id)} (${String(n.state)})`);
  }
  return staged;
}

/**
 * The fabric's pending edits: those the service did not make (an operator's, staged), described,
 * and the tenants whose staged edits an apply now would carry. `own`: the tenants the caller is
 * writing for (a batch of them, sdn.ts `writePending`), whose objects are theirs whatever they
 * hold now (a retry corrects them); none: only what is service-shaped is the service's.
 */
export async function pendingSdn(ctx: SdnReader, own: readonly NetworkSpec[]): Promise<{ foreign: string[]; tenants: Set<string> }> {
  const [zones, vnets, others] = await Promise.all([
    ctx.pve.get<SdnObject[]>('/cluster/sdn/zones', { pending: 1 }),
    ctx.pve.get<SdnObject[]>('/cluster/sdn/vnets', { pending: 1 }),
    pendingControllersAndFabrics(ctx),
  ]);
  const foreign: string[] = [...others];
  const tenants = new Set<string>();
  const ownVnet = (v: SdnObject) => own.find((s) => s.vnet === v.vnet);
  for (const z of zones.filter((z) => z.state)) {
    if (own.some((s) => s.tenant === z.zone) || serviceZone(ctx, z)) tenants.add(String(z.zone));
    else foreign.push(`zone ${String(z.zone)} (${String(z.state)})`);
  }
  for (const v of vnets.filter((v) => v.state)) {
    if (ownVnet(v) || serviceVnet(ctx, v)) tenants.add(String(values(v).zone));
    else foreign.push(`vnet ${String(v.vnet)} (${String(v.state)})`);
  }
  // Subnets: pending on an own tenant's VNet other than its own subnet, or on a VNet not the service's.
  // Another tenant's VNet is not read: whatever it has pending is that tenant's create's (the
  // rule above), and reading each of them made every fabric write cost one call per tenant.
  const withSubnets = vnets.filter((v) => ownVnet(v) || (v.state !== 'new' && !serviceVnet(ctx, v)));
  const subnets = await Promise.all(
    withSubnets.map((vnet) =>
      ctx.pve.get<SdnObject[]>(`/cluster/sdn/vnets/${String(vnet.vnet)}/subnets`, { pending: 1 }).then(
        (subs) => subs.map((sub) => ({ sub, vnet })),
        () => [],
      ),
    ),
  );
  for (const { sub, vnet } of subnets.flat()) {
    if (!sub.state) continue;
    const s = ownVnet(vnet);
    if (s && sub.subnet === subnetIdOf(s.tenant, s.subnet)) tenants.add(s.tenant);
    else foreign.push(`subnet ${String(sub.subnet)} (${String(sub.state)})`);
  }
  return { foreign, tenants };
}

/** Pending SDN edits the service did not make (an operator's, staged), described. */
export async function foreignPending(ctx: SdnReader, own: readonly NetworkSpec[]): Promise<string[]> {
  return (await pendingSdn(ctx, own)).foreign;
}

/**
 * Edits someone else staged and did not apply: `PUT /cluster/sdn` applies every pending edit, so
 * the service would apply theirs with a tenant's. It applies nothing until they are applied or
 * rolled back; the reason names them and what to do. Not retried: the step waits for no one.
 */
export function foreignPendingProblem(foreign: string[]): string {
  return (
    `SDN has pending changes the service did not make: ${foreign.join(', ')}. An apply would apply them with the tenant's, ` +
    'so no tenant network is created until whoever staged them applies them (Datacenter > SDN > Apply, or `pvesh set /cluster/sdn`) ' +
    'or rolls them back (PVE 9: `pvesh create /cluster/sdn/rollback`; PVE 8: revert each edit); then repeat the call'
  );
}
