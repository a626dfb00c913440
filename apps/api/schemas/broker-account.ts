import { z } from '@hono/zod-openapi';
import { WORKLOAD_NAME } from '../../../core/names/workload.js';
import { dnsLabel, listOf, Stamps, TenantName, conditioned, failed } from './common.js';

/** Account names: the username is `<tenant>-<name>`, and the name is a path segment. */
export const BROKER_ACCOUNT_NAME = /^[a-z][a-z0-9-]{0,31}$/;
const AccountName = z.string().regex(BROKER_ACCOUNT_NAME, 'must match ^[a-z][a-z0-9-]{0,31}$');
const Patterns = z.array(z.string());

export const BrokerAccountParams = z.object({
  t: TenantName.openapi({ param: { name: 't', in: 'path' } }),
  account: AccountName.openapi({ param: { name: 'account', in: 'path' }, example: 'sensor-gw' }),
});

export const BrokerAccountRequest = z
  .strictObject({
    name: AccountName.openapi({ example: 'sensor-gw', description: 'the username is `<tenant>-<name>`' }),
    // The device registry's name pattern; the registry is not consulted (an entry grants nothing,
    // and the account only names its device's log topic).
    device: dnsLabel(WORKLOAD_NAME, 'must be a device name: a DNS label of 1-20 lowercase alphanumerics or dashes')
      .optional()
      .openapi({ description: 'makes this a device account: it may publish `log/<device>` and may not subscribe under `log/`' }),
    publish: Patterns.openapi({ description: 'topic patterns relative to the tenant; may be empty when subscribe is not' }),
    subscribe: Patterns.openapi({ description: 'topic patterns relative to the tenant; may be empty when publish is not' }),
    password: z
      .string()
      .min(16, 'must be at least 16 characters')
      .max(128, 'must be at most 128 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional()
      .openapi({ description: 'restore only: the password the tenant holds, after the broker lost it' }),
  })
  .openapi('BrokerAccountRequest');

export const BrokerAccount = z
  .object({
    name: z.string(),
    username: z.string().openapi({ description: '`<tenant>-<name>`' }),
    device: z.string().optional(),
    publish: z.array(z.string()).openapi({ description: 'absolute patterns (`<tenant>/...`), as the broker enforces them' }),
    subscribe: z.array(z.string()).openapi({ description: 'absolute patterns (`<tenant>/...`), as the broker enforces them' }),
    password: z.string().optional().openapi({ description: 'only in the answer of a call that minted or was given one' }),
    ...Stamps,
    ...conditioned,
  })
  .openapi('BrokerAccount');

export const BrokerAccountList = listOf('broker_accounts', BrokerAccount, 'BrokerAccountList');

export const BrokerAccountFailure = z
  .object({ error: z.string(), broker_account: BrokerAccount, ...failed })
  .openapi('BrokerAccountFailure', { description: 'the broker step failed; the account as asked, with the password this call minted or was given' });
