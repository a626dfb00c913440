import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { notFound } from '../../errors.js';
import { Certificate, CertificateParams } from '../../schemas/certificate.js';
import { errorResponses } from '../../schemas/common.js';
import { certificateAccess } from './access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/certificates/{certificate}',
  tags: ['certificates'],
  summary: 'The current certificate of a name',
  security: [{ bearer: [] }],
  request: { params: CertificateParams },
  responses: {
    200: { description: 'the current certificate', content: { 'application/json': { schema: Certificate } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, certificate } = c.req.valid('param');
    const ops = await certificateAccess(c, deps, t);
    const found = await ops.get(t, certificate);
    if (!found) throw notFound('certificate not found');
    return c.json(found, 200);
  });
}
