import { createRoute, type z } from '@hono/zod-openapi';
import { latestSweeps } from '../../../../db/queries/events.js';
import type { SweepResult } from '../../../../contracts/tenant.js';
import { Sweep, SweepList, SweepQuery } from '../../schemas/events.js';
import { bearer, handle, responses } from '../kit.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/sweeps',
  tags: ['events'],
  ...bearer,
  summary: "The last sweeps' results, newest first: per tenant what was not in place, and the counts",
  request: { query: SweepQuery },
  responses: responses({ 200: ['sweeps', SweepList] }, [400, 401, 403, 503]),
});

// Operator only: app.ts authorizes it (OPERATOR_ONLY) before anything validates the request.
export const register = handle(route, async (c, deps) => {
  const rows = await latestSweeps(deps.registry.db, c.req.valid('query').limit ?? 10);
  const sweeps = rows.map((r): z.infer<typeof Sweep> => {
    const s = r.result as unknown as SweepResult;
    return {
      run: r.workflowId,
      run_id: r.runId,
      started_at: r.startedAt.toISOString(),
      closed_at: r.closedAt.toISOString(),
      mode: s.mode ?? 'correct',
      tenants: s.tenants,
      reconciled: s.reconciled,
      ...(s.planned ? { planned: s.planned } : {}),
      failed: s.failed,
      skipped: s.skipped,
      corrected: s.corrected,
      found: s.found,
    };
  });
  return c.json({ sweeps }, 200);
});
