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

/**
 * A whole number in a query string, written as digits only. `z.coerce.number` took whatever
 * `Number()` reads (`1e2`, `0x10`, `+5`, ` 10`, and `` as 0), which the document's `integer` does not.
 */
export function queryWholeNumber(min: number, max?: number) {
  const reason = max === undefined ? `must be a whole number, ${min} or more` : `must be a whole number from ${min} to ${max}`;
  const atLeast = z.number({ error: reason }).int({ error: reason }).min(min, { error: reason });
  // 15 digits at most: always a safe integer.
  return z.preprocess(
    (v) => (typeof v === 'string' && /^[0-9]{1,15}$/.test(v) ? Number(v) : v),
    max === undefined ? atLeast : atLeast.max(max, { error: reason }),
  );
}

export const DateTime = z.iso.datetime({ offset: true }).openapi({ format: 'date-time' });

export const ErrorBody = z.object({ error: z.string() }).openapi('Error');

/** A failed step as its run recorded it (core/object-life.ts `RunFailure`): what to tell an operator or a tenant. */
export const RunFailure = z
  .object({
    step: z.string().openapi({ description: 'the step that failed, as the error text names it (`dns`, `hypervisor`, ...)' }),
    activity: z.string().optional().openapi({ description: "the step's activity in the run's history (`dns.publish-workload`)" }),
    reason: z.string().openapi({
      description:
        "`BackendFailed`: the backend failed after the step's retries (repeat the call); `BackendRefused`: it refused on purpose (the answer says what to change)",
    }),
    backend: z.string().optional().openapi({ description: 'the product that answered (`powerdns`, `proxmox`, `kea`, ...)' }),
    status: z.number().int().optional().openapi({ description: "the backend's HTTP status, when it gave one" }),
    answer: z.string().optional().openapi({ description: "the call and the backend's answer, as the run's history holds it: no host, no secret" }),
  })
  .openapi('RunFailure');

/** The condition of an object's newest run (core/object-life.ts `Condition`), as every read carries it. */
export const Condition = z
  .object({
    ready: z.boolean().openapi({ description: 'the object is as asked and no run of it is in flight, parked or failed' }),
    run: z
      .object({
        id: z.string().openapi({ description: 'the run (its Temporal workflow id, as the `Run-Id` header names it)' }),
        run_id: z.string().openapi({ description: "the Temporal run id of that workflow's execution" }),
        operation: z.string().openapi({ description: '`tenant-create`, `workload-delete`, ...' }),
        state: z.enum(['in-flight', 'parked', 'done', 'failed', 'given-up', 'superseded']).openapi({
          description:
            '`parked`: a step failed and the run waits for the call to be repeated, which resumes it; `given-up`: no repeat came within the parked timeout (repeat the call: a fresh run re-ensures every step); `failed`: the run ended at a failed step (a reconcile)',
        }),
      })
      .optional()
      .openapi({ description: 'absent for an object no recorded run speaks of' }),
    failure: RunFailure.optional().openapi({ description: 'when the run is parked, failed or gave up: the step that failed and what the backend answered' }),
    since: DateTime.optional(),
  })
  .openapi('Condition');

/** What a read adds beside `status`: the condition of the object's newest run. */
export const conditioned = { condition: Condition.optional().openapi({ description: "reads only: the condition of the object's newest run" }) };

/** A 502's body: the error, and the failed step with what the backend answered. */
export const StepFailedBody = ErrorBody.extend({ failure: RunFailure.optional() }).openapi('StepFailed');

/** The fields every 502 body adds to its partial object. */
export const failed = { failure: RunFailure.optional().openapi({ description: "the failed step and the backend's answer (no host, no secret)" }) };

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

/** A 502's body: the error, the object as far as its run got (`key`, described), and the failed step. */
export function failureOf<K extends string, S extends z.ZodType>(key: K, object: S, description: string, name: string) {
  const partial = { [key]: object.optional().openapi({ description }) } as { [P in K]: z.ZodOptional<S> };
  return z.object({ error: z.string(), ...partial, ...failed }).openapi(name);
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
        content: { 'application/json': { schema: code === 502 ? StepFailedBody : ErrorBody } },
      },
    ]),
  );
}
