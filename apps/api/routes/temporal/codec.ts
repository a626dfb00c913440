import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Payload } from '@temporalio/common';
import { AesGcmCodec } from '../../../../temporal/codec.js';
import { requireCodecReader } from '../../auth/authorize.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { badRequest, notConfigured } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { bearer, jsonBody } from '../kit.js';

/**
 * Temporal's remote codec protocol, so engineers see decoded payloads in the Temporal UI. The
 * operator token, or the decode-only CODEC_TOKEN for decode only: reading runs must not need the
 * credential that may change the site, and a reader's token must not make payloads a worker would
 * take for the service's own (encode answers it 403). Secrets never reach history openable by this codec (design §4), so what it
 * decodes is what an engineer reading runs may see.
 */
const Base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);
// The Go CLI sends `{}` for an empty list (proto3 JSON leaves empty repeated fields out): no payloads.
const WirePayloads = z
  .object({
    payloads: z
      .array(z.object({ metadata: z.record(z.string(), Base64).optional(), data: Base64.optional() }))
      .max(1000)
      .default([]),
  })
  .openapi('CodecPayloads');

const codecRoute = (action: 'encode' | 'decode') =>
  createRoute({
    method: 'post',
    path: `/codec/${action}`,
    tags: ['temporal'],
    summary: `Temporal remote codec: ${action} payloads`,
    ...bearer,
    request: { body: jsonBody(WirePayloads) },
    responses: {
      200: { description: `${action}d payloads`, content: { 'application/json': { schema: WirePayloads } } },
      ...errorResponses(400, 401, 403, 413, 501),
    },
  });

export const routes = [codecRoute('encode'), codecRoute('decode')];

type Wire = z.infer<typeof WirePayloads>['payloads'][number];

const fromWire = (p: Wire): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: p.data === undefined ? undefined : Buffer.from(p.data, 'base64'),
});
const toWire = (p: Payload): Wire => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')])),
  data: p.data ? Buffer.from(p.data).toString('base64') : undefined,
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const key = deps.config.codecKey;
  const codec = key ? new AesGcmCodec(key) : undefined;
  for (const route of routes) {
    const action = route.path.endsWith('encode') ? 'encode' : 'decode';
    app.openapi(route, async (c) => {
      // `{}` is an empty list (the Go CLI's form); no body at all is not a codec request.
      if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) throw badRequest('a JSON body {"payloads": [...]} is required');
      const { payloads } = c.req.valid('json');
      requireCodecReader(c, action, payloads.length);
      if (!codec) throw notConfigured('no payload codec key configured');
      try {
        const out = await codec[action](payloads.map(fromWire));
        return c.json({ payloads: out.map(toWire) }, 200);
      } catch {
        throw badRequest('payloads could not be decoded with this service key');
      }
    });
  }
}
