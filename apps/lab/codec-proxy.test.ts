import { describe, expect, it } from 'vitest';
import { codecTarget } from './codec-proxy.js';

/** The lab codec proxy's only two destinations (issue 16 item 5); the wire test is test/integration/codec-proxy.test.ts. */
describe('codecTarget', () => {
  it.each([
    ['POST /encode', 'POST', '/encode', '/codec/encode'],
    ['POST /decode', 'POST', '/decode', '/codec/decode'],
    ['a dot segment', 'POST', '/../v1/tenants/acme/reconcile', undefined],
    // The UI's query is allowed and never forwarded: the target is the table's constant.
    ['the UI decode query', 'POST', '/decode?preserveStorageRefs=true', '/codec/decode'],
    ['a query on encode', 'POST', '/encode?x', '/codec/encode'],
    ['a dot segment in the query', 'POST', '/decode?/../../v1/tenants', '/codec/decode'],
    ['an empty query', 'POST', '/decode?', '/codec/decode'],
    ['a query on another path', 'POST', '/v1/tenants?x=/decode', undefined],
    ['a dot segment before the query', 'POST', '/decode/../v1?x', undefined],
    ['an encoded query mark', 'POST', '/decode%3Fx', undefined],
    ['a fragment', 'POST', '/decode#x', undefined],
    ['a trailing slash', 'POST', '/encode/', undefined],
    ['upper case', 'POST', '/ENCODE', undefined],
    ['an inherited property name', 'POST', 'constructor', undefined],
    ['GET', 'GET', '/encode', undefined],
    ['no URL', 'POST', undefined, undefined],
  ])('%s', (_reason, method, url, want) => {
    expect(codecTarget(method, url)).toBe(want);
  });
});
