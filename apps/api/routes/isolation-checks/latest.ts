import { createRoute } from '@hono/zod-openapi';
import { found } from '../../errors.js';
import { IsolationCheck } from '../../schemas/isolation-check.js';
import { bearer, handle, responses } from '../kit.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/isolation-checks/latest',
  tags: ['isolation'],
  ...bearer,
  summary: 'The last isolation check that finished, scheduled or asked for',
  responses: responses({ 200: ['the latest check', IsolationCheck] }, [400, 401, 403, 404, 501, 503]),
});

// Operator only: app.ts authorizes it (OPERATOR_ONLY) before anything validates the request.
export const register = handle(route, async (c, deps) => {
  return c.json(found(await deps.operations!.isolation.latest(), 'isolation check'), 200);
});
