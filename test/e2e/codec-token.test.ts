import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIds } from '../../contracts/ids.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectUnauthorized } from '../support/tenant-body.js';

/**
 * The decode-only codec credential (issue 25 item 3): CODEC_TOKEN reads runs through `/codec/*`
 * and is an unknown token on every `/v1` route (401, docs/decisions.md "The codec token"), so an
 * engineer who opens the Temporal UI cannot change the site. The operator keeps decoding. The
 * whole `/v1` surface is covered by test/reliability/auth-matrix.test.ts's `codec` column.
 */
let site: TestSite;
const TENANT = 'cdt';

beforeAll(async () => {
  site = await startTestSite({ minimal: true });
  const created = await site.call('POST', '/v1/tenants', { body: { name: TENANT } });
  expect(created.status, created.text).toBe(201);
});
afterAll(async () => {
  await site?.stop();
});

/** The create's workflow input as history holds it: encrypted by the codec, base64 on the wire. */
async function encryptedInput(): Promise<{ metadata: Record<string, string>; data: string }> {
  const { history } = await site.temporal.workflowService.getWorkflowExecutionHistory({
    namespace: site.namespace,
    execution: { workflowId: runIds.tenantCreate(TENANT) },
  });
  const payload = history!.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
  const b64 = (b: Uint8Array | null | undefined) => Buffer.from(b ?? new Uint8Array()).toString('base64');
  return { metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, b64(v)])), data: b64(payload.data) };
}

const decodedText = (body: { payloads: { data: string }[] }) => Buffer.from(body.payloads[0]!.data, 'base64').toString();

describe('the codec token', () => {
  it('decodes a run payload from history, as the Temporal UI asks', async () => {
    const payload = await encryptedInput();
    expect(Buffer.from(payload.data, 'base64').toString()).not.toContain(TENANT);
    const r = await site.call('POST', '/codec/decode', { token: site.codecToken, body: { payloads: [payload] } });
    expect(r.status, r.text).toBe(200);
    expect(decodedText(r.body)).toContain(`"${TENANT}"`);
  });

  it("does not encode: a reader makes no payload a worker would take for the service's own (403); the operator does", async () => {
    const data = Buffer.from('"x"').toString('base64');
    const body = { payloads: [{ metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data }] };
    const r = await site.call('POST', '/codec/encode', { token: site.codecToken, body });
    expect([r.status, r.body]).toEqual([403, { error: 'operator only' }]);
    const op = await site.call('POST', '/codec/encode', { body });
    expect(op.status, op.text).toBe(200);
    expect(op.body.payloads[0].data).not.toBe(data);
  });

  it.each([
    ['list tenants', 'GET', '/v1/tenants', undefined],
    ['create a tenant', 'POST', '/v1/tenants', { name: 'cdt2' }],
    ['read a tenant', 'GET', `/v1/tenants/${TENANT}`, undefined],
    ['reconcile a tenant', 'POST', `/v1/tenants/${TENANT}/reconcile`, {}],
    ['delete a tenant', 'DELETE', `/v1/tenants/${TENANT}`, undefined],
    ['admit a tenant', 'POST', '/v1/admissions', { name: 'cdt3' }],
  ])('is an unknown token on /v1: %s is 401', async (_what, method, path, body) => {
    expectUnauthorized(await site.call(method, path, { token: site.codecToken, body }));
  });

  it('changed nothing by trying', async () => {
    const read = await site.call('GET', `/v1/tenants/${TENANT}`);
    expect(read.status).toBe(200);
    expect((await site.call('GET', '/v1/tenants/cdt2')).status).toBe(404);
  });
});

describe('the other tokens on the codec routes', () => {
  it('the operator still decodes', async () => {
    const r = await site.call('POST', '/codec/decode', { body: { payloads: [await encryptedInput()] } });
    expect(r.status, r.text).toBe(200);
    expect(decodedText(r.body)).toContain(`"${TENANT}"`);
  });

  it("a tenant's own token is told the codec is not its (403)", async () => {
    const created = await site.call('POST', '/v1/tenants', { body: { name: 'cdt4' } });
    expect(created.status, created.text).toBe(201);
    const r = await site.call('POST', '/codec/decode', { token: created.body.api_token, body: { payloads: [] } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'operator only' });
  });
});
