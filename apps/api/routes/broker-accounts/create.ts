import { createRoute } from '@hono/zod-openapi';
import { absolutePatterns } from '../../../../activities/broker/patterns.js';
import { badRequest, settle } from '../../errors.js';
import { BrokerAccount, BrokerAccountFailure, BrokerAccountRequest } from '../../schemas/broker-account.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { brokerAccess } from './access.js';
import { idempotent } from '../../idempotency/contract.js';
import { answer, bearer, handle, jsonBody } from '../kit.js';

export const route = createRoute(idempotent({
  method: 'post', path: '/v1/tenants/{t}/broker-accounts', tags: ['broker accounts'], ...bearer,
  summary: 'Issue (or re-issue) an MQTT broker account; an ensure',
  description:
    'The username is `<tenant>-<name>`. A new account gets a password minted by the service, returned once. ' +
    'Issuing again keeps the password and returns none; `password` restores one the tenant holds. ' +
    'Changes take effect at a client\'s next connection.',
  request: { params: TenantParam, body: jsonBody(BrokerAccountRequest) },
  responses: {
    201: answer('the account; `password` only when this call minted or was given one', BrokerAccount),
    // 409: the broker lost an existing account and the call sent no password to restore it.
    ...errorResponses(400, 401, 404, 409, 413, 501),
    502: answer('the broker step failed; the account with its password', BrokerAccountFailure),
    ...errorResponses(503),
  },
}));

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  const body = c.req.valid('json');
  const ops = await brokerAccess(c, deps, t);
  const patterns = absolutePatterns({ tenant: t, device: body.device, publish: body.publish, subscribe: body.subscribe });
  if (!patterns.ok) throw badRequest(patterns.reason);
  const result = settle(await ops.ensure({
    tenant: t,
    name: body.name,
    ...(body.device !== undefined ? { device: body.device } : {}),
    publish: patterns.publish,
    subscribe: patterns.subscribe,
    ...(body.password !== undefined ? { password: body.password } : {}),
  }), (failed) => ({ broker_account: failed.account }));
  return c.json(result.account, 201);
});
