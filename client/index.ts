import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.js';

/**
 * The typed client of the tenant provisioning API: openapi-fetch over the types openapi-typescript
 * generates from `openapi.yaml` (`client/schema.ts`, `npm run client:write`). Every path, parameter,
 * body and answer is typed from the document; the contract test keeps the types equal to it.
 *
 *   const api = createTenantClient({ baseUrl: 'https://api.site.example', token });
 *   const { data, error, response } = await api.POST('/v1/tenants', {
 *     body: { name: 'acme' },
 *     params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
 *   });
 */
export type { components, paths };
export type Schemas = components['schemas'];
export type Tenant = Schemas['Tenant'];
export type Step = Schemas['Step'];
export type ApiClient = Client<paths>;

export interface TenantClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The API's address, e.g. `http://127.0.0.1:8080` (a trailing slash is dropped). */
  baseUrl: string;
  /** Bearer token: the operator's, a tenant's own, an enrollment or the egress agent's. */
  token?: string;
}

export function createTenantClient(opts: TenantClientOptions): ApiClient {
  const { baseUrl, token, headers, ...rest } = opts;
  return createClient<paths>({
    ...rest,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(headers as Record<string, string> | undefined) },
  });
}
