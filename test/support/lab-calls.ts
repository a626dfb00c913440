import { expect } from 'vitest';
import type { Faults } from '../../apps/lab/simulators/faults.js';
import type { TestSite } from './site.js';
import { expectUnauthorized } from './tenant-body.js';

/** Creates tenant `name` as the operator and answers its body; the test fails unless it was created (201). */
export async function createTenant(site: Pick<TestSite, 'call'>, name: string): Promise<any> {
  const r = await site.call('POST', '/v1/tenants', { body: { name } });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

/** A client joining `ssid` with `psk` from `mac`, answered by the UniFi simulator's association check. */
export function associateAt(site: TestSite, ssid: string, psk: string, mac: string): Promise<Response> {
  return fetch(`${site.backends.unifi!.server.url}/__lab/associate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ssid, psk, mac }),
  });
}

/**
 * A tenant's reads at `paths` (each under /v1/tenants/{t}) are its own: 401 without a token, and
 * "tenant not found" both to another tenant's token and at the same path under a tenant that does not exist.
 */
export async function expectTenantScopedReads(site: Pick<TestSite, 'call'>, paths: string[], foreignToken: string): Promise<void> {
  for (const path of paths) {
    expectUnauthorized(await site.call('GET', path, { token: null }));
    expect((await site.call('GET', path, { token: foreignToken })).body).toEqual({ error: 'tenant not found' });
    expect((await site.call('GET', path.replace(/^\/v1\/tenants\/[^/]+/, '/v1/tenants/nobody'))).body).toEqual({ error: 'tenant not found' });
  }
}

/** A call of a resource's routes: method, path and the body when it takes one. */
export type RouteCall = readonly [method: string, path: string, body?: unknown];

/** Every one of `calls` (as `token`; the operator's when none) answers `status` with `body`: a refusal all the routes of a resource give alike. */
export async function expectEachAnswers(
  site: Pick<TestSite, 'call'>,
  calls: readonly RouteCall[],
  want: { status: number; body: unknown },
  token?: string,
): Promise<void> {
  for (const [method, path, body] of calls) {
    const r = await site.call(method, path, { token, body });
    expect(r.status, `${method} ${path}`).toBe(want.status);
    expect(r.body).toEqual(want.body);
  }
}

/** The reads and the delete of a collection and of its item `name`, the routes every tenant object has. */
export const readAndDeleteRoutes = (collection: string, name: string): RouteCall[] => [
  ['GET', collection],
  ['GET', `${collection}/${name}`],
  ['DELETE', `${collection}/${name}`],
];

/** What a route under a tenant answers for a tenant that is not there, or not the caller's. */
export const TENANT_NOT_FOUND = { status: 404, body: { error: 'tenant not found' } };

/** A fault of a simulator's or real server's proxy, on for the call only. */
export async function faulted<R>(faults: Faults, fault: Parameters<Faults['add']>[0], call: () => Promise<R>): Promise<R> {
  faults.add(fault);
  try {
    return await call();
  } finally {
    faults.clear();
  }
}

/** A Wi-Fi key as the API answers it (spec: WifiKey), its secrets stored; `more` adds what one answer has beside. */
export const wifiKeyAnswer = (name: string, trustClass: string, ssid: string, more: Record<string, unknown> = {}) => ({
  name,
  trust_class: trustClass,
  ssid,
  secrets_stored: true,
  created_at: expect.any(String),
  updated_at: expect.any(String),
  ...more,
});
