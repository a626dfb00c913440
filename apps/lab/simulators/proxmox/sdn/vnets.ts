import { died, ok } from '../envelope.js';
import { splitList, validate } from '../params.js';
import { sectionValues, vnetUpdateHook } from '../sdn-model.js';
import { sdnDigest } from '../state.js';
import type { SdnHandler } from './context.js';
import { opt, VIEW, VNET_CREATE, VNET_ID, VNET_UPDATE } from './schemas.js';

/** SDN VNets: list, read, create, update, delete. */

export const listVnets: SdnHandler = async (c, sdn) => {
  const q = validate(await sdn.params(c), VIEW);
  const digest = sdn.digestOf('vnets', q);
  return ok(
    c,
    [...sdn.view('vnets', q)].sort(([a], [b]) => a.localeCompare(b)).map(([id, v]) => ({ ...v, vnet: id, digest })),
  );
};

export const readVnet: SdnHandler = async (c, sdn) => {
  const q = validate(await sdn.params(c, { vnet: c.req.param('vnet') }), { vnet: VNET_ID, ...VIEW });
  const id = String(q.vnet);
  sdn.vnetMustExist(id);
  const v = sdn.view('vnets', q).get(id);
  if (!v) throw died(`sdn vnet '${id}' does not exist`);
  return ok(c, { ...v, vnet: id, digest: sdn.digestOf('vnets', q) });
};

export const createVnet: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c), VNET_CREATE);
  const id = String(p.vnet);
  sdn.create('vnets', id, p['lock-token'], { type: 'vnet', ...sectionValues(p, ['vnet', 'type', 'lock-token']) });
  return ok(c, null);
};

export const updateVnet: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c, { vnet: c.req.param('vnet') }), VNET_UPDATE);
  const id = String(p.vnet);
  sdn.vnetMustExist(id);
  sdn.locked('update sdn vnet object failed', p['lock-token'], () => {
    const vnet = sdn.cfg().vnets.get(id)!;
    if (p.digest !== undefined && p.digest !== sdnDigest(sdn.cfg().vnets))
      throw died('detected modified configuration - file changed by other user? Try again.');
    const oldZone = vnet.zone;
    for (const k of splitList(p.delete)) delete vnet[k];
    Object.assign(vnet, sectionValues(p, ['vnet', 'delete', 'digest', 'lock-token']));
    if (!vnet.zone) throw died('zone: cannot delete zone');
    const hasSubnets = [...sdn.cfg().subnets.values()].some((s) => s.vnet === id);
    if (hasSubnets && oldZone !== vnet.zone) throw died("zone: can't change zone if subnets exist");
    vnetUpdateHook(sdn.state, id);
  });
  return ok(c, null);
};

export const deleteVnet: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c, { vnet: c.req.param('vnet') }), { vnet: VNET_ID, 'lock-token': { type: 'string', ...opt } });
  const id = String(p.vnet);
  sdn.vnetMustExist(id);
  sdn.locked('delete sdn vnet object failed', p['lock-token'], () => {
    if ([...sdn.cfg().subnets.values()].some((s) => s.vnet === id)) throw died("vnet: Can't delete vnet if subnets exists");
    sdn.cfg().vnets.delete(id);
  });
  return ok(c, null);
};
