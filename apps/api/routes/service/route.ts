import { createRoute, type RouteConfig } from '@hono/zod-openapi';

/** A route of the service itself: a GET outside /v1 that needs no token, and its answers (kit.ts `responses`). */
export function serviceRoute<R extends RouteConfig['responses']>(path: string, summary: string, answers: R) {
  return createRoute({ method: 'get', path, tags: ['service'], summary, responses: answers });
}
