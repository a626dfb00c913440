import { z } from '@hono/zod-openapi';
import { pskProblem } from '../../../core/credentials/wifi-psk.js';
import { WIFI_KEY_NAME } from '../../../core/views/wifi-key.js';
import { listOf, objectParams, Stamps, conditioned, failureOf } from './common.js';
import { TrustClass } from './device.js';

export const WifiKeyName = z
  .string()
  .regex(WIFI_KEY_NAME, 'must be 1-32 lowercase alphanumerics or dashes, not starting or ending with a dash')
  .openapi({ example: 'sensors' });

export const WifiKeyParam = objectParams('key', WifiKeyName);

export const WifiKeyRequest = z
  .strictObject({
    name: WifiKeyName,
    trust_class: TrustClass,
    psk: z
      .string()
      .superRefine((v, ctx) => {
        const problem = pskProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem.replace(/^psk /, '') });
      })
      .optional()
      // Documents pskProblem's length and alphabet (WPA passphrase rules); the refine keeps the message.
      .openapi({
        minLength: 8,
        maxLength: 63,
        pattern: '^[\\x20-\\x7e]*$',
        description: 'restore only: the key the tenant holds, after the service lost its copy',
      }),
  })
  .openapi('WifiKeyRequest');

export const WifiKey = z
  .object({
    name: z.string(),
    trust_class: z.string().openapi({ description: 'the site trust class; `developer` for the key an admission issued' }),
    ssid: z.string(),
    mac: z.string().optional().openapi({ description: 'the one client the key is bound to' }),
    secrets_stored: z.boolean().openapi({ description: "false: the stored psk is unreadable; issue the key again with the tenant's psk" }),
    ...Stamps,
    psk: z.string().optional().openapi({ description: 'create answers only' }),
    ...conditioned,
  })
  .openapi('WifiKey');

export const WifiKeyList = listOf('wifi_keys', WifiKey, 'WifiKeyList');

export const WifiKeyFailure = failureOf('wifi_key', WifiKey, 'the key with its psk; repeating the call keeps it', 'WifiKeyFailure');
