import { absolutePatterns } from '../../../../core/names/broker-patterns.js';
import { badRequest, settle } from '../../errors.js';
import { BrokerAccount, BrokerAccountFailure, BrokerAccountRequest } from '../../schemas/broker-account.js';
import { brokerAccounts } from './resource.js';

export const { route, register } = brokerAccounts.create({
  summary: 'Issue (or re-issue) an MQTT broker account; an ensure',
  description:
    'The username is `<tenant>-<name>`. A new account gets a password minted by the service, returned once. ' +
    'Issuing again keeps the password and returns none; `password` restores one the tenant holds. ' +
    "Changes reach a client's next connection for certain; the broker also checks its open connections' later publishes, " +
    'subscriptions and deliveries against them at once, without cutting them. A restored password cuts open connections.',
  // 409: the broker lost an existing account and the call sent no password to restore it.
  body: BrokerAccountRequest,
  errors: [400, 401, 404, 409, 413, 501, 503],
  answers: { 201: ['the account; `password` only when this call minted or was given one', BrokerAccount] },
  failed: ['the broker step failed; the account with its password', BrokerAccountFailure],
  write: async ({ ops }, { t }, body) => {
    const patterns = absolutePatterns({ tenant: t, device: body.device, publish: body.publish, subscribe: body.subscribe });
    if (!patterns.ok) throw badRequest(patterns.reason);
    const { publish, subscribe } = patterns;
    const optional = { ...(body.device !== undefined ? { device: body.device } : {}), ...(body.password !== undefined ? { password: body.password } : {}) };
    const issued = await ops.ensure({ tenant: t, name: body.name, publish, subscribe, ...optional });
    return [201, settle(issued, (failed) => ({ broker_account: failed.account })).account] as const;
  },
});
