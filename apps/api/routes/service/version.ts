import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { Version } from '../../schemas/service.js';
import { responses } from '../kit.js';

export const route = createRoute({
  method: 'get',
  path: '/version',
  tags: ['service'],
  summary: 'The serving build',
  responses: responses({ 200: ['version', Version] }, []),
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, (c) => c.json(deps.build, 200));
}
