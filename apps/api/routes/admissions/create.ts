import { createRoute } from '@hono/zod-openapi';
import { normalizeMac } from '../../../../core/names/mac.js';
import { actorOf } from '../../auth/caller.js';
import { badRequest, conflict } from '../../errors.js';
import { Admission, AdmissionRequest } from '../../schemas/admission.js';
import { refuseReservedName } from '../../reserved-names.js';
import { ErrorBody } from '../../schemas/common.js';
import { idempotent } from '../../idempotency/contract.js';
import { bearer, handle, jsonBody, responses } from '../kit.js';

export const route = createRoute(
  idempotent({
    method: 'post',
    path: '/v1/admissions',
    tags: ['admissions'],
    ...bearer,
    summary: 'Admit a tenant name: a single-use enrollment token',
    request: { body: jsonBody(AdmissionRequest) },
    responses: responses(
      { 201: ['admitted', Admission] },
      [400, 401, 403, 409, 413, 501, 503],
      ["the admission's Wi-Fi key did not land on the wireless controller; no token was issued, repeat the call", ErrorBody],
    ),
  }),
);

// Operator only: app.ts authorizes it (OPERATOR_ONLY) before anything validates the request.
export const register = handle(route, async (c, deps) => {
  const body = c.req.valid('json');
  refuseReservedName(deps.config.site, body.name);
  const mac = body.mac ? normalizeMac(body.mac) : undefined;
  // Without the MAC-filtered developer WLAN the key would be usable by any client: refused before
  // anything is issued, never handed out unbound (docs/decisions.md, "Wireless controller").
  const developer = deps.config.site?.wifi?.developer;
  if (mac && developer && !developer.boundSsid) {
    throw badRequest('mac: this site has no MAC-filtered developer WLAN to bind a Wi-Fi key to one client; admit without mac');
  }
  const ops = deps.operations!;
  if (await ops.isRegistered(body.name)) throw conflict('name already a registered tenant');
  const actor = actorOf(c.var.caller);
  const admission = await ops.admit({ name: body.name, mac, actor });
  c.var.log.info({ actor, tenant: body.name }, 'admission issued');
  return c.json(admission, 201);
});
