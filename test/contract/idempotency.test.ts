import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { expect, it } from 'vitest';

/**
 * Issue 19: every POST and PUT that creates or issues something takes `Idempotency-Key`
 * (tenants, admissions, workloads, records, devices, device addresses, Wi-Fi keys, broker
 * accounts, certificates), and nothing else does. The middleware reads the same contracts.
 */
const doc = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> }>>;
};

it('documents Idempotency-Key on exactly the routes that create or issue', () => {
  const withKey = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
  expect(withKey.sort()).toEqual(
    [
      'POST /v1/admissions',
      'POST /v1/tenants',
      'POST /v1/tenants/{t}/workloads',
      'PUT /v1/tenants/{t}/records/{record}',
      'POST /v1/tenants/{t}/devices',
      'POST /v1/tenants/{t}/devices/{device}/address',
      'POST /v1/tenants/{t}/wifi-keys',
      'POST /v1/tenants/{t}/broker-accounts',
      'PUT /v1/tenants/{t}/certificates/{certificate}',
    ].sort(),
  );
  for (const op of withKey) {
    const [method, path] = op.split(' ') as [string, string];
    const responses = doc.paths[path]![method.toLowerCase()]!.responses;
    expect(Object.keys(responses), op).toContain('422');
    const success = Object.entries(responses).filter(([code]) => code.startsWith('2'));
    for (const [code, r] of success) expect(r.headers, `${op} ${code}`).toHaveProperty('Idempotent-Replayed');
  }
});
