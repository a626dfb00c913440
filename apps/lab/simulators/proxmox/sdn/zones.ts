import { died, ok } from '../envelope.js';
import { splitList, validate } from '../params.js';
import { checkZoneRequired, sectionValues, zoneUpdateHook, type View } from '../sdn-model.js';
import { sdnDigest } from '../state.js';
import type { SdnHandler } from './context.js';
import { opt, VIEW, ZONE_CREATE, ZONE_ID, ZONE_UPDATE } from './schemas.js';

/** SDN zones: list, read, create, update, delete. */

export const listZones: SdnHandler = async (c, sdn) => {
  const q = validate(await sdn.params(c), { ...VIEW, type: { type: 'string', ...opt } });
  const digest = sdn.digestOf('zones', q);
  const items = [...sdn.view('zones', q)].sort(([a], [b]) => a.localeCompare(b)).map(([id, v]) => ({ ...v, zone: id, digest }));
  return ok(
    c,
    items.filter((z) => !q.type || (z as View).type === q.type),
  );
};

export const readZone: SdnHandler = async (c, sdn) => {
  const q = validate(await sdn.params(c, { zone: c.req.param('zone') }), { zone: ZONE_ID, ...VIEW });
  const z = sdn.view('zones', q).get(String(q.zone));
  if (!z) throw died(`sdn '${q.zone}' does not exist`);
  return ok(c, { ...z, zone: q.zone, digest: sdn.digestOf('zones', q) });
};

export const createZone: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c), ZONE_CREATE);
  const id = String(p.zone);
  const zone = sectionValues(p, ['zone', 'lock-token']);
  checkZoneRequired(zone);
  sdn.create('zones', id, p['lock-token'], zone);
  return ok(c, null);
};

export const updateZone: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c, { zone: c.req.param('zone') }), ZONE_UPDATE);
  const id = String(p.zone);
  sdn.locked('update sdn zone object failed', p['lock-token'], () => {
    const zone = sdn.cfg().zones.get(id);
    if (!zone) throw died(`sdn '${id}' does not exist`);
    if (p.digest !== undefined && p.digest !== sdnDigest(sdn.cfg().zones))
      throw died('detected modified configuration - file changed by other user? Try again.');
    for (const k of splitList(p.delete)) delete zone[k];
    Object.assign(zone, sectionValues(p, ['zone', 'delete', 'digest', 'lock-token']));
    checkZoneRequired(zone);
    zoneUpdateHook(sdn.state, id);
  });
  return ok(c, null);
};

export const deleteZone: SdnHandler = async (c, sdn) => {
  const p = validate(await sdn.params(c, { zone: c.req.param('zone') }), { zone: ZONE_ID, 'lock-token': { type: 'string', ...opt } });
  const id = String(p.zone);
  sdn.locked('delete sdn zone object failed', p['lock-token'], () => {
    if (!sdn.cfg().zones.has(id)) throw died(`sdn '${id}' does not exist`);
    for (const [vnetId, v] of sdn.cfg().vnets) if (v.zone === id) throw died(`zone ${id} is used by vnet ${vnetId}`);
    sdn.cfg().zones.delete(id);
  });
  return ok(c, null);
};
