import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildContractApp, generatedDocument } from '../../apps/api/openapi.js';
import { VIEWER_PATH } from '../../apps/api/routes/docs/reference.js';

const committed = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
const generated = JSON.parse(JSON.stringify(generatedDocument()));

type Doc = { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };

function operations(doc: Doc): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

describe('the OpenAPI contract', () => {
  it('openapi.yaml is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(committed);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(committed.openapi).toMatch(/^3\.1\./);
    expect(committed.info.version).toBe('1');
  });

  it('lists the same operations as the code generates', () => {
    expect(operations(committed)).toEqual(operations(generated));
  });

  it('agrees with the code on every wire field, status and schema', () => {
    for (const path of Object.keys(generated.paths)) {
      expect(committed.paths[path], `path ${path}`).toEqual(generated.paths[path]);
    }
    for (const name of Object.keys(generated.components.schemas)) {
      expect(committed.components.schemas[name], `schema ${name}`).toEqual(generated.components.schemas[name]);
    }
    expect(committed).toEqual(generated);
  });

  it('is what the API serves at /openapi.json, run headers and servers included (issue 47 item 6)', async () => {
    // The served document was once built without the Run-Id/Run-Steps headers the file documents.
    const { app } = buildContractApp();
    const r = await app.request('/openapi.json');
    expect(r.status).toBe(200);
    const served = (await r.json()) as Doc & { servers?: unknown };
    expect(served).toEqual(committed);
    expect(Object.keys(served.paths['/v1/tenants/{t}/workloads']!.post as object)).toContain('responses');
    expect(served.servers).toEqual([{ url: '/', description: expect.any(String) }]);
  });

  it('describes every field a reconcile answer carries for an object, batch included', () => {
    const props = Object.keys((committed.components.schemas.ReconciledObject as { properties: object }).properties);
    expect(props).toEqual(expect.arrayContaining(['area', 'object', 'result', 'fields', 'warnings', 'batch', 'run', 'note']));
  });

  it('describes every route the service serves, and nothing it does not serve', () => {
    const { app } = buildContractApp();
    const served = new Set(
      app.routes
        .filter((r) => r.method !== 'ALL' && !['/openapi.json', '/docs', VIEWER_PATH].includes(r.path))
        .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    expect([...served].sort()).toEqual(operations(committed));
  });

  it("shows a tenant create's example as a reader may paste it: the name alone (issue 27)", () => {
    // Empty restore fields in the example were refused (400) when pasted into /docs.
    expect(generated.components.schemas.TenantCreateRequest.example).toEqual({ name: 'acme' });
    expect(committed.components.schemas.TenantCreateRequest.example).toEqual({ name: 'acme' });
  });

  it('documents Run-Id and Run-Steps on the answers a run gives, and not on reads', () => {
    const create = generated.paths['/v1/tenants/{t}/workloads'].post.responses;
    for (const status of ['201', '409', '502']) expect(Object.keys(create[status].headers ?? {})).toEqual(expect.arrayContaining(['Run-Id', 'Run-Steps']));
    expect(generated.paths['/v1/tenants/{t}/workloads'].get.responses['200'].headers?.['Run-Id']).toBeUndefined();
    expect(create['400'].headers?.['Run-Id']).toBeUndefined();
    // A certificate is signed in the API and a device entry writes no backend: no run to name.
    const cert = generated.paths['/v1/tenants/{t}/certificates/{certificate}'];
    for (const op of [cert.put, cert.delete, generated.paths['/v1/tenants/{t}/devices/{device}'].delete]) {
      for (const [status, r] of Object.entries(op.responses as Record<string, { headers?: object }>))
        expect(r.headers?.['Run-Id' as keyof object], status).toBeUndefined();
    }
  });

  it('names the errors the spec gives each tenant route', () => {
    const statuses = (method: string, path: string) => Object.keys(committed.paths[path][method].responses).sort();
    expect(statuses('post', '/v1/tenants')).toEqual(expect.arrayContaining(['200', '201', '400', '401', '409', '502', '503']));
    expect(statuses('get', '/v1/tenants')).toEqual(expect.arrayContaining(['200', '401', '403']));
    expect(statuses('get', '/v1/tenants/{t}')).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(statuses('delete', '/v1/tenants/{t}')).toEqual(expect.arrayContaining(['204', '401', '404', '409', '502']));
    expect(statuses('post', '/v1/tenants/{t}/reconcile')).toEqual(expect.arrayContaining(['200', '401', '403', '404', '502']));
    expect(statuses('post', '/v1/admissions')).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409', '501']));
    expect(statuses('delete', '/v1/admissions/{t}')).toEqual(expect.arrayContaining(['204', '401', '403', '404']));
    expect(statuses('get', '/v1/fabric/egress')).toEqual(expect.arrayContaining(['200', '401', '503']));
    expect(statuses('post', '/v1/tenants/{t}/workloads')).toEqual(expect.arrayContaining(['201', '400', '401', '404', '409', '502']));
    expect(statuses('get', '/v1/tenants/{t}/workloads')).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(statuses('get', '/v1/tenants/{t}/workloads/{workload}')).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(statuses('delete', '/v1/tenants/{t}/workloads/{workload}')).toEqual(expect.arrayContaining(['204', '401', '404', '502']));
    expect(statuses('get', '/v1/tenants/{t}/records')).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(statuses('put', '/v1/tenants/{t}/records/{record}')).toEqual(expect.arrayContaining(['200', '400', '401', '404', '502']));
    expect(statuses('delete', '/v1/tenants/{t}/records/{record}')).toEqual(expect.arrayContaining(['204', '401', '404', '502']));
    expect(statuses('post', '/v1/tenants/{t}/broker-accounts')).toEqual(expect.arrayContaining(['201', '400', '401', '404', '501', '502']));
    expect(statuses('get', '/v1/tenants/{t}/broker-accounts')).toEqual(expect.arrayContaining(['200', '401', '404', '501']));
    expect(statuses('get', '/v1/tenants/{t}/broker-accounts/{account}')).toEqual(expect.arrayContaining(['200', '401', '404', '501']));
    expect(statuses('delete', '/v1/tenants/{t}/broker-accounts/{account}')).toEqual(expect.arrayContaining(['204', '401', '404', '501', '502']));
    expect(statuses('put', '/v1/tenants/{t}/certificates/{certificate}')).toEqual(expect.arrayContaining(['200', '201', '400', '401', '404', '501', '502']));
    expect(statuses('get', '/v1/tenants/{t}/certificates')).toEqual(expect.arrayContaining(['200', '401', '404', '501']));
    expect(statuses('get', '/v1/tenants/{t}/certificates/{certificate}')).toEqual(expect.arrayContaining(['200', '401', '404', '501']));
    expect(statuses('delete', '/v1/tenants/{t}/certificates/{certificate}')).toEqual(expect.arrayContaining(['204', '401', '404', '501']));
    expect(statuses('post', '/v1/tenants/{t}/devices')).toEqual(expect.arrayContaining(['201', '400', '401', '404', '409']));
    expect(statuses('get', '/v1/tenants/{t}/devices')).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(statuses('get', '/v1/tenants/{t}/devices/{device}')).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(statuses('delete', '/v1/tenants/{t}/devices/{device}')).toEqual(expect.arrayContaining(['204', '400', '401', '404']));
    expect(statuses('post', '/v1/tenants/{t}/devices/{device}/address')).toEqual(expect.arrayContaining(['201', '400', '401', '404', '409', '501', '502']));
    expect(statuses('get', '/v1/tenants/{t}/devices/{device}/address')).toEqual(expect.arrayContaining(['200', '401', '404', '501']));
    expect(statuses('delete', '/v1/tenants/{t}/devices/{device}/address')).toEqual(expect.arrayContaining(['204', '400', '401', '404', '501', '502']));
    expect(statuses('post', '/v1/tenants/{t}/wifi-keys')).toEqual(expect.arrayContaining(['201', '400', '401', '404', '501', '502']));
    expect(statuses('get', '/v1/tenants/{t}/wifi-keys')).toEqual(expect.arrayContaining(['200', '401', '404', '501']));
    expect(statuses('get', '/v1/tenants/{t}/wifi-keys/{key}')).toEqual(expect.arrayContaining(['200', '401', '404', '501']));
    expect(statuses('delete', '/v1/tenants/{t}/wifi-keys/{key}')).toEqual(expect.arrayContaining(['204', '401', '404', '501', '502']));
  });
});
