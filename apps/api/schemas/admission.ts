import { z } from '@hono/zod-openapi';
import { nicMacReason } from '../../../core/names/mac.js';
import { DateTime, TenantName } from './common.js';

export const Mac = z
  .string()
  .check((ctx) => {
    const why = nicMacReason(ctx.value);
    if (why) ctx.issues.push({ code: 'custom', message: why, input: ctx.value });
  })
  // The pattern documents the forms normalizeMac accepts; the check keeps the readable message and
  // refuses what no pattern states well: broadcast, multicast and all-zero addresses.
  .openapi({ example: 'aa:bb:cc:dd:ee:ff', pattern: '^(?:[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{2}(?:-[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{12})$' });

export const AdmissionRequest = z
  .strictObject({
    name: TenantName,
    mac: Mac.optional().openapi({
      description:
        "Binds the admission's Wi-Fi key to one computer: the key is issued on the site's MAC-filtered developer WLAN, whose allow-list holds this MAC beside the key until the key is revoked (withdrawal, expiry of the unused admission, re-admission, the tenant's delete). Refused (400) at a site with a developer network but no MAC-filtered developer WLAN, rather than issuing a key any client could use.",
    }),
  })
  .openapi('AdmissionRequest');

export const Admission = z
  .object({
    name: z.string(),
    enrollment_token: z.string(),
    expires_at: DateTime,
    wifi: z
      .object({
        ssid: z.string(),
        psk: z.string(),
        mac: z
          .string()
          .optional()
          .openapi({ description: 'The client the key is bound to, lowercase colon-separated; absent for an unbound key.', example: 'aa:bb:cc:dd:ee:ff' }),
      })
      .optional(),
  })
  .openapi('Admission');
