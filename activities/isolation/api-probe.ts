import { CANARY_OBJECT } from '../../core/canaries.js';
import type { ProbeAnswer, ProbeInput } from '../../contracts/isolation-check.js';
import { BackendHttp } from '../../backends/http/client.js';
import type { ActivityDeps } from '../deps.js';
import { canaryWifiClassesAt } from './canaries.js';
import { canaryCredentials } from './credentials.js';
import { verdict } from './verdict.js';

/**
 * `api.isolation-probe`: the credential's API token on the object's routes, at the address tenants
 * reach the service by (`SITE_API_URL`, through whatever proxy the site puts in front): a read of
 * the tenant, of its records, and of its Wi-Fi key and certificate where it holds them. Reached on
 * a 2xx; the service answers another tenant's token 403 or 404. Read only: nothing to clean.
 */
export async function apiProbe(deps: ActivityDeps, input: ProbeInput): Promise<ProbeAnswer> {
  const from = await canaryCredentials(deps, input.credentialOf);
  const http = new BackendHttp('api', deps.site.apiUrl!, {}, deps.site.backendTimeoutMs, { ca: deps.site.backendCa, calls: deps.calls });
  const read = async (path: string) =>
    (await http.call({ path, headers: { authorization: `Bearer ${from.secrets.apiToken}` }, accept: [401, 403, 404] })).status;
  const tenant = `/v1/tenants/${input.objectOf}`;
  const paths = [
    tenant,
    `${tenant}/records`,
    ...(canaryWifiClassesAt(deps) ? [`${tenant}/wifi-keys/${CANARY_OBJECT}`] : []),
    ...(deps.ports.ca ? [`${tenant}/certificates/${CANARY_OBJECT}`] : []),
  ];
  const attempts = [];
  for (const path of paths) {
    const status = await read(path);
    attempts.push({ what: `GET ${path} (${status})`, reached: status < 300 });
  }
  return verdict('api', 'API token', input, attempts);
}
