import { createRoute } from '@hono/zod-openapi';
import { listEvents } from '../../../../db/queries/events.js';
import { EVENT_TYPES, EventList, EventQuery } from '../../schemas/events.js';
import { bearer, handle, responses } from '../kit.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/events',
  tags: ['events'],
  ...bearer,
  summary: 'The events feed: drift a sweep found, parked runs, runs given up, oldest first after `after`',
  description:
    "The same events the site's webhook receives (`SITE_EVENTS_WEBHOOK_URL`, signed as Standard Webhooks sign), for a reader that polls instead: keep the last `seq` and ask again with `after`.",
  request: { query: EventQuery },
  responses: responses({ 200: ['events', EventList] }, [400, 401, 403, 503]),
});

// Operator only: app.ts authorizes it (OPERATOR_ONLY) before anything validates the request.
export const register = handle(route, async (c, deps) => {
  const { after, limit } = c.req.valid('query');
  const rows = await listEvents(deps.registry.db, after ?? 0, limit ?? 100);
  const iso = (d: Date | null) => (d ? { at: d.toISOString() } : undefined);
  return c.json(
    {
      events: rows.map((e) => ({
        seq: e.seq,
        id: e.id,
        type: e.type as (typeof EVENT_TYPES)[number],
        created_at: e.createdAt.toISOString(),
        data: ((e.body as { data?: Record<string, unknown> }).data ?? {}) as Record<string, unknown>,
        delivery: {
          attempts: e.attempts,
          ...(iso(e.deliveredAt) ? { delivered_at: iso(e.deliveredAt)!.at } : {}),
          ...(iso(e.givenUpAt) ? { given_up_at: iso(e.givenUpAt)!.at } : {}),
          ...(e.lastError ? { last_error: e.lastError } : {}),
        },
      })),
    },
    200,
  );
});
