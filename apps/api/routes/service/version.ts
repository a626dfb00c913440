import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { Version } from '../../schemas/service.js';
import { serviceRoute } from './route.js';
import { responses } from '../kit.js';

export const route = serviceRoute('/version', 'The serving build', responses({ 200: ['version', Version] }, []));

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, (c) => c.json(deps.build, 200));
}
