import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { Liveness } from '../../schemas/service.js';
import { answer } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/healthz', tags: ['service'],
  summary: 'Liveness; never touches the database',
  responses: { 200: answer('alive', Liveness) },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, (c) => c.json({ status: 'ok' as const }, 200));
}
