import type { ObjectOutcome } from '../../../core/backend-outcome.js';
import { z } from '@hono/zod-openapi';
import { uncarriableReason } from '../../../core/names/carriable.js';
import { CREATE_STEPS } from '../../../core/step-table.js';
import { DateTime, listOf, Stamps, TenantName, conditioned, failureOf } from './common.js';

export const OUTCOMES = ['created', 'restored', 'reissued', 'resumed', 'reconciled'] as const;

export const Network = z
  .object({
    vrf_vni: z.number().int(),
    vnet_vni_base: z.number().int(),
    subnet: z.string(),
    gateway: z.string(),
  })
  .openapi('Network');

export const Fabric = z.object({ controller_id: z.string(), node: z.string() }).openapi('Fabric');

export const Dns = z
  .object({
    zone: z.string(),
    reverse_zone: z.string(),
    update_server: z.string(),
    tsig_key_name: z.string(),
    tsig_algorithm: z.string(),
    tsig_secret: z.string().optional().openapi({ description: 'create responses only' }),
  })
  .openapi('Dns');

export const State = z
  .object({
    endpoint: z.string(),
    bucket: z.string(),
    key_prefix: z.string(),
    access_key: z.string(),
    secret_key: z.string().optional().openapi({ description: 'create responses only' }),
  })
  .openapi('State');

export const Log = z
  .object({
    account_id: z.number().int(),
    endpoint: z.string().optional().openapi({ description: 'absent at a site with no log store' }),
    select_header: z.string().optional(),
    ingest_token: z.string().optional().openapi({ description: 'create and reconcile responses only' }),
    read_token: z.string().optional().openapi({ description: 'create and reconcile responses only' }),
  })
  .openapi('Log');

export const Dashboard = z
  .object({
    url: z.string().optional(),
    org_id: z.number().int().optional(),
    username: z.string().optional(),
    password: z.string().optional().openapi({ description: 'create and reconcile responses only' }),
  })
  .openapi('Dashboard', { description: 'empty at a site with no dashboard server' });

export const Step = z.object({ name: z.enum(CREATE_STEPS), ok: z.boolean(), updated_at: DateTime }).openapi('Step');

export const Tenant = z
  .object({
    name: TenantName,
    index: z.number().int(),
    status: z.enum(['provisioning', 'ready', 'deleting']),
    outcome: z.enum(OUTCOMES).optional().openapi({ description: 'only on create and reconcile answers' }),
    ...Stamps,
    network: Network,
    fabric: Fabric,
    dns: Dns,
    state: State,
    log: Log,
    dashboard: Dashboard,
    api_token: z.string().optional().openapi({ description: 'present when this call generated or received one' }),
    secrets_stored: z.boolean(),
    steps: z.array(Step),
    ...conditioned,
  })
  .openapi('Tenant');

export const TenantList = listOf('tenants', Tenant, 'TenantList');

export const TenantCreateRequest = z
  .strictObject({
    name: TenantName,
    index: z.number().int().min(1).max(62).optional().openapi({ description: 'restore only' }),
    tsig_secret: z
      .string()
      .refine((v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && v.length % 4 === 0 && Buffer.from(v, 'base64').length >= 16, {
        message: 'must be base64 of at least 16 bytes',
      })
      .optional()
      // Exactly the refine above: padded base64 whose 24+ characters decode to 16 bytes or more.
      .openapi({
        minLength: 24,
        pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$',
        description: 'restore only; base64 of at least 16 bytes',
      }),
    // The secret becomes the state store's: a value it cannot carry as sent (an unpaired surrogate
    // reached it as U+FFFD, a control character breaks the tenant's own client config) is refused.
    state_secret: z
      .string()
      .min(8)
      .max(40)
      .superRefine((v, ctx) => {
        const reason = uncarriableReason(v);
        if (reason) ctx.addIssue({ code: 'custom', message: reason });
      })
      .optional()
      .openapi({ description: 'restore only; 8 to 40 characters, no control characters' }),
    api_token: z.string().min(1).max(512).optional().openapi({ description: 'restore only' }),
  })
  .refine(
    (r) =>
      [r.tsig_secret, r.state_secret, r.api_token].every((v) => v === undefined) || [r.tsig_secret, r.state_secret, r.api_token].every((v) => v !== undefined),
    { message: 'tsig_secret, state_secret and api_token are sent all together or not at all' },
  )
  // An index alone would make a brand-new tenant that calls itself restored or reissued; it only
  // says where a tenant that already existed goes back to.
  .refine((r) => r.index === undefined || r.tsig_secret !== undefined, {
    path: ['index'],
    message: 'is for restore only: send it with tsig_secret, state_secret and api_token',
  })
  // The example a reader pastes into /docs: a create names the tenant and nothing else; the restore
  // fields shown empty would be refused (400), so they are left out of it.
  .openapi('TenantCreateRequest', { example: { name: 'acme' } });

/** What a reconcile found of one backend object. */
export const ReconciledObject = z
  .object({
    area: z
      .string()
      .openapi({ description: 'the tenant step (`dns`, `network`, ...) or the area of its objects (`hypervisor`, `wifi`, `broker`) that holds the object' }),
    object: z.string(),
    result: z.enum(['in-place', 'created', 'corrected', 'needs-restore', 'unknown', 'removed', 'in-flight', 'unfinished']).openapi({
      description:
        "`needs-restore`: only the tenant can restore it (a broker client's password, an unreadable Wi-Fi key); `unknown`: the backend holds it, and no registry row and no run claims it (removed with `prune=true`); `in-flight`: a run holds it (in flight, or parked after a failed step until its call is repeated): nothing was changed or removed of it, `run` names the run; `unfinished`: the registry holds it unfinished and no run does (its create gave up): nothing was changed of it, and repeating its create finishes it",
    }),
    fields: z.array(z.string()).optional().openapi({ description: 'for `corrected`: the fields that differed' }),
    warnings: z.array(z.string()).optional().openapi({
      description: "what the backend warned of without failing the step, e.g. an SDN apply that could not reload a node that runs none of the site's workloads",
    }),
    batch: z
      .union([
        z.object({ applied: z.literal('by this tenant'), tenants: z.number().int().min(1) }),
        z.object({ applied: z.literal('by another tenant') }),
        z.object({ objects: z.number().int().min(1) }),
      ])
      .optional()
      .openapi({
        description:
          "the write that made the object so, where one write carries several: the SDN apply that made the tenant's network run (`applied: by this tenant` with how many `tenants`' staged edits it carried, or `by another tenant` whose apply carried this one's); for a change of a whole-object write (a Kea reservation, a Wi-Fi key on its WLAN), how many changes the write carried (`objects`), this one included",
      }),
    run: z.string().optional().openapi({
      description:
        'for `in-flight`: the run that holds the object (its id, as the `Run-Id` header names it, e.g. `workload-create/acme/db`); for `unfinished`: its last run',
    }),
    note: z.string().optional().openapi({ description: 'for `in-flight` and `unfinished`: why the object was left alone, and which call finishes it' }),
  })
  .openapi('ReconciledObject');

// Every field an object's outcome carries on the wire is described: a new one fails the typecheck
// here until the schema names it (the reconcile answer once carried an undocumented `batch`).
export const everyOutcomeFieldDescribed: Exclude<keyof ObjectOutcome, keyof z.infer<typeof ReconciledObject>> extends never ? true : never = true;

/** A reconcile's answer: the tenant, and what it found of each backend object. */
export const ReconciledTenant = Tenant.extend({
  plan: z.boolean().optional().openapi({
    description:
      '`true` for `?plan=true`: nothing was changed on any backend or in the registry; each result says what a reconcile would do (`created`: would create, `corrected`: would correct these fields, `unknown`: would be removed only with `prune=true`, `in-flight` and `unfinished`: would leave alone), and the answer carries no secret. A tenant whose own create or delete is in flight or parked is planned too (a reconcile of it answers 409 naming the run): every object is then `in-flight` with that run',
  }),
  plan_id: z.string().optional().openapi({ description: 'for `plan=true`: the saved plan, to apply with `?apply=<plan_id>` until `plan_expires_at`' }),
  plan_expires_at: DateTime.optional(),
  prune: z.boolean().optional().openapi({ description: 'for `plan=true`: whether applying the plan removes the objects it lists `unknown`' }),
  applied_plan: z.string().optional().openapi({ description: 'for `apply`: the plan carried out' }),
  objects: z.array(ReconciledObject),
}).openapi('ReconciledTenant');

/**
 * A create's answer; a restore's also lists what the backends still hold of the tenant that its
 * lost registry held, for the tenant to restore object by object.
 */
export const RestoredTenant = Tenant.extend({
  objects: z.array(ReconciledObject).optional().openapi({
    description:
      'on a restore only, when the backends hold any: objects of the tenant the registry lost (`unknown`), never adopted by guess. A broker client comes back into the registry when the tenant issues the account again with its `password`; a VM of a lost workload stays as it is until an operator removes it (`POST /v1/tenants/{t}/reconcile?prune=true`)',
  }),
}).openapi('RestoredTenant');

export const TenantCreateFailure = failureOf(
  'tenant',
  Tenant,
  'the partial tenant with the secrets issued so far, once it is registered',
  'TenantCreateFailure',
);
