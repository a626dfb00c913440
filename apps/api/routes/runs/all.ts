import { createRoute } from '@hono/zod-openapi';
import { notConfigured } from '../../errors.js';
import { AllRunsQuery, RunList } from '../../schemas/run.js';
import { bearer, handle, responses } from '../kit.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/runs',
  tags: ['runs'],
  ...bearer,
  summary: "Every run of the site (the sweep's included), newest first; `tenant` for one tenant's, deleted or not",
  request: { query: AllRunsQuery },
  responses: responses({ 200: ['runs', RunList] }, [400, 401, 403, 501, 503]),
});

// Operator only: app.ts authorizes it (OPERATOR_ONLY) before anything validates the request.
export const register = handle(route, async (c, deps) => {
  if (!deps.runList) throw notConfigured('no site is configured');
  return c.json(await deps.runList.list(c.req.valid('query')), 200);
});
