import { z } from '@hono/zod-openapi';

import { aLabelReason } from '../../../core/names/a-label.js';

export const TENANT_NAME = /^[a-z][a-z0-9]{0,7}$/;

export const TenantName = z.string().regex(TENANT_NAME, 'must match ^[a-z][a-z0-9]{0,7}$').openapi({ example: 'acme' });

/**
 * A DNS label's schema: its pattern (published in openapi.yaml), then what no pattern can say:
 * `reason` (by default, that an `xn--` label must be an A-label) answers why a value is refused.
 */
export function dnsLabel(pattern: RegExp, message: string, reason: (label: string) => string | null = aLabelReason) {
  return z
    .string()
    .regex(pattern, message)
    .check((ctx) => {
      const why = reason(ctx.value);
      if (why) ctx.issues.push({ code: 'custom', message: why, input: ctx.value });
    });
}

export const ErrorBody = z.object({ error: z.string() }).openapi('Error');

export const DateTime = z.iso.datetime({ offset: true }).openapi({ format: 'date-time' });

export const TenantParam = z.object({
  t: TenantName.openapi({ param: { name: 't', in: 'path' } }),
});

/** The path of one object of a tenant: `{t}` and the object's name, both checked. */
export function objectParams<K extends string, S extends z.ZodString>(name: K, schema: S) {
  return TenantParam.extend({ [name]: schema.openapi({ param: { name, in: 'path' } }) } as { [P in K]: S });
}

/** When a row was written first and last, as every object's answer carries them. */
export const Stamps = { created_at: DateTime, updated_at: DateTime };

/** A tenant's objects, by their collection's name: `{ <key>: [...] }`. */
export function listOf<K extends string, S extends z.ZodType>(key: K, item: S, name: string) {
  return z.object({ [key]: z.array(item) } as { [P in K]: z.ZodArray<S> }).openapi(name);
}

const descriptions: Record<number, string> = {
  400: 'invalid request; the error text says why',
  401: 'no token or an unrecognised one',
  403: 'operator only',
  404: 'not found',
  409: 'conflict',
  413: 'request body larger than 64 KB',
  422: 'the Idempotency-Key was used with another request',
  501: 'not configured at this site',
  502: 'a backend step failed',
  503: 'database not migrated yet',
};

/** Spec: Authentication. Every 401 names the scheme and realm; documented so clients and contract checks see it. */
const unauthorizedHeaders = {
  'WWW-Authenticate': {
    description: 'the scheme and realm to present a token for',
    required: true,
    schema: { type: 'string' as const, enum: ['Bearer realm="svc-api"'] },
  },
};

/** The error responses of a route, in the common envelope. */
export function errorResponses(...codes: number[]) {
  return Object.fromEntries(
    codes.map((code) => [
      code,
      {
        description: descriptions[code] ?? 'error',
        ...(code === 401 ? { headers: unauthorizedHeaders } : {}),
        content: { 'application/json': { schema: ErrorBody } },
      },
    ]),
  );
}

/** Errors every /v1 route can answer (spec: Endpoints). */
export const V1_ERRORS = [401, 503] as const;
