import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { Liveness } from '../../schemas/service.js';
import { serviceRoute } from './route.js';
import { responses } from '../kit.js';

export const route = serviceRoute('/healthz', 'Liveness; never touches the database', responses({ 200: ['alive', Liveness] }, []));

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, (c) => c.json({ status: 'ok' as const }, 200));
}
