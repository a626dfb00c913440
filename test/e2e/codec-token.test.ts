import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIds } from '../../contracts/ids.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectUnauthorized } from '../support/tenant-body.js';
import { expectStatus } from '../support/answer.js';

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

type WirePayload = { metadata: Record<string, string>; data: string };
const b64 = (b: Uint8Array | null | undefined) => Buffer.from(b ?? new Uint8Array()).toString('base64');
const wire = (p: { metadata?: Record<string, Uint8Array | null> | null; data?: Uint8Array | null }): WirePayload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, b64(v)])),
  data: b64(p.data),
});

/** The create's history as the server holds it. */
async function createHistory() {
  const { history } = await site.temporal.workflowService.getWorkflowExecutionHistory({
    namespace: site.namespace,
    execution: { workflowId: runIds.tenantCreate(TENANT) },
  });
  return history!.events!;
}

/** The create's workflow input as history holds it: encrypted by the codec, base64 on the wire. */
async function encryptedInput(): Promise<WirePayload> {
  return wire((await createHistory())[0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!);
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

  it('decodes every payload of a request, of mixed encodings, each at its place (the UI sends a page of them)', async () => {
    // The run's input and each completed activity's result, encrypted, and a payload no codec wrote
    // (plain JSON, as a search attribute is) between them.
    const results = (await createHistory()).flatMap((e) => e.activityTaskCompletedEventAttributes?.result?.payloads ?? []).map(wire);
    expect(results.length).toBeGreaterThan(2);
    const plain = { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('"as it is"').toString('base64') };
    const sent = [await encryptedInput(), plain, ...results];
    const r = await site.call('POST', '/codec/decode', { token: site.codecToken, body: { payloads: sent } });
    expect(r.status, r.text).toBe(200);
    const got = r.body.payloads as WirePayload[];
    expect(got).toHaveLength(sent.length);
    const encodingOf = (p: WirePayload) => Buffer.from(p.metadata.encoding ?? '', 'base64').toString();
    expect(got.map(encodingOf).filter((e) => e === 'binary/encrypted')).toEqual([]);
    expect(Buffer.from(got[0]!.data, 'base64').toString()).toContain(`"${TENANT}"`);
    expect(got[1]).toEqual(plain);
    // Each result decoded is the one the worker returned: as the Temporal client decodes it itself.
    const own = await site.client.options.loadedDataConverter.payloadCodecs[0]!.decode(
      (await createHistory()).flatMap((e) => e.activityTaskCompletedEventAttributes?.result?.payloads ?? []) as never,
    );
    expect(got.slice(2)).toEqual(own.map(wire));
  });

  it('encodes several payloads of mixed encodings (as the operator), which the codec token decodes back each at its place', async () => {
    const sent = [
      { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('{"a":1}').toString('base64') },
      { metadata: { encoding: Buffer.from('binary/null').toString('base64') }, data: '' },
      { metadata: { encoding: Buffer.from('binary/plain').toString('base64') }, data: Buffer.from([0, 255, 7]).toString('base64') },
      { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('"last"').toString('base64') },
    ];
    // Encoding is the operator's (the codec token decodes only).
    const encoded = await site.call('POST', '/codec/encode', { body: { payloads: sent } });
    expect(encoded.status, encoded.text).toBe(200);
    expect(encoded.body.payloads).toHaveLength(sent.length);
    const decoded = await site.call('POST', '/codec/decode', { token: site.codecToken, body: encoded.body });
    expect(decoded.status, decoded.text).toBe(200);
    expect(decoded.body.payloads.map((p: { metadata: Record<string, string>; data?: string }) => ({ ...p, data: p.data ?? '' }))).toEqual(sent);
  });

  it("does not encode: a reader makes no payload a worker would take for the service's own (403); the operator does", async () => {
    const data = Buffer.from('"x"').toString('base64');
    const body = { payloads: [{ metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data }] };
    const r = await site.call('POST', '/codec/encode', { token: site.codecToken, body });
    expect([r.status, r.body]).toEqual([403, { error: 'operator only' }]);
    // Nothing to encode (the Temporal CLI's call before a query without arguments) encodes nothing.
    const none = await site.call('POST', '/codec/encode', { token: site.codecToken, body: { payloads: [] } });
    expect([none.status, none.body]).toEqual([200, { payloads: [] }]);
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
    expectStatus(await site.call('GET', '/v1/tenants/cdt2'), 404, site.logs);
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
