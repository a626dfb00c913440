import { expect } from 'vitest';
import { ALL_ONE, tenantObjects, type TenantObjects } from './backend-objects.js';
import type { TestSite } from './site.js';

// The fill the reliability tests run through a fault (the registry cut, Temporal restarted), and the
// census that says it converged.

type Answer = Awaited<ReturnType<TestSite['call']>>;

/** A tenant's last answers in a fill: its create, its workload web and its record www. */
export interface FillFinal {
  tenant: Answer;
  workload: Answer;
  record: Answer;
}

/**
 * `callers` callers working through `names`: each creates the tenant, its workload web and its
 * record www, every call sent through `converge` (which repeats it until it is answered, as a
 * client does, labelled `create <name>`, `workload of <name>`, `record of <name>`).
 */
export function startFill(
  site: TestSite,
  names: string[],
  callers: number,
  converge: (label: string, send: () => Promise<Answer>) => Promise<Answer>,
): { finals: Map<string, FillFinal>; answered: () => number; done: Promise<unknown> } {
  const finals = new Map<string, FillFinal>();
  let answered = 0;
  const queue = [...names];
  const done = Promise.all(
    Array.from({ length: callers }, async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        const tenant = await converge(`create ${name}`, () => site.call('POST', '/v1/tenants', { body: { name } }));
        answered++;
        const workload = await converge(`workload of ${name}`, () =>
          site.call('POST', `/v1/tenants/${name}/workloads`, { body: { name: 'web', cores: 1, memory_mb: 512 } }),
        );
        const prefix = String(tenant.body?.network?.subnet ?? '')
          .split('.')
          .slice(0, 3)
          .join('.');
        const record = await converge(`record of ${name}`, () => site.call('PUT', `/v1/tenants/${name}/records/www`, { body: { address: `${prefix}.10` } }));
        finals.set(name, { tenant, workload, record });
      }
    }),
  );
  return { finals, answered: () => answered, done };
}

/**
 * The fill converged: every final answer a success, the registry holds each tenant ready with an
 * index of its own, the backends one of each object per tenant, each workload ready and each record
 * there, and no lease is held. `workloadWhy(name)` says more when a workload is not ready;
 * `eachTenant` is a test's own checks of a tenant. Answers the registry's rows.
 */
export async function expectFillConverged(
  site: TestSite,
  names: string[],
  finals: Map<string, FillFinal>,
  opts: { workloadWhy?: (name: string) => string; eachTenant?: (row: { name: string; index: number }, held: TenantObjects) => Promise<void> } = {},
): Promise<{ name: string; index: number; status: string }[]> {
  for (const [name, f] of finals) {
    expect([200, 201], `${name} ${f.tenant.text}`).toContain(f.tenant.status);
    expect([200, 201], `${name} ${f.workload.text}`).toContain(f.workload.status);
    expect(f.record.status, `${name} ${f.record.text}`).toBe(200);
  }
  expect(finals.size).toBe(names.length);

  const rows = await site.registry.sql<{ name: string; index: number; status: string }[]>`select name, index, status from tenants order by name`;
  expect(rows.map((r) => r.name)).toEqual([...names].sort());
  expect(rows.every((r) => r.status === 'ready')).toBe(true);
  expect(new Set(rows.map((r) => r.index)).size).toBe(names.length);
  for (const row of rows) {
    const held = await tenantObjects(site, row.name, row.index);
    expect(held, row.name).toEqual(ALL_ONE);
    const w = await site.call('GET', `/v1/tenants/${row.name}/workloads/web`);
    expect(w.body.status, opts.workloadWhy?.(row.name) ?? row.name).toBe('ready');
    const records = (await site.call('GET', `/v1/tenants/${row.name}/records`)).body.records;
    expect(
      records.map((r: { name: string }) => r.name),
      row.name,
    ).toEqual(['www']);
    await opts.eachTenant?.(row, held);
  }
  expect(await site.registry.sql`select tenant, holder from tenant_leases`).toEqual([]);
  return rows;
}
