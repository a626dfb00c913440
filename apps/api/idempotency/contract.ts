import { z, type RouteConfig } from '@hono/zod-openapi';
import { errorResponses } from '../schemas/common.js';

/**
 * The contract of a route that creates or issues something and honours `Idempotency-Key`: the
 * request header, the `Idempotent-Replayed` header on a repeated answer, and the 422 of a key
 * reused with another request. The behaviour is the middleware's (`middleware.ts`).
 */
export const IDEMPOTENCY_DESCRIPTION =
  "Optional. The first answer to a key (status and body, secrets included) is kept for the site's window (24 hours by " +
  "default), bound to the caller's token and to this request. A repeat with the same key, token and body gets that " +
  'answer again with `Idempotent-Replayed: true`, also after the connection dropped before it arrived; a repeat while ' +
  'the first still runs waits for it; the same key with another body answers 422. 5xx and 401 answers are not kept: the repeat ' +
  'runs again (a 502 resumes). Once the object is deleted, or a later call hands out its secret anew, the kept answer is ' +
  'purged: a repeat then runs as a new request. Without the header the call behaves as without idempotency.';

// Documentation only: Hono hands the validator lower-cased header names, so this optional field is
// never filled there; the middleware reads and checks the header itself.
const IdempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional()
    .openapi({
      // No example: generated clients and fuzzers would send that one key with every body.
      param: { in: 'header', required: false, description: IDEMPOTENCY_DESCRIPTION },
    }),
});

const replayedHeader = {
  'Idempotent-Replayed': {
    description: 'present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key',
    required: false,
    schema: { type: 'string' as const, enum: ['true'] },
  },
};

type Responses = RouteConfig['responses'];

/** Whether a route's contract went through `idempotent()`: the one list of routes that honour the header. */
export function isIdempotent(route: RouteConfig): boolean {
  return route.request?.headers === IdempotencyHeaders;
}

/** Adds the Idempotency-Key contract to a route's config (the route still goes through createRoute). */
export function idempotent<R extends RouteConfig>(route: R): R {
  const responses: Responses = {};
  for (const [code, response] of Object.entries(route.responses)) {
    const status = Number(code);
    const kept = status >= 200 && status < 500 && status !== 401 && status !== 413;
    responses[code] = kept && !('$ref' in response) ? { ...response, headers: { ...replayedHeader, ...(response.headers as object | undefined) } } : response;
  }
  Object.assign(responses, errorResponses(422));
  return { ...route, request: { ...route.request, headers: IdempotencyHeaders }, responses };
}
