import { RUN_ID_HEADER, RUN_STEPS_HEADER, runHeaders } from './middleware/run-headers.js';
import { OpenAPIHono } from '@hono/zod-openapi';
import { cors } from 'hono/cors';
import { findTenantToken, isTenantTokenRevoked } from '../../db/queries/tenants.js';
import { liveAdmission, spentOnUnfinishedTenant } from '../../db/queries/admissions.js';
import { authenticate, type AuthOptions } from './auth/authenticate.js';
import type { AppDeps, AppEnv } from './context.js';
import { badRequest, respondError, toResponse, validationReason } from './errors.js';
import { limitBody } from './middleware/body-limit.js';
import { requireJsonBody } from './middleware/json-body.js';
import { refuseUndeclaredBody } from './middleware/no-body.js';
import { refuseUnknownQuery } from './middleware/unknown-query.js';
import { noStore } from './middleware/no-store.js';
import { operatorOnlyRoutes } from './middleware/operator-only.js';
import { requireMigrated } from './middleware/migrated-gate.js';
import { requestContext } from './middleware/request-context.js';
import { isIdempotent } from './idempotency/contract.js';
import { idempotency } from './idempotency/middleware.js';
import { deriveKey } from '../config/env.js';
import { sealKeys } from '../config/keys.js';
import { requireSite } from './middleware/site-gate.js';
import { siteLostAnswers } from './lost-answers.js';
import * as admissionCreate from './routes/admissions/create.js';
import * as admissionDelete from './routes/admissions/delete.js';
import * as fabricEgress from './routes/fabric/egress.js';
import * as deviceCreate from './routes/devices/create.js';
import * as deviceDelete from './routes/devices/delete.js';
import * as deviceGet from './routes/devices/get.js';
import * as deviceList from './routes/devices/list.js';
import * as deviceAddressCreate from './routes/device-addresses/create.js';
import * as deviceAddressDelete from './routes/device-addresses/delete.js';
import * as deviceAddressGet from './routes/device-addresses/get.js';
import * as wifiKeyCreate from './routes/wifi-keys/create.js';
import * as wifiKeyDelete from './routes/wifi-keys/delete.js';
import * as wifiKeyGet from './routes/wifi-keys/get.js';
import * as wifiKeyList from './routes/wifi-keys/list.js';
import * as brokerAccountCreate from './routes/broker-accounts/create.js';
import * as brokerAccountDelete from './routes/broker-accounts/delete.js';
import * as brokerAccountGet from './routes/broker-accounts/get.js';
import * as brokerAccountList from './routes/broker-accounts/list.js';
import * as certificateDelete from './routes/certificates/delete.js';
import * as certificateGet from './routes/certificates/get.js';
import * as certificateList from './routes/certificates/list.js';
import * as certificatePut from './routes/certificates/put.js';
import * as docs from './routes/docs/reference.js';
import * as healthz from './routes/service/healthz.js';
import * as recordDelete from './routes/records/delete.js';
import * as recordList from './routes/records/list.js';
import * as recordPut from './routes/records/put.js';
import * as workloadCreate from './routes/workloads/create.js';
import * as workloadDelete from './routes/workloads/delete.js';
import * as workloadGet from './routes/workloads/get.js';
import * as workloadList from './routes/workloads/list.js';
import * as readyz from './routes/service/readyz.js';
import * as version from './routes/service/version.js';
import * as codec from './routes/temporal/codec.js';
import * as tenantCreate from './routes/tenants/create.js';
import * as tenantDelete from './routes/tenants/delete.js';
import * as tenantGet from './routes/tenants/get.js';
import * as tenantList from './routes/tenants/list.js';
import * as tenantRuns from './routes/runs/tenant.js';
import * as allRuns from './routes/runs/all.js';
import * as eventList from './routes/events/list.js';
import * as sweepList from './routes/events/sweeps.js';
import * as tenantReconcile from './routes/tenants/reconcile.js';
import * as isolationCheckCreate from './routes/isolation-checks/create.js';
import * as isolationCheckLatest from './routes/isolation-checks/latest.js';

export const OPENAPI_INFO = {
  openapi: '3.1.0',
  info: {
    title: 'Tenant provisioning service',
    version: '1',
    description: 'The provisioning API of one site (spec: tenant-provisioning-spec.md).',
  },
};

/** The routes only the operator may call (spec: Endpoints), authorized before any validation. */
const OPERATOR_ONLY = [
  admissionCreate.route,
  admissionDelete.route,
  tenantList.route,
  tenantReconcile.route,
  allRuns.route,
  eventList.route,
  sweepList.route,
  isolationCheckCreate.route,
  isolationCheckLatest.route,
];

/** Builds the Hono app: one middleware chain for /v1, every route registered explicitly. */
export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      // @hono/zod-validator passes the validated input as `data` on failure too; the type omits it.
      const input = (result as { data?: unknown }).data;
      if (!result.success) return respondError(c, badRequest(validationReason(result.error, input)));
    },
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });

  // The span first, so every log line of the request joins it; the request context times and counts.
  if (deps.telemetry?.tracing) app.use('*', deps.telemetry.tracing);
  app.use('*', requestContext(deps.log, deps.telemetry?.metrics));
  app.onError((err, c) => toResponse(c, err));
  app.notFound((c) => c.json({ error: 'not found' }, 404));

  mountGuards(app, deps);
  mountRoutes(app, deps);

  // The document as the contract file has it (openapi.yaml): with the run headers the route
  // contracts leave out. Built on first ask, once every route is registered.
  let served: ReturnType<typeof openApiDocument> | undefined;
  app.get('/openapi.json', (c) => c.json((served ??= openApiDocument(app))));
  docs.register(app);
  return app;
}

/** How callers are authenticated: the operator's and the egress agent's tokens, tenant tokens and admissions. */
function authOptionsOf(deps: AppDeps): AuthOptions {
  return {
    operatorToken: deps.config.env.OPERATOR_TOKEN,
    egressAgentToken: deps.config.env.EGRESS_AGENT_TOKEN,
    tokenKey: deps.config.site?.tokenKey,
    lookups: {
      tenantToken: (name) => findTenantToken(deps.registry.db, name),
      tokenRevoked: (hash) => isTenantTokenRevoked(deps.registry.db, hash),
      liveAdmission: (hash) => liveAdmission(deps.registry.db, hash),
      spentOnUnfinishedTenant: (hash) => spentOnUnfinishedTenant(deps.registry.db, hash),
    },
  };
}

/** The middlewares of /v1 and /codec, in the order they run, and the site gates. */
function mountGuards(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const site = deps.config.site;
  const authOptions = authOptionsOf(deps);
  const auth = authenticate(authOptions);
  // Only the codec routes know the decode-only token: on /v1 it is an unknown token (401).
  const codecAuth = authenticate({ ...authOptions, codecToken: deps.config.env.CODEC_TOKEN });
  const uiOrigin = deps.config.env.TEMPORAL_UI_ORIGIN;
  if (uiOrigin) {
    // The Temporal UI calls the codec from the browser: its preflight is answered before auth.
    app.use(
      '/codec/*',
      cors({ origin: uiOrigin, allowMethods: ['POST', 'OPTIONS'], allowHeaders: ['Content-Type', 'X-Namespace', 'Authorization'], credentials: true }),
    );
  }
  // Every registered route's contract, read at the first request: the middlewares' one list of routes.
  const routes = () => app.openAPIRegistry.definitions.flatMap((d) => (d.type === 'route' ? [d.route] : []));
  // Every route that creates or issues something honours Idempotency-Key (its contract says so).
  const idem = site
    ? idempotency({
        routes: () => routes().filter(isIdempotent),
        db: deps.registry.db,
        keys: sealKeys(site),
        callerKey: deriveKey(site.secretsKey, 'idempotency-caller'),
        windowMs: site.idempotencyWindowMs,
      })
    : undefined;
  app.use(
    '/v1/*',
    noStore(),
    runHeaders(site ? siteLostAnswers(site, deps.registry.db) : undefined),
    limitBody(),
    requireMigrated(deps.registry),
    ...(idem ? [idem.replay] : []),
    auth,
    operatorOnlyRoutes(OPERATOR_ONLY),
    refuseUndeclaredBody(routes),
    refuseUnknownQuery(routes),
    requireJsonBody(),
    ...(idem ? [idem.claim, idem.forget] : []),
  );
  app.use('/codec/*', noStore(), limitBody(), requireMigrated(deps.registry), codecAuth, requireJsonBody());
  const siteGate = requireSite(site !== undefined);
  app.use('/v1/tenants', siteGate);
  app.use('/v1/tenants/*', siteGate);
  app.use('/v1/runs', siteGate);
  app.use('/v1/isolation-checks', siteGate);
  app.use('/v1/isolation-checks/*', siteGate);
  app.use('/v1/admissions', requireSite(site !== undefined, 'enrollment not configured'));
  app.use('/v1/admissions/*', requireSite(site !== undefined, 'enrollment not configured'));
}

/** Every route, registered explicitly, after the middlewares. */
function mountRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  healthz.register(app);
  readyz.register(app, deps);
  version.register(app, deps);
  admissionCreate.register(app, deps);
  admissionDelete.register(app, deps);
  tenantCreate.register(app, deps);
  tenantList.register(app, deps);
  tenantRuns.register(app, deps);
  allRuns.register(app, deps);
  eventList.register(app, deps);
  sweepList.register(app, deps);
  tenantGet.register(app, deps);
  tenantDelete.register(app, deps);
  tenantReconcile.register(app, deps);
  isolationCheckCreate.register(app, deps);
  isolationCheckLatest.register(app, deps);
  workloadCreate.register(app, deps);
  workloadList.register(app, deps);
  workloadGet.register(app, deps);
  workloadDelete.register(app, deps);
  recordList.register(app, deps);
  recordPut.register(app, deps);
  recordDelete.register(app, deps);
  brokerAccountCreate.register(app, deps);
  brokerAccountList.register(app, deps);
  brokerAccountGet.register(app, deps);
  brokerAccountDelete.register(app, deps);
  certificatePut.register(app, deps);
  certificateList.register(app, deps);
  certificateGet.register(app, deps);
  certificateDelete.register(app, deps);
  deviceCreate.register(app, deps);
  deviceList.register(app, deps);
  deviceGet.register(app, deps);
  deviceDelete.register(app, deps);
  deviceAddressCreate.register(app, deps);
  deviceAddressGet.register(app, deps);
  deviceAddressDelete.register(app, deps);
  wifiKeyCreate.register(app, deps);
  wifiKeyList.register(app, deps);
  wifiKeyGet.register(app, deps);
  wifiKeyDelete.register(app, deps);
  fabricEgress.register(app, deps);
  codec.register(app, deps);
}

/** The OpenAPI 3.1 document the code generates (compared with openapi.yaml by the contract test). */
export function openApiDocument(app: OpenAPIHono<AppEnv>) {
  // `/`: the host that served the document, so /docs's examples run as pasted against it.
  return withRunHeaders(app.getOpenAPI31Document({ ...OPENAPI_INFO, servers: [{ url: '/', description: 'this API: the host that served this document' }] }));
}

const RUN_HEADERS = {
  [RUN_ID_HEADER]: {
    description:
      'the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w`',
    schema: { type: 'string' },
  },
  [RUN_STEPS_HEADER]: {
    description: "the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed`",
    schema: { type: 'string' },
  },
} as const;

/**
 * The calls that change something without a run: a certificate is signed in the API and a device
 * entry writes to no backend (spec: Device registry), so their answers name no run.
 */
export const CHANGES_WITHOUT_RUN = new Set([
  'put /v1/tenants/{t}/certificates/{certificate}',
  'delete /v1/tenants/{t}/certificates/{certificate}',
  'delete /v1/tenants/{t}/devices/{device}',
]);

/**
 * Every answer a run gave names it (middleware/run-headers.ts): the calls that change something
 * (POST, PUT, DELETE under /v1, but CHANGES_WITHOUT_RUN), on success, refusal by the run (409) and
 * a failed step (502).
 */
function withRunHeaders<D extends { paths?: object }>(doc: D): D {
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    if (!path.startsWith('/v1/')) continue;
    for (const method of ['post', 'put', 'delete']) {
      if (CHANGES_WITHOUT_RUN.has(`${method} ${path}`)) continue;
      const op = item[method] as { responses?: Record<string, { headers?: Record<string, unknown> }> } | undefined;
      for (const [status, response] of Object.entries(op?.responses ?? {})) {
        if (/^2|^409$|^502$/.test(status)) response.headers = { ...response.headers, ...RUN_HEADERS };
      }
    }
  }
  return doc;
}
