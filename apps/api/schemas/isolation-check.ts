import { z } from '@hono/zod-openapi';
import { CANARY_NAMES } from '../../../core/canaries.js';
import { ISOLATION_BACKENDS, type IsolationCheckResult } from '../../../contracts/isolation-check.js';
import { DateTime } from './common.js';

export const IsolationProbe = z
  .object({
    backend: z.enum(ISOLATION_BACKENDS),
    credential: z.string().openapi({
      description: 'the kind of credential presented (`TSIG key`, `state-store key`, `broker account`, `Wi-Fi key`, `certificate`), never the credential',
    }),
    credential_of: z.enum(CANARY_NAMES),
    object_of: z.enum(CANARY_NAMES),
    result: z.enum(['isolated', 'works', 'crossed', 'broken']).openapi({
      description:
        "`isolated`: the other canary's objects refused the credential; `works`: the canary's own objects took it; `crossed`: the credential reached the other canary's objects (a tenant's credential reaches another tenant's); `broken`: its own objects refused it, or the backend did not answer, so this backend's isolation is unknown",
    }),
    detail: z.string().openapi({ description: 'what each attempt reached or was refused, or the failure (no host, no secret)' }),
  })
  .openapi('IsolationProbe');

export const IsolationCheck = z
  .object({
    passed: z.boolean().openapi({ description: 'every probe `isolated` or `works`' }),
    started_at: DateTime,
    finished_at: DateTime,
    run_id: z.string().openapi({ description: 'the Temporal run of the check (workflow id `isolation-check`)' }),
    crossings: z.array(z.string()).openapi({ description: 'each crossing in words: backend, credential kind and what it reached' }),
    probes: z.array(IsolationProbe),
    skipped: z.array(z.enum(ISOLATION_BACKENDS)).openapi({ description: 'backends this site does not run, or the check does not probe yet' }),
  })
  .openapi('IsolationCheck');

/** The schema and the workflow's result stay one shape: a field added to either fails the typecheck. */
export const isolationCheckShapeAgrees: z.infer<typeof IsolationCheck> extends IsolationCheckResult
  ? IsolationCheckResult extends z.infer<typeof IsolationCheck>
    ? true
    : never
  : never = true;
