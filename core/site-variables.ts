import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseDuration } from './duration.js';

// The kinds of value a site variable holds, shared by the core settings (core/site.ts) and each
// backend area's slice (activities/<area>/settings.ts).

export const key32 = z
  .string()
  .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64')
  .transform((v) => Buffer.from(v, 'base64'));
export const int = (def: number) => z.coerce.number().int().nonnegative().default(def);
export const url = z.string().url('must be a URL');
// Zero is refused: a zero lifetime admits nobody, a zero interval or timeout spins or fails every call.
export const duration = (def: string) =>
  z
    .string()
    .default(def)
    .refine((v) => parseDuration(v) !== undefined, 'must be a duration like 30s, 10m, 72h')
    .refine((v) => (parseDuration(v) ?? 1) > 0, 'must be longer than zero')
    .transform((v) => parseDuration(v)!);
/** A duration, or `off`: a scheduled job a site may run without (its value is then undefined). */
export const durationOrOff = (def: string) =>
  z
    .string()
    .default(def)
    .refine((v) => v === 'off' || parseDuration(v) !== undefined, 'must be a duration like 30s, 10m, 72h, or off')
    .refine((v) => v === 'off' || (parseDuration(v) ?? 1) > 0, 'must be longer than zero')
    .transform((v) => (v === 'off' ? undefined : parseDuration(v)!));
export const supernet = z
  .string()
  .regex(/^(\d{1,3})\.(\d{1,3})\.0\.0\/16$/, 'must be an IPv4 /16 like 10.128.0.0/16')
  .refine(
    (v) =>
      v
        .split('.')
        .slice(0, 2)
        .every((o) => Number(o) <= 255),
    'must be an IPv4 /16 like 10.128.0.0/16',
  );
/**
 * A file of PEM certificates a backend's TLS certificate is checked against (its private CA), read
 * when the service starts: an unreadable file or one without a certificate stops it.
 */
export const caFile = z.string().transform((path, ctx) => {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch {
    ctx.addIssue({ code: 'custom', message: 'cannot read the file' });
    return z.NEVER;
  }
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(pem)) {
    ctx.addIssue({ code: 'custom', message: 'must be a file of PEM certificates' });
    return z.NEVER;
  }
  return pem;
});
export const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** Trust classes the site serves: JSON `{"<class>": {"ssid": "...", "vlan": "<network>", "range": "a.b.c.d-a.b.c.e"}}`. */
export const trustClasses = z
  .string()
  .transform((v, ctx) => {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(
      z.string().regex(/^[a-z][a-z0-9-]{0,31}$/),
      z.object({ ssid: z.string().min(1).optional(), vlan: z.string().min(1).optional(), range: z.string().optional() }).strict(),
    ),
  );
