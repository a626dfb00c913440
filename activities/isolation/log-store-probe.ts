import { randomUUID } from 'node:crypto';
import type { ProbeAnswer, ProbeInput } from '../../contracts/isolation-check.js';
import { LOG_SELECT_HEADER } from '../../core/tenant-view.js';
import { BackendHttp } from '../../backends/http/client.js';
import type { ActivityDeps } from '../deps.js';
import { canaryCredentials, type CanaryCredentials } from './credentials.js';
import { verdict } from './verdict.js';

/** How long a line shipped may take to show in a read (VictoriaLogs makes new rows searchable within a second). */
const LANDING_MS = 5_000;

/**
 * `log-store.isolation-probe`, through the gateway where tenants ship and read:
 *   - read: the credential's read token asks for the object's stream (the select header naming
 *     the object's account, and VictoriaLogs' own `AccountID` header too, as a tenant trying it
 *     would); reached on a 2xx;
 *   - ingest: the credential's ingest token ships a line naming the object's account; reached when
 *     the line shows in the object's own stream, read with the object's own read token. A control
 *     line the object ships itself afterwards fences the wait: once it shows, the probe's would have.
 * Log lines cannot be deleted: they go only to the canaries' own streams, each line a probe marker.
 */
export async function logStoreProbe(deps: ActivityDeps, input: ProbeInput): Promise<ProbeAnswer> {
  const store = deps.site.logStore!;
  const [from, to] = await Promise.all([canaryCredentials(deps, input.credentialOf), canaryCredentials(deps, input.objectOf)]);
  const http = new BackendHttp('log-store', store.endpoint, {}, deps.site.backendTimeoutMs, { ca: store.ca, calls: deps.calls });
  const account = String(to.identity.logAccountId);
  const read = await http.call({
    path: '/select/logsql/query',
    query: { query: '*', limit: 1 },
    headers: { authorization: `Bearer ${from.secrets.logReadToken}`, [LOG_SELECT_HEADER]: `${account}-0`, AccountID: account, ProjectID: '0' },
    accept: [401, 403],
  });
  const marker = `isolation-probe ${randomUUID()}`;
  await ship(http, from, marker, account);
  const control = input.credentialOf === input.objectOf ? marker : `isolation-probe control ${randomUUID()}`;
  if (control !== marker) await ship(http, to, control, account);
  const seen = await landed(http, to, account, control, marker);
  return verdict('log-store', 'log tokens', input, [
    { what: `read of account ${account}'s stream (${read.status})`, reached: read.status < 300 },
    { what: `ingest into account ${account}'s stream`, reached: seen },
  ]);
}

async function ship(http: BackendHttp, who: CanaryCredentials, line: string, account: string): Promise<void> {
  await http.call({
    method: 'POST',
    path: '/insert/jsonline',
    headers: { authorization: `Bearer ${who.secrets.logIngestToken}`, AccountID: account, ProjectID: '0' },
    body: JSON.stringify({ _msg: line }),
    accept: [401, 403],
  });
}

/**
 * Whether `marker` is in the object's project 0, once `control` shows there: read with the object's
 * own read token, naming its own account in every header a gateway or the store may go by, so a
 * route that passes the client's headers through still reads the right stream.
 */
async function landed(http: BackendHttp, to: CanaryCredentials, account: string, control: string, marker: string): Promise<boolean> {
  const deadline = Date.now() + LANDING_MS;
  const headers = { authorization: `Bearer ${to.secrets.logReadToken}`, [LOG_SELECT_HEADER]: `${account}-0`, AccountID: account, ProjectID: '0' };
  for (;;) {
    const answer = await http.call({ path: '/select/logsql/query', query: { query: '*' }, headers });
    const lines = answer.text.split('\n').filter(Boolean);
    const has = (text: string) => lines.some((l) => l.includes(text));
    if (has(control)) return has(marker);
    if (Date.now() > deadline) throw new Error(`a line shipped to the log store did not show within ${LANDING_MS} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
