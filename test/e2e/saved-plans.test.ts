import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectStatus } from '../support/answer.js';

/**
 * Saved plans (issue 47 item 1), as Terraform's: a plan is kept with what it observed; applying it
 * by id carries out exactly its changes, and is refused (409, naming what moved) when anything it
 * covered changed behind its back; a prune is possible only through a plan that lists what it
 * removes, and removes nothing else.
 */
let site: TestSite;
let web: { vmid: number };
let stray: { vmid: number };

const T = 'plans';
const reconcile = (query = '', token?: string) => site.call('POST', `/v1/tenants/${T}/reconcile${query}`, token ? { token } : {});
const vm = (vmid: number) => site.backends.proxmox.state.vms.get(vmid);
type Found = { area: string; object: string; result: string; fields?: string[] };
const about = (objects: Found[], vmid: number) => objects.filter((o) => o.area === 'hypervisor' && new RegExp(`\\bvm ${vmid}\\b`).test(o.object));

beforeAll(async () => {
  site = await startTestSite();
  expectStatus(await site.call('POST', '/v1/tenants', { body: { name: T } }), 201, site.logs);
  for (const name of ['web', 'stray', 'late']) {
    const w = await site.call('POST', `/v1/tenants/${T}/workloads`, { body: { name, cores: 1, memory_mb: 512 } });
    expect(w.status, w.text).toBe(201);
    if (name === 'web') web = w.body;
    if (name === 'stray') stray = w.body;
  }
  // A VM the registry forgot: what only a prune removes.
  await site.registry.sql`delete from workloads where tenant = ${T} and name = 'stray'`;
});
afterAll(async () => {
  await site?.stop();
});

describe('a saved plan', () => {
  it('is saved with an id and an expiry, changes nothing, and is applied by id: exactly its changes', async () => {
    vm(web.vmid)!.config.cores = '4';
    const plan = await reconcile('?plan=true');
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body).toMatchObject({ plan: true, prune: false, plan_id: expect.stringMatching(/^plan-[A-Za-z0-9_-]{16}$/) });
    expect(Date.parse(plan.body.plan_expires_at)).toBeGreaterThan(Date.now());
    expect(about(plan.body.objects, web.vmid)).toEqual([expect.objectContaining({ result: 'corrected', fields: ['cores'] })]);
    expect(about(plan.body.objects, stray.vmid)).toEqual([expect.objectContaining({ result: 'unknown' })]);
    expect(vm(web.vmid)!.config.cores).toBe('4');

    const applied = await reconcile(`?apply=${plan.body.plan_id}`);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.applied_plan).toBe(plan.body.plan_id);
    expect(about(applied.body.objects, web.vmid)).toEqual([expect.objectContaining({ result: 'corrected', fields: ['cores'] })]);
    expect(String(vm(web.vmid)!.config.cores)).toBe('1');
    // Without prune in the plan, the stray VM stays.
    expect(about(applied.body.objects, stray.vmid)).toEqual([expect.objectContaining({ result: 'unknown' })]);
    expect(vm(stray.vmid)).toBeDefined();

    const again = await reconcile(`?apply=${plan.body.plan_id}`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(new RegExp(`^plan ${plan.body.plan_id} was applied at .*; make a new plan$`));
  });

  it('is refused (409) naming what moved when the backends changed behind its back, and changes nothing', async () => {
    vm(web.vmid)!.config.cores = '3';
    const plan = await reconcile('?plan=true');
    expect(plan.status).toBe(200);
    vm(web.vmid)!.config.memory = '4096';
    const applied = await reconcile(`?apply=${plan.body.plan_id}`);
    expect(applied.status, applied.text).toBe(409);
    expect(applied.body.error).toBe(
      `the backends changed since plan ${plan.body.plan_id}: hypervisor: workload web (vm ${web.vmid}) was corrected (cores), now corrected (cores,memory_mb); make a new plan`,
    );
    expect(vm(web.vmid)!.config.cores).toBe('3');
    expect(vm(web.vmid)!.config.memory).toBe('4096');
    // A new plan sees the world as it is, and applies.
    const fresh = await reconcile('?plan=true');
    expect((await reconcile(`?apply=${fresh.body.plan_id}`)).status).toBe(200);
    expect(String(vm(web.vmid)!.config.memory)).toBe('512');
  });

  it('prunes only through a plan that lists what it removes, and removes nothing it did not list', async () => {
    const refused = await reconcile('?prune=true');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^prune only through a saved plan that lists what it removes/);
    expect(vm(stray.vmid)).toBeDefined();

    const plan = await reconcile('?plan=true&prune=true');
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.prune).toBe(true);
    expect(about(plan.body.objects, stray.vmid)).toEqual([expect.objectContaining({ result: 'unknown' })]);
    const applied = await reconcile(`?apply=${plan.body.plan_id}`);
    expect(applied.status, applied.text).toBe(200);
    expect(about(applied.body.objects, stray.vmid)).toEqual([expect.objectContaining({ result: 'removed' })]);
    expect(vm(stray.vmid)).toBeUndefined();
  });

  it('a VM forgotten after the plan was made is not removed by it: the plan is refused as moved', async () => {
    const plan = await reconcile('?plan=true&prune=true');
    expect(plan.status).toBe(200);
    const late = (await site.call('GET', `/v1/tenants/${T}/workloads/late`)).body as { vmid: number };
    await site.registry.sql`delete from workloads where tenant = ${T} and name = 'late'`;
    const applied = await reconcile(`?apply=${plan.body.plan_id}`);
    expect(applied.status).toBe(409);
    expect(applied.body.error).toContain(`hypervisor: vm ${late.vmid} (${T}-late) is new, unknown`);
    expect(vm(late.vmid)).toBeDefined();
  });

  it("answers 404 for an unknown or another tenant's plan, 409 for an expired one, 400 for a malformed id", async () => {
    expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'other' } }), 201, site.logs);
    const theirs = await site.call('POST', '/v1/tenants/other/reconcile?plan=true');
    expect(theirs.status).toBe(200);
    const cross = await reconcile(`?apply=${theirs.body.plan_id}`);
    expect([cross.status, cross.body.error]).toEqual([404, 'plan not found']);
    expect((await reconcile('?apply=plan-AAAAAAAAAAAAAAAA')).status).toBe(404);
    for (const bad of ['nope', 'plan-short', "plan-AAAAAAAAAAAAAAA'", 'plan-AAAAAAAAAAAAAAAAA']) {
      const r = await reconcile(`?apply=${encodeURIComponent(bad)}`);
      expect([bad, r.status]).toEqual([bad, 400]);
      expect(r.body.error).toMatch(/apply/);
    }
    const plan = await reconcile('?plan=true');
    await site.registry.sql`update reconcile_plans set expires_at = now() - interval '1 second' where id = ${plan.body.plan_id}`;
    const expired = await reconcile(`?apply=${plan.body.plan_id}`);
    expect(expired.status).toBe(409);
    expect(expired.body.error).toMatch(/expired at .*; make a new plan$/);
  });

  it('two applies of one plan at once: one carries it out, the other is refused', async () => {
    vm(web.vmid)!.config.cores = '2';
    const plan = await reconcile('?plan=true');
    const timed = async () => {
      const start = Date.now();
      const answer = await reconcile(`?apply=${plan.body.plan_id}`);
      return { answer, start, end: Date.now() };
    };
    const [a, b] = await Promise.all([timed(), timed()]);
    // Both were in flight at once: each re-observes the backends for about a second before taking the plan.
    expect(Math.min(a.end, b.end) - Math.max(a.start, b.start)).toBeGreaterThan(0);
    expect([a.answer.status, b.answer.status].sort()).toEqual([200, 409]);
    expect(String(vm(web.vmid)!.config.cores)).toBe('1');
  });
});
