import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { died, ok, paramError, sdnLockError } from './envelope.js';
import { cidrFormat, ipFormat, pveIdFormat, readParams, splitList, validate, type Raw, type Schema } from './params.js';
import {
  checkZoneRequired,
  pendingView,
  sectionValues,
  subnetDerived,
  subnetIdFormat,
  subnetUpdateHook,
  vnetUpdateHook,
  zoneUpdateHook,
  type View,
} from './sdn-model.js';
import { cloneSdnSet, commitSdn, hasPendingChanges, sdnDigest, type ProxmoxSimState, type SdnSection } from './state.js';
import type { TaskRunner } from './tasks.js';

/**
 * `/cluster/sdn` of pve-network (API2/Network/SDN*.pm): writes change the edited configuration
 * only; `PUT /cluster/sdn` commits it to the running one and starts a `reloadnetworkall` task.
 * Reads return the edited configuration, `?running=1` the applied one, `?pending=1` the merge.
 */

type Kind = 'zones' | 'vnets' | 'subnets';

const VIEW: Schema = { running: { type: 'boolean', optional: true }, pending: { type: 'boolean', optional: true } };

const opt = { optional: true } as const;
const ZONE_OPTIONS: Schema = {
  controller: { type: 'string', ...opt },
  'vrf-vxlan': { type: 'integer', min: 1, max: 16777215, ...opt },
  mtu: { type: 'integer', ...opt },
  nodes: { type: 'string', ...opt },
  exitnodes: { type: 'string', ...opt },
  'exitnodes-primary': { type: 'string', ...opt },
  'exitnodes-local-routing': { type: 'boolean', ...opt },
  'advertise-subnets': { type: 'boolean', ...opt },
  'disable-arp-nd-suppression': { type: 'boolean', ...opt },
  'bridge-disable-mac-learning': { type: 'boolean', ...opt },
  'rt-import': { type: 'string', ...opt },
  'vxlan-port': { type: 'integer', min: 1, max: 65536, ...opt },
  mac: { type: 'string', ...opt },
  ipam: { type: 'string', ...opt },
  dns: { type: 'string', ...opt },
  reversedns: { type: 'string', ...opt },
  dnszone: { type: 'string', ...opt },
  dhcp: { type: 'string', ...opt },
  bridge: { type: 'string', ...opt },
  tag: { type: 'integer', ...opt },
  peers: { type: 'string', ...opt },
  'lock-token': { type: 'string', ...opt },
};
const ZONE_ID = { type: 'string', format: pveIdFormat('zone') } as const;
const ZONE_CREATE: Schema = { zone: ZONE_ID, type: { type: 'string', enum: ['evpn', 'faucet', 'qinq', 'simple', 'vlan', 'vxlan'] }, ...ZONE_OPTIONS };
const ZONE_UPDATE: Schema = { zone: ZONE_ID, delete: { type: 'string', ...opt }, digest: { type: 'string', ...opt }, ...ZONE_OPTIONS };

const VNET_ID = { type: 'string', format: pveIdFormat('vnet') } as const;
const VNET_OPTIONS: Schema = {
  tag: { type: 'integer', min: 1, max: 16777215, ...opt },
  alias: { type: 'string', ...opt },
  vlanaware: { type: 'boolean', ...opt },
  'isolate-ports': { type: 'boolean', ...opt },
  'lock-token': { type: 'string', ...opt },
};
const VNET_CREATE: Schema = { vnet: VNET_ID, zone: { type: 'string' }, type: { type: 'string', enum: ['vnet'], ...opt }, ...VNET_OPTIONS };
const VNET_UPDATE: Schema = { vnet: VNET_ID, zone: { type: 'string', ...opt }, delete: { type: 'string', ...opt }, digest: { type: 'string', ...opt }, ...VNET_OPTIONS };

const SUBNET_OPTIONS: Schema = {
  gateway: { type: 'string', format: ipFormat, ...opt },
  snat: { type: 'boolean', ...opt },
  dnszoneprefix: { type: 'string', ...opt },
  'dhcp-range': { type: 'string', ...opt },
  'dhcp-dns-server': { type: 'string', format: ipFormat, ...opt },
  'lock-token': { type: 'string', ...opt },
};
const SUBNET_CREATE: Schema = { vnet: VNET_ID, subnet: { type: 'string', format: cidrFormat }, type: { type: 'string', enum: ['subnet'] }, ...SUBNET_OPTIONS };
const SUBNET_UPDATE: Schema = {
  vnet: VNET_ID,
  subnet: { type: 'string', format: subnetIdFormat },
  delete: { type: 'string', ...opt },
  digest: { type: 'string', ...opt },
  ...SUBNET_OPTIONS,
};

export function mountSdnRoutes(api: Hono, state: ProxmoxSimState, tasks: TaskRunner, user: string): void {
  const cfg = () => state.sdn.config;

  const view = (kind: Kind, q: Record<string, unknown>): Map<string, View> => {
    if (q.pending) return pendingView(state.sdn.running?.[kind], cfg()[kind]);
    const m = q.running ? state.sdn.running?.[kind] : cfg()[kind];
    return new Map([...(m ?? [])].map(([k, v]) => [k, { ...v }]));
  };
  const digestOf = (kind: Kind, q: Record<string, unknown>) =>
    sdnDigest((q.running ? state.sdn.running?.[kind] : cfg()[kind]) ?? new Map());

  /**
   * `lock_sdn_config`: while a global lock is held (POST /cluster/sdn/lock), only a call carrying
   * its token may write ("invalid lock token provided!"); run the write, keep nothing of it if it
   * dies, and prefix the reason.
   */
  const locked = (context: string, token: unknown, fn: () => void) => {
    const before = cloneSdnSet(cfg());
    try {
      if (state.sdn.lockToken !== undefined && token !== state.sdn.lockToken) throw died('invalid lock token provided!');
      fn();
    } catch (e) {
      state.sdn.config = before;
      throw sdnLockError(context, e);
    }
  };

  const params = async (c: Context, extra: Raw = {}): Promise<Raw> => ({ ...(await readParams(c)), ...extra });

  const vnetMustExist = (vnet: string) => {
    if (!cfg().vnets.get(vnet)) throw died(`sdn vnet '${vnet}' does not exist`);
  };

  api.get('/cluster/sdn', (c) => ok(c, ['vnets', 'zones', 'controllers', 'ipams', 'dns'].map((id) => ({ id }))));

  // PUT /cluster/sdn (API2/Network/SDN.pm reload): commits under the lock (releasing a global
  // lock whose token came with it unless release-lock=0), then forks `reloadnetworkall`, which
  // only starts one network reload task per node (`srvreload`, id `networking`) and does not wait
  // for them: a node's bridges exist once its own reload has run.
  api.put('/cluster/sdn', async (c) => {
    const p = validate(await params(c), { 'lock-token': { type: 'string', ...opt }, 'release-lock': { type: 'boolean', ...opt }, 'regenerate-frr': { type: 'boolean', ...opt } });
    locked('could not commit SDN config', p['lock-token'], () => {
      commitSdn(state);
      if (p['lock-token'] !== undefined && p['release-lock'] !== false) delete state.sdn.lockToken;
    });
    const version = state.sdn.running!.version;
    return ok(
      c,
      tasks.start('reloadnetworkall', '', user, () => {
        for (const node of state.nodes) {
          tasks.on(node).start('srvreload', 'networking', 'root@pam', () => {
            const running = state.sdn.running;
            if (running && running.version === version) state.sdn.applied.set(node, { ...cloneSdnSet(running), version });
          });
        }
      }),
    );
  });

  api.post('/cluster/sdn/lock', async (c) => {
    const p = validate(await params(c), { 'allow-pending': { type: 'boolean', ...opt } });
    let token = '';
    locked('could not acquire lock for SDN config', undefined, () => {
      if (!p['allow-pending'] && hasPendingChanges(state)) throw died('configuration has pending changes');
      token = randomUUID();
      state.sdn.lockToken = token;
    });
    return ok(c, token);
  });

  api.delete('/cluster/sdn/lock', async (c) => {
    const p = validate(await params(c), { 'lock-token': { type: 'string', ...opt }, force: { type: 'boolean', ...opt } });
    if (p.force) delete state.sdn.lockToken;
    else locked('could not release lock', p['lock-token'], () => void delete state.sdn.lockToken);
    return ok(c, null);
  });

  // Nodes/Zone.pm content: each VNet of the zone as this node runs it (Zones.pm status): pending
  // until the node's network reload has generated the running version, then available.
  api.get('/nodes/:node/sdn/zones/:zone/content', (c) => {
    const node = c.req.param('node');
    const zone = c.req.param('zone');
    if (!state.nodes.has(node)) throw died(`hostname lookup '${node}' failed - failed to get address info for: ${node}: Name or service not known`);
    const running = state.sdn.running;
    if (!running) return ok(c, []);
    const local = state.sdn.applied.get(node);
    const stale = !local ? 'local sdn network configuration is not yet generated, please reload' : local.version < running.version ? 'local sdn network configuration is too old, please reload' : undefined;
    const z = running.zones.get(zone);
    if (z?.nodes !== undefined && !String(z.nodes).split(',').includes(node)) return ok(c, []);
    const items = [...running.vnets]
      .filter(([, v]) => v.zone === zone)
      .map(([id]) => (stale ? { vnet: id, status: 'pending', statusmsg: stale } : { vnet: id, status: 'available' }));
    return ok(c, items);
  });

  api.get('/cluster/sdn/controllers', async (c) => {
    const q = validate(await params(c), { ...VIEW, type: { type: 'string', ...opt } });
    const digest = sdnDigest(state.sdn.controllers);
    return ok(c, [...state.sdn.controllers].filter(([, v]) => !q.type || v.type === q.type).map(([id, v]) => ({ ...v, controller: id, digest })));
  });

  // Zones
  api.get('/cluster/sdn/zones', async (c) => {
    const q = validate(await params(c), { ...VIEW, type: { type: 'string', ...opt } });
    const digest = digestOf('zones', q);
    const items = [...view('zones', q)].sort(([a], [b]) => a.localeCompare(b)).map(([id, v]) => ({ ...v, zone: id, digest }));
    return ok(c, items.filter((z) => !q.type || (z as View).type === q.type));
  });

  api.get('/cluster/sdn/zones/:zone', async (c) => {
    const q = validate(await params(c, { zone: c.req.param('zone') }), { zone: ZONE_ID, ...VIEW });
    const z = view('zones', q).get(String(q.zone));
    if (!z) throw died(`sdn '${q.zone}' does not exist`);
    return ok(c, { ...z, zone: q.zone, digest: digestOf('zones', q) });
  });

  api.post('/cluster/sdn/zones', async (c) => {
    const p = validate(await params(c), ZONE_CREATE);
    const id = String(p.zone);
    const zone = sectionValues(p, ['zone', 'lock-token']);
    checkZoneRequired(zone);
    locked('create sdn zone object failed', p['lock-token'], () => {
      if (cfg().zones.has(id)) throw died(`sdn zone object ID '${id}' already defined`);
      cfg().zones.set(id, zone);
      zoneUpdateHook(state, id);
    });
    return ok(c, null);
  });

  api.put('/cluster/sdn/zones/:zone', async (c) => {
    const p = validate(await params(c, { zone: c.req.param('zone') }), ZONE_UPDATE);
    const id = String(p.zone);
    locked('update sdn zone object failed', p['lock-token'], () => {
      const zone = cfg().zones.get(id);
      if (!zone) throw died(`sdn '${id}' does not exist`);
      if (p.digest !== undefined && p.digest !== sdnDigest(cfg().zones)) throw died('detected modified configuration - file changed by other user? Try again.');
      for (const k of splitList(p.delete)) delete zone[k];
      Object.assign(zone, sectionValues(p, ['zone', 'delete', 'digest', 'lock-token']));
      checkZoneRequired(zone);
      zoneUpdateHook(state, id);
    });
    return ok(c, null);
  });

  api.delete('/cluster/sdn/zones/:zone', async (c) => {
    const p = validate(await params(c, { zone: c.req.param('zone') }), { zone: ZONE_ID, 'lock-token': { type: 'string', ...opt } });
    const id = String(p.zone);
    locked('delete sdn zone object failed', p['lock-token'], () => {
      if (!cfg().zones.has(id)) throw died(`sdn '${id}' does not exist`);
      for (const [vnetId, v] of cfg().vnets) if (v.zone === id) throw died(`zone ${id} is used by vnet ${vnetId}`);
      cfg().zones.delete(id);
    });
    return ok(c, null);
  });

  // VNets
  api.get('/cluster/sdn/vnets', async (c) => {
    const q = validate(await params(c), VIEW);
    const digest = digestOf('vnets', q);
    return ok(c, [...view('vnets', q)].sort(([a], [b]) => a.localeCompare(b)).map(([id, v]) => ({ ...v, vnet: id, digest })));
  });

  api.get('/cluster/sdn/vnets/:vnet', async (c) => {
    const q = validate(await params(c, { vnet: c.req.param('vnet') }), { vnet: VNET_ID, ...VIEW });
    const id = String(q.vnet);
    vnetMustExist(id);
    const v = view('vnets', q).get(id);
    if (!v) throw died(`sdn vnet '${id}' does not exist`);
    return ok(c, { ...v, vnet: id, digest: digestOf('vnets', q) });
  });

  api.post('/cluster/sdn/vnets', async (c) => {
    const p = validate(await params(c), VNET_CREATE);
    const id = String(p.vnet);
    locked('create sdn vnet object failed', p['lock-token'], () => {
      if (cfg().vnets.has(id)) throw died(`sdn vnet object ID '${id}' already defined`);
      cfg().vnets.set(id, { type: 'vnet', ...sectionValues(p, ['vnet', 'type', 'lock-token']) });
      vnetUpdateHook(state, id);
    });
    return ok(c, null);
  });

  api.put('/cluster/sdn/vnets/:vnet', async (c) => {
    const p = validate(await params(c, { vnet: c.req.param('vnet') }), VNET_UPDATE);
    const id = String(p.vnet);
    vnetMustExist(id);
    locked('update sdn vnet object failed', p['lock-token'], () => {
      const vnet = cfg().vnets.get(id)!;
      if (p.digest !== undefined && p.digest !== sdnDigest(cfg().vnets)) throw died('detected modified configuration - file changed by other user? Try again.');
      const oldZone = vnet.zone;
      for (const k of splitList(p.delete)) delete vnet[k];
      Object.assign(vnet, sectionValues(p, ['vnet', 'delete', 'digest', 'lock-token']));
      if (!vnet.zone) throw died('zone: cannot delete zone');
      const hasSubnets = [...cfg().subnets.values()].some((s) => s.vnet === id);
      if (hasSubnets && oldZone !== vnet.zone) throw died("zone: can't change zone if subnets exist");
      vnetUpdateHook(state, id);
    });
    return ok(c, null);
  });

  api.delete('/cluster/sdn/vnets/:vnet', async (c) => {
    const p = validate(await params(c, { vnet: c.req.param('vnet') }), { vnet: VNET_ID, 'lock-token': { type: 'string', ...opt } });
    const id = String(p.vnet);
    vnetMustExist(id);
    locked('delete sdn vnet object failed', p['lock-token'], () => {
      if ([...cfg().subnets.values()].some((s) => s.vnet === id)) throw died("vnet: Can't delete vnet if subnets exists");
      cfg().vnets.delete(id);
    });
    return ok(c, null);
  });

  // Subnets
  const subnetItem = (id: string, s: View, digest: string) => ({ ...s, ...subnetDerived(id), id, subnet: id, digest, 'dhcp-range': [] });

  api.get('/cluster/sdn/vnets/:vnet/subnets', async (c) => {
    const q = validate(await params(c, { vnet: c.req.param('vnet') }), { vnet: VNET_ID, ...VIEW });
    const vnet = String(q.vnet);
    vnetMustExist(vnet);
    const digest = digestOf('subnets', q);
    const items = [...view('subnets', q)].filter(([, s]) => s.vnet === vnet).sort(([a], [b]) => a.localeCompare(b));
    return ok(c, items.map(([id, s]) => subnetItem(id, s, digest)));
  });

  api.get('/cluster/sdn/vnets/:vnet/subnets/:subnet', async (c) => {
    const q = validate(await params(c, { vnet: c.req.param('vnet'), subnet: c.req.param('subnet') }), {
      vnet: VNET_ID,
      subnet: { type: 'string', format: subnetIdFormat },
      ...VIEW,
    });
    const vnet = String(q.vnet);
    vnetMustExist(vnet);
    const id = String(q.subnet);
    const s = view('subnets', q).get(id);
    if (!s) throw died(`sdn subnet '${id}' does not exist`);
    if (s.vnet !== vnet) throw paramError({ vnet: 'wrong vnet' });
    return ok(c, subnetItem(id, s, digestOf('subnets', q)));
  });

  api.post('/cluster/sdn/vnets/:vnet/subnets', async (c) => {
    const p = validate(await params(c, { vnet: c.req.param('vnet') }), SUBNET_CREATE);
    const vnet = String(p.vnet);
    vnetMustExist(vnet);
    const zone = String(cfg().vnets.get(vnet)!.zone);
    const id = `${zone}-${String(p.subnet).replace('/', '-')}`;
    locked('create sdn subnet object failed', p['lock-token'], () => {
      if (cfg().subnets.has(id)) throw died(`sdn subnet object ID '${id}' already defined`);
      cfg().subnets.set(id, { type: 'subnet', ...sectionValues(p, ['subnet', 'type', 'lock-token']) });
      subnetUpdateHook(state, id);
    });
    return ok(c, null);
  });

  api.put('/cluster/sdn/vnets/:vnet/subnets/:subnet', async (c) => {
    const p = validate(await params(c, { vnet: c.req.param('vnet'), subnet: c.req.param('subnet') }), SUBNET_UPDATE);
    const vnet = String(p.vnet);
    vnetMustExist(vnet);
    const id = String(p.subnet);
    locked('update sdn subnet object failed', p['lock-token'], () => {
      const s: SdnSection | undefined = cfg().subnets.get(id);
      if (!s) throw died(`sdn subnet '${id}' does not exist`);
      if (s.vnet !== vnet) throw paramError({ vnet: 'wrong vnet' });
      if (p.digest !== undefined && p.digest !== sdnDigest(cfg().subnets)) throw died('detected modified configuration - file changed by other user? Try again.');
      for (const k of splitList(p.delete)) delete s[k];
      Object.assign(s, sectionValues(p, ['subnet', 'vnet', 'delete', 'digest', 'lock-token']));
      subnetUpdateHook(state, id);
    });
    return ok(c, null);
  });

  api.delete('/cluster/sdn/vnets/:vnet/subnets/:subnet', async (c) => {
    const p = validate(await params(c, { vnet: c.req.param('vnet'), subnet: c.req.param('subnet') }), {
      vnet: VNET_ID,
      subnet: { type: 'string', format: subnetIdFormat },
      'lock-token': { type: 'string', ...opt },
    });
    vnetMustExist(String(p.vnet));
    // pve-network looks the subnet up with noerr here: deleting an absent subnet succeeds.
    locked('delete sdn subnet object failed', p['lock-token'], () => void cfg().subnets.delete(String(p.subnet)));
    return ok(c, null);
  });
}
