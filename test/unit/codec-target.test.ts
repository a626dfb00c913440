import { describe, expect, it } from 'vitest';
import { codecTarget } from '../../apps/lab/codec-proxy.js';

/** The lab codec proxy's only two destinations (issue 16 item 5); the wire test is test/integration/codec-proxy.test.ts. */
describe('codecTarget', () => {
  it.each([
    ['POST /encode', 'POST', '/encode', '/codec/encode'],
    ['POST /decode', 'POST', '/decode', '/codec/decode'],
    ['a dot segment', 'POST', '/../v1/tenants/acme/reconcile', undefined],
    ['a query', 'POST', '/encode?x', undefined],
    ['a trailing slash', 'POST', '/encode/', undefined],
    ['upper case', 'POST', '/ENCODE', undefined],
    ['an inherited property name', 'POST', 'constructor', undefined],
    ['GET', 'GET', '/encode', undefined],
    ['no URL', 'POST', undefined, undefined],
  ])('%s', (_reason, method, url, want) => {
    expect(codecTarget(method, url)).toBe(want);
  });
});
