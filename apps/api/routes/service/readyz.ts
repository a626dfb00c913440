import { Readiness } from '../../schemas/service.js';
import { handle, responses } from '../kit.js';
import { serviceRoute } from './route.js';

export const route = serviceRoute(
  '/readyz',
  'Readiness: the database answers and the schema is in place',
  responses({ 200: ['ready', Readiness], 503: ['not ready; the reason is logged', Readiness] }, []),
);

export const register = handle(route, async (c, deps) => {
  const { state, reason } = await deps.registry.state();
  if (state === 'ok') return c.json({ status: 'ok' as const, database: 'ok' as const }, 200);
  c.var.log.warn({ database: state, err: reason }, 'not ready');
  return c.json({ status: 'unavailable' as const, database: state }, 503);
});
