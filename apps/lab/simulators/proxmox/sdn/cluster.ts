import { randomUUID } from 'node:crypto';
import { died, ok } from '../envelope.js';
import { validate } from '../params.js';
import { pendingView, type View } from '../sdn-model.js';
import { cloneSdnSet, commitSdn as commitSdnConfig, emptySdnSet, hasPendingChanges, sdnDigest, type SdnSection } from '../state.js';
import type { SdnHandler } from './context.js';
import { opt, VIEW } from './schemas.js';

/** The SDN index, the commit and its network reload, the global lock, a zone's content on a node, the controllers. */

export const sdnIndex: SdnHandler = (c, sdn) =>
  ok(
    c,
    ['vnets', 'zones', 'controllers', 'ipams', 'dns', ...(sdn.features.fabrics ? ['fabrics'] : [])].map((id) => ({ id })),
  );

// PUT /cluster/sdn (API2/Network/SDN.pm reload): commits under the lock (releasing a global
// lock whose token came with it unless release-lock=0), then forks `reloadnetworkall`, which
// only starts one network reload task per node (`srvreload`, id `networking`) and does not wait
// for them: a node's bridges exist once its own reload has run.
export const commitSdn: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c), {
    'lock-token': { type: 'string', ...opt },
    'release-lock': { type: 'boolean', ...opt },
    'regenerate-frr': { type: 'boolean', ...opt },
  });
  sdn.locked('could not commit SDN config', p['lock-token'], () => {
    commitSdnConfig(sdn.state);
    if (p['lock-token'] !== undefined && p['release-lock'] !== false) delete sdn.state.sdn.lockToken;
  });
  const version = sdn.state.sdn.running!.version;
  return ok(
    c,
    sdn.tasks.start('reloadnetworkall', '', sdn.user, () => {
      // A node whose reload cannot be started (`pvesh set /nodes/<node>/network` fails: the node
      // is down or unreachable) is a `warn` of the task, which goes on with the next node.
      const warnings: string[] = [];
      for (const node of sdn.state.nodes) {
        if (sdn.state.sdn.unreachable.has(node)) {
          warnings.push(`command 'pvesh set /nodes/${node}/network' failed: exit code 2`);
          continue;
        }
        sdn.tasks.on(node).start('srvreload', 'networking', 'root@pam', () => {
          const running = sdn.state.sdn.running;
          if (running && running.version === version) sdn.state.sdn.applied.set(node, { ...cloneSdnSet(running), version });
        });
      }
      return warnings;
    }),
  );
};

export const lockSdn: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c), { 'allow-pending': { type: 'boolean', ...opt } });
  let token = '';
  sdn.locked('could not acquire lock for SDN config', undefined, () => {
    if (!p['allow-pending'] && hasPendingChanges(sdn.state)) throw died('configuration has pending changes');
    token = randomUUID();
    sdn.state.sdn.lockToken = token;
    sdn.state.sdn.lockTakes++;
  });
  return ok(c, token);
};

export const unlockSdn: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c), { 'lock-token': { type: 'string', ...opt }, force: { type: 'boolean', ...opt } });
  if (p.force) delete sdn.state.sdn.lockToken;
  else sdn.locked('could not release lock', p['lock-token'], () => void delete sdn.state.sdn.lockToken);
  return ok(c, null);
};

// POST /cluster/sdn/rollback (PVE 9): the edited configuration becomes the running one again,
// every staged edit dropped, under the lock (its token releases it unless release-lock=0).
export const rollbackSdn: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c), { 'lock-token': { type: 'string', ...opt }, 'release-lock': { type: 'boolean', ...opt } });
  sdn.locked('could not rollback SDN configuration', p['lock-token'], () => {
    const s = sdn.state.sdn;
    s.config = cloneSdnSet(s.running ?? emptySdnSet());
    s.controllers = new Map([...s.controllersRunning].map(([k, v]) => [k, { ...v }]));
    for (const m of [s.fabrics, s.fabricNodes]) m.config = new Map([...m.running].map(([k, v]) => [k, { ...v }]));
    if (p['lock-token'] !== undefined && p['release-lock'] !== false) delete s.lockToken;
  });
  return ok(c, null);
};

// Nodes/Zone.pm content: each VNet of the zone as this node runs it (Zones.pm status): pending
// until the node's network reload has generated the running version, then available.
export const zoneContent: SdnHandler = (c, sdn) => {
  const node = c.req.param('node') ?? '';
  const zone = c.req.param('zone') ?? '';
  if (!sdn.state.nodes.has(node)) throw died(`hostname lookup '${node}' failed - failed to get address info for: ${node}: Name or service not known`);
  const running = sdn.state.sdn.running;
  if (!running) return ok(c, []);
  const local = sdn.state.sdn.applied.get(node);
  const stale = !local
    ? 'local sdn network configuration is not yet generated, please reload'
    : local.version < running.version
      ? 'local sdn network configuration is too old, please reload'
      : undefined;
  const z = running.zones.get(zone);
  if (z?.nodes !== undefined && !String(z.nodes).split(',').includes(node)) return ok(c, []);
  const items = [...running.vnets]
    .filter(([, v]) => v.zone === zone)
    .map(([id]) => (stale ? { vnet: id, status: 'pending', statusmsg: stale } : { vnet: id, status: 'available' }));
  return ok(c, items);
};

// API2/Network/SDN/Controllers.pm index: edited, `running=1` or `pending=1` (with `state`) like zones.
export const listControllers: SdnHandler = async (c, sdn) => {
  const q = validate(await sdn.params(c), { ...VIEW, type: { type: 'string', ...opt } });
  const { controllers, controllersRunning } = sdn.state.sdn;
  const digest = sdnDigest(q.running ? controllersRunning : controllers);
  const view = q.pending
    ? pendingView(controllersRunning, controllers)
    : new Map([...(q.running ? controllersRunning : controllers)].map(([k, v]) => [k, { ...v }]));
  return ok(
    c,
    [...view].filter(([, v]) => !q.type || (v.type ?? (v.pending as View | undefined)?.type) === q.type).map(([id, v]) => ({ ...v, controller: id, digest })),
  );
};

// PVE 9, API2/Network/SDN/Fabrics.pm list_all: `{fabrics, nodes}`, edited, `running=1` or
// `pending=1` (pending_config over fabrics and over nodes: `state` new/changed/deleted).
export const listAllFabrics: SdnHandler = async (c, sdn) => {
  const q = validate(await sdn.params(c), VIEW);
  const { fabrics, fabricNodes } = sdn.state.sdn;
  const pick = (m: { config: Map<string, SdnSection>; running: Map<string, SdnSection> }) =>
    q.pending ? pendingView(m.running, m.config) : new Map([...(q.running ? m.running : m.config)].map(([k, v]) => [k, { ...v } as View]));
  return ok(c, { fabrics: [...pick(fabrics).values()], nodes: [...pick(fabricNodes).values()] });
};
