import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { CertificateList } from '../../schemas/certificate.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { certificateAccess } from './access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/certificates',
  tags: ['certificates'],
  summary: 'The tenant\'s certificates: one per name, the current one',
  security: [{ bearer: [] }],
  request: { params: TenantParam },
  responses: {
    200: { description: 'certificates', content: { 'application/json': { schema: CertificateList } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t } = c.req.valid('param');
    const ops = await certificateAccess(c, deps, t);
    return c.json({ certificates: await ops.list(t) }, 200);
  });
}
