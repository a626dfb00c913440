import { died, ok, paramError } from '../envelope.js';
import { splitList, validate } from '../params.js';
import { sectionValues, subnetDerived, subnetIdFormat, subnetUpdateHook, type View } from '../sdn-model.js';
import { sdnDigest, type SdnSection } from '../state.js';
import type { SdnHandler } from './context.js';
import { opt, SUBNET_CREATE, SUBNET_UPDATE, VIEW, VNET_ID } from './schemas.js';

const subnetItem = (id: string, s: View, digest: string) => ({ ...s, ...subnetDerived(id), id, subnet: id, digest, 'dhcp-range': [] });

/** SDN subnets of a VNet: list, read, create, update, delete (an absent one deletes fine). */

export const listSubnets: SdnHandler = async (c, sdn) => {
  const q = validate(await sdn.params(c, { vnet: c.req.param('vnet') }), { vnet: VNET_ID, ...VIEW });
  const vnet = String(q.vnet);
  sdn.vnetMustExist(vnet);
  const digest = sdn.digestOf('subnets', q);
  const items = [...sdn.view('subnets', q)].filter(([, s]) => s.vnet === vnet).sort(([a], [b]) => a.localeCompare(b));
  return ok(
    c,
    items.map(([id, s]) => subnetItem(id, s, digest)),
  );
};

export const readSubnet: SdnHandler = async (c, sdn) => {
  const q = validate(await sdn.params(c, { vnet: c.req.param('vnet'), subnet: c.req.param('subnet') }), {
    vnet: VNET_ID,
    subnet: { type: 'string', format: subnetIdFormat },
    ...VIEW,
  });
  const vnet = String(q.vnet);
  sdn.vnetMustExist(vnet);
  const id = String(q.subnet);
  const s = sdn.view('subnets', q).get(id);
  if (!s) throw died(`sdn subnet '${id}' does not exist`);
  if (s.vnet !== vnet) throw paramError({ vnet: 'wrong vnet' });
  return ok(c, subnetItem(id, s, sdn.digestOf('subnets', q)));
};

export const createSubnet: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c, { vnet: c.req.param('vnet') }), SUBNET_CREATE);
  const vnet = String(p.vnet);
  sdn.vnetMustExist(vnet);
  const zone = String(sdn.cfg().vnets.get(vnet)!.zone);
  const id = `${zone}-${String(p.subnet).replace('/', '-')}`;
  sdn.create('subnets', id, p['lock-token'], { type: 'subnet', ...sectionValues(p, ['subnet', 'type', 'lock-token']) });
  return ok(c, null);
};

export const updateSubnet: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c, { vnet: c.req.param('vnet'), subnet: c.req.param('subnet') }), SUBNET_UPDATE);
  const vnet = String(p.vnet);
  sdn.vnetMustExist(vnet);
  const id = String(p.subnet);
  sdn.locked('update sdn subnet object failed', p['lock-token'], () => {
    const s: SdnSection | undefined = sdn.cfg().subnets.get(id);
    if (!s) throw died(`sdn subnet '${id}' does not exist`);
    if (s.vnet !== vnet) throw paramError({ vnet: 'wrong vnet' });
    if (p.digest !== undefined && p.digest !== sdnDigest(sdn.cfg().subnets))
      throw died('detected modified configuration - file changed by other user? Try again.');
    for (const k of splitList(p.delete)) delete s[k];
    Object.assign(s, sectionValues(p, ['subnet', 'vnet', 'delete', 'digest', 'lock-token']));
    subnetUpdateHook(sdn.state, id);
  });
  return ok(c, null);
};

export const deleteSubnet: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c, { vnet: c.req.param('vnet'), subnet: c.req.param('subnet') }), {
    vnet: VNET_ID,
    subnet: { type: 'string', format: subnetIdFormat },
    'lock-token': { type: 'string', ...opt },
  });
  sdn.vnetMustExist(String(p.vnet));
  // pve-network looks the subnet up with noerr here: deleting an absent subnet succeeds.
  sdn.locked('delete sdn subnet object failed', p['lock-token'], () => void sdn.cfg().subnets.delete(String(p.subnet)));
  return ok(c, null);
};
