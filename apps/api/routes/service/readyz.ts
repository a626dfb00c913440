import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { Readiness } from '../../schemas/service.js';

export const route = createRoute({
  method: 'get',
  path: '/readyz',
  tags: ['service'],
  summary: 'Readiness: the database answers and the schema is in place',
  responses: {
    200: { description: 'ready', content: { 'application/json': { schema: Readiness } } },
    503: { description: 'not ready; the reason is logged', content: { 'application/json': { schema: Readiness } } },
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { state, reason } = await deps.registry.state();
    if (state === 'ok') return c.json({ status: 'ok' as const, database: 'ok' as const }, 200);
    c.var.log.warn({ database: state, err: reason }, 'not ready');
    return c.json({ status: 'unavailable' as const, database: state }, 503);
  });
}
