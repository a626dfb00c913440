import { z } from '@hono/zod-openapi';
import { DateTime, queryWholeNumber } from './common.js';

export const EVENT_TYPES = ['drift.found', 'run.parked', 'run.given-up'] as const;

export const Event = z
  .object({
    seq: z.number().int().openapi({ description: 'its place in the feed: pass the last one seen as `after`' }),
    id: z.string().openapi({ description: 'the `webhook-id` it is delivered under, the same on every attempt' }),
    type: z.enum(EVENT_TYPES).openapi({
      description:
        '`drift.found`: a sweep found objects of a tenant not in place (corrected, needs-restore, unknown); `run.parked`: a run failed a step and waits for its call to be repeated; `run.given-up`: a parked run ended unrepeated past its bound',
    }),
    created_at: DateTime,
    data: z.record(z.string(), z.unknown()).openapi({ description: 'what the webhook body carries as `data` (the tenant, the run, the objects, the failure)' }),
    delivery: z
      .object({
        attempts: z.number().int(),
        delivered_at: DateTime.optional(),
        given_up_at: DateTime.optional().openapi({ description: 'the webhook never answered 2xx within the retries' }),
        last_error: z.string().optional(),
      })
      .openapi({ description: "the webhook's deliveries (none at a site without one)" }),
  })
  .openapi('Event');

export const EventList = z.object({ events: z.array(Event).openapi({ description: 'oldest first' }) }).openapi('EventList');

export const EventQuery = z.object({
  after: queryWholeNumber(0).optional().openapi({ description: 'only events after this `seq` (default 0: from the start)' }),
  limit: queryWholeNumber(1, 500).optional().openapi({ description: 'events per answer, 1 to 500 (default 100)' }),
});

export const Sweep = z
  .object({
    run: z.string().openapi({ description: 'the sweep run (its workflow id)' }),
    run_id: z.string(),
    started_at: DateTime,
    closed_at: DateTime,
    mode: z.enum(['correct', 'plan']),
    tenants: z.number().int(),
    reconciled: z.array(z.string()),
    planned: z.array(z.string()).optional(),
    failed: z.array(z.string()),
    skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
    corrected: z.record(z.string(), z.array(z.string())).openapi({ description: 'per tenant, the objects not in place (`area: object result`)' }),
    found: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.number().int()))).openapi({
      description: 'per tenant, per step or area, how many objects came to each result',
    }),
  })
  .openapi('Sweep');

export const SweepList = z.object({ sweeps: z.array(Sweep).openapi({ description: 'newest first' }) }).openapi('SweepList');

export const SweepQuery = z.object({ limit: queryWholeNumber(1, 100).optional().openapi({ description: '1 to 100 (default 10)' }) });
