import { createRoute } from '@hono/zod-openapi';
import { IsolationCheck } from '../../schemas/isolation-check.js';
import { bearer, handle, responses } from '../kit.js';

export const route = createRoute({
  method: 'post',
  path: '/v1/isolation-checks',
  tags: ['isolation'],
  ...bearer,
  summary: "Run the isolation check now: each canary's credentials against the other canary's objects, on every backend",
  description:
    'Answers when the check has run (the canary pair is created on first use, through the normal create run). ' +
    'A check already running (the scheduled one) is joined, not doubled. `passed: false` is still a 200: the crossings are the answer.',
  responses: responses({ 200: ['the check ran; its result', IsolationCheck] }, [400, 401, 403, 501, 503]),
});

// Operator only: app.ts authorizes it (OPERATOR_ONLY) before anything validates the request.
export const register = handle(route, async (c, deps) => {
  return c.json(await deps.operations!.isolation.run(), 200);
});
