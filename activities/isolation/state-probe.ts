import { CANARY_PROBE_LABEL } from '../../core/canaries.js';
import type { ProbeAnswer, ProbeInput } from '../../contracts/isolation-check.js';
import { BackendHttp } from '../../backends/http/client.js';
import { signRequest } from '../../backends/minio/sigv4.js';
import type { ActivityDeps } from '../deps.js';
import { canaryCredentials } from './credentials.js';
import { verdict, type Attempt } from './verdict.js';

/**
 * `state.isolation-probe`: the credential's state key, signed as any S3 client signs (SigV4),
 * writes, reads and lists below the object's key prefix in the site's state bucket, then deletes
 * what it wrote. A 403 is a refusal; a success, or a 404 (the policy let the read through to a
 * key that is not there), reached; anything else fails the probe (BackendHttp: paced by the site's
 * bound on calls to MinIO, its CA checked, each call bounded).
 */
export async function stateProbe(deps: ActivityDeps, input: ProbeInput): Promise<ProbeAnswer> {
  const [from, to] = await Promise.all([canaryCredentials(deps, input.credentialOf), canaryCredentials(deps, input.objectOf)]);
  const { endpoint, bucket, region, ca } = deps.site.state;
  const http = new BackendHttp('minio', endpoint, {}, deps.site.backendTimeoutMs, { ca, calls: deps.calls });
  const creds = { accessKey: from.identity.stateAccessKey, secretKey: from.secrets.stateSecret! };
  const key = `${to.identity.stateKeyPrefix}${CANARY_PROBE_LABEL}`;
  const call = async (method: string, path: string, query: Record<string, string> = {}, body?: string): Promise<number> => {
    const url = new URL(`${endpoint.replace(/\/$/, '')}/${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const headers = signRequest({ method, url, ...(body !== undefined ? { body } : {}) }, creds, { region });
    return (await http.call({ method, path, query, headers, ...(body !== undefined ? { body } : {}), accept: [403, 404] })).status;
  };
  const attempts: Attempt[] = [];
  const write = await call('PUT', `${bucket}/${key}`, {}, `probe by ${input.credentialOf}`);
  attempts.push({ what: `write of ${key}`, reached: write < 300 });
  const read = await call('GET', `${bucket}/${key}`);
  attempts.push({ what: `read of ${key}`, reached: read !== 403 });
  const list = await call('GET', bucket, { 'list-type': '2', prefix: to.identity.stateKeyPrefix });
  attempts.push({ what: `list of ${to.identity.stateKeyPrefix}`, reached: list < 300 });
  // What the write left is removed with the key that wrote it.
  if (write < 300) await call('DELETE', `${bucket}/${key}`);
  return verdict('state', 'state-store key', input, attempts);
}
