import { actorOf } from '../../auth/caller.js';
import { TenantParam } from '../../schemas/common.js';
import { resource } from '../shapes.js';

/** A tenant name's admission: operator only, which app.ts checks (OPERATOR_ONLY) before anything validates the request. */
export const admissions = resource({
  tag: 'admissions',
  item: '/v1/admissions/{t}',
  params: TenantParam,
  access: async (c, deps) => ({ ops: deps.operations!, actor: actorOf(c.var.caller) }),
});
