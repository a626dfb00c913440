import { createRoute } from '@hono/zod-openapi';
import { afterRun } from '../../after-run.js';
import { REVOKED_TOKEN_REFUSAL } from '../../../../core/credentials/api-token.js';
import { actorOf } from '../../auth/caller.js';
import { badRequest, createdStatus, fromRefusal, stepFailed, tenantNotFound, unauthorized } from '../../errors.js';
import { refuseReservedName } from '../../reserved-names.js';
import { RestoredTenant, Tenant, TenantCreateFailure, TenantCreateRequest } from '../../schemas/tenant.js';
import { idempotent } from '../../idempotency/contract.js';
import { bearer, handle, jsonBody, responses } from '../kit.js';

export const route = createRoute(
  idempotent({
    method: 'post',
    path: '/v1/tenants',
    tags: ['tenants'],
    ...bearer,
    summary: 'Create, resume, restore or reconcile a tenant (an ensure)',
    description:
      'An enrollment token is spent by the create that registers its tenant, also when a later step fails (502): ' +
      "that answer carries the tenant's own token (`tenant.api_token`), and the repeat that resumes the create presents it. " +
      'The spent enrollment token presented again while its tenant is not ready answers 401 ' +
      "`unauthorized: this enrollment token was spent; resume with the tenant's own token (api_token in the 502 answer)`.",
    request: { body: jsonBody(TenantCreateRequest) },
    responses: responses(
      {
        200: ['resumed or reconciled; carries the secrets', Tenant],
        201: ['created, restored or reissued; carries the secrets (a restore also what the backends still hold of it, `objects`)', RestoredTenant],
      },
      [400, 401, 404, 409, 413, 501, 503],
      ['a backend step failed; the partial tenant with its secrets', TenantCreateFailure],
    ),
  }),
);

export const register = handle(route, async (c, deps) => {
  const body = c.req.valid('json');
  // The spec's pattern admits one letter, but the fabric zone id is the name and Proxmox VE
  // needs at least two characters for one (docs/decisions.md): refuse before anything is built.
  if (body.name.length < 2) throw badRequest('name: a tenant name needs at least two characters at this site (it is the fabric zone id)');
  refuseReservedName(deps.config.site, body.name);
  const ops = deps.operations!;
  const caller = c.var.caller;
  if (caller.kind === 'egress-agent') throw unauthorized();
  if (caller.kind === 'enrollment' && caller.name !== body.name) {
    // Presented for another name, the token is spent all the same.
    await ops.spendEnrollment(caller.tokenHash);
    throw unauthorized();
  }
  if (caller.kind === 'tenant') {
    if (caller.tenant !== body.name) throw tenantNotFound();
    if (!caller.registered && body.api_token === undefined) {
      throw badRequest('restoring a tenant needs tsig_secret, state_secret and api_token');
    }
  }
  if (body.api_token !== undefined && ops.tokenTenant(body.api_token) !== body.name) {
    throw badRequest('api_token is not a token issued for this tenant');
  }
  if (body.api_token !== undefined && (await ops.tokenRevoked(body.api_token))) {
    throw badRequest(REVOKED_TOKEN_REFUSAL);
  }
  const result = await ops.create({
    name: body.name,
    // The worker writes the audit entry with the registry change (docs/decisions.md, "One audit place").
    actor: actorOf(caller),
    requestedIndex: body.index,
    restore:
      body.tsig_secret && body.state_secret && body.api_token
        ? { tsigSecret: body.tsig_secret, stateSecret: body.state_secret, apiToken: body.api_token }
        : undefined,
  });
  if (result.kind === 'refused') throw fromRefusal(result);
  // The enrollment token is spent once its tenant is registered (even when a later step failed:
  // the answer carries the tenant's own token, which resumes). A create that failed before
  // registering anything leaves it usable for the same name.
  if (caller.kind === 'enrollment' && (result.kind === 'ready' || result.tenant)) {
    await afterRun(c.var.log, { enrollment_spent: body.name }, () => ops.spendEnrollment(caller.tokenHash));
  }
  if (result.kind === 'failed') throw stepFailed(result.step, result.tenant ? { tenant: result.tenant } : {}, result.failure);
  const found = (result.found ?? []).flatMap((s) => s.objects.map((o) => ({ area: s.step, ...o })));
  return c.json({ ...result.tenant, ...(found.length ? { objects: found } : {}) }, createdStatus(result.outcome));
});
