import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerDelivered,
  answerHanding,
  claimObject,
  collectAnswer,
  purgeObjectRuns,
  runsOfObjects,
  settleObject,
  type RunOf,
} from '../../db/queries/object-runs.js';
import { Registry } from '../../db/registry.js';
import { freshDatabase } from '../support/database.js';

/**
 * The runs of objects on a real registry (db/queries/object-runs.ts): what a run writes of its
 * object's life, the answer it keeps for a lost call (collected by the same call only, until a
 * caller was handed it), what a newer success or a removal makes stale, and what the purge forgets.
 */
let registry: Registry;
beforeAll(async () => {
  registry = new Registry(await freshDatabase(), undefined, 4);
  await registry.migrate(new AbortController().signal);
});
afterAll(async () => {
  await registry?.close();
});

const WINDOW = 60_000;
const run = (workflowId: string, object = 'tenants/acme/wifi-keys/k', operation = 'wifi-key-issue'): RunOf => ({
  object,
  tenant: 'acme',
  workflowId,
  runId: `r-${workflowId}`,
  operation,
});
const stateOf = async (object: string) =>
  (await runsOfObjects(registry.db, [object]))
    .get(object)
    ?.map((r) => `${r.workflowId}:${r.state}`)
    .sort();

describe('a run of an object', () => {
  it('claims it in flight, parks with its failure for a bound, and settles done keeping its answer for the same call', async () => {
    const r = run('wifi-key/acme/k');
    await claimObject(registry.db, r, 60_000);
    expect(await stateOf(r.object)).toEqual(['wifi-key/acme/k:in-flight']);
    await settleObject(registry.db, r, { state: 'parked', failure: { step: 'wifi', reason: 'BackendFailed' }, claimMs: 60_000 });
    const [parked] = (await runsOfObjects(registry.db, [r.object])).get(r.object)!;
    expect(parked).toMatchObject({ state: 'parked', failure: { step: 'wifi' } });
    expect(parked!.claimExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    await settleObject(registry.db, r, { state: 'done', answer: { id: 'a1', sealed: 'sealed-1', requestHash: 'call-1' } });
    // Another call of the same run id (another request) collects nothing; the same call does, until handed out.
    expect(await collectAnswer(registry.db, r.workflowId, 'call-2', WINDOW)).toBeUndefined();
    expect(await collectAnswer(registry.db, r.workflowId, 'call-1', WINDOW)).toEqual({ sealed: 'sealed-1', answerId: 'a1' });
    // Taken as being handed: a second repeat at once waits for that hand-out instead of having it too.
    expect(await collectAnswer(registry.db, r.workflowId, 'call-1', WINDOW)).toBe('being-handed');
    // The instance handing it died mid-write: once the mark's bound is past, the repeat collects it.
    await registry.db.execute(sql`update object_runs set handing_at = now() - interval '11 seconds' where workflow_id = ${r.workflowId}`);
    expect(await collectAnswer(registry.db, r.workflowId, 'call-1', WINDOW)).toEqual({ sealed: 'sealed-1', answerId: 'a1' });
    await answerDelivered(registry.db, r.workflowId, 'a1');
    expect(await collectAnswer(registry.db, r.workflowId, 'call-1', WINDOW)).toBeUndefined();
  });

  it('an answer an instance is writing out holds off the repeat until delivered, then nobody collects it', async () => {
    const r = run('broker-account/acme/late', 'tenants/acme/broker-accounts/late');
    await settleObject(registry.db, r, { state: 'done', answer: { id: 'p1', sealed: 'password', requestHash: 'same' } });
    await answerHanding(registry.db, r.workflowId, 'p1');
    expect(await collectAnswer(registry.db, r.workflowId, 'same', WINDOW)).toBe('being-handed');
    await answerDelivered(registry.db, r.workflowId, 'p1');
    expect(await collectAnswer(registry.db, r.workflowId, 'same', WINDOW)).toBeUndefined();
  });

  it("a newer success of the object clears the older runs' kept answers (their secret is replaced)", async () => {
    const first = run('wifi-key/acme/k2', 'tenants/acme/wifi-keys/k2');
    const restore = run('wifi-key/acme/k2/restore', 'tenants/acme/wifi-keys/k2');
    await settleObject(registry.db, first, { state: 'done', answer: { id: 'b1', sealed: 'psk-1', requestHash: 'c1' } });
    await settleObject(registry.db, restore, { state: 'done', answer: { id: 'b2', sealed: 'psk-2', requestHash: 'c2' } });
    expect(await collectAnswer(registry.db, first.workflowId, 'c1', WINDOW)).toBeUndefined();
    expect(await collectAnswer(registry.db, restore.workflowId, 'c2', WINDOW)).toEqual({ sealed: 'psk-2', answerId: 'b2' });
  });

  it("a removal drops its object's other runs; a tenant's drops every run of its objects, its own delete's kept", async () => {
    const key = run('wifi-key/acme/k3', 'tenants/acme/wifi-keys/k3');
    await settleObject(registry.db, key, { state: 'done', answer: { id: 'k', sealed: 's', requestHash: 'h' } });
    const create = run('tenant-create/acme', 'tenants/acme', 'tenant-create');
    await settleObject(registry.db, create, { state: 'done', answer: { id: 'c', sealed: 'secrets', requestHash: 'h' } });
    const del = run('tenant-delete/acme', 'tenants/acme', 'tenant-delete');
    await settleObject(registry.db, del, { state: 'done', answer: { id: 'd', sealed: 'deleted', requestHash: 'h' }, removed: true });
    const left = await registry.db.execute<{ workflow_id: string }>(sql`select workflow_id from object_runs where tenant = 'acme'`);
    expect(left.map((r) => r.workflow_id)).toEqual(['tenant-delete/acme']);
    expect(await collectAnswer(registry.db, del.workflowId, 'h', WINDOW)).toEqual({ sealed: 'deleted', answerId: 'd' });
  });

  it('past the window the purge forgets kept answers and the runs of removed objects, and keeps the others', async () => {
    const kept = run('workload-create/old/web', 'tenants/old/workloads/web', 'workload-create');
    const gone = run('workload-delete/old/db', 'tenants/old/workloads/db', 'workload-delete');
    await settleObject(registry.db, { ...kept, tenant: 'old' }, { state: 'done', answer: { id: 'w', sealed: 'view', requestHash: 'h' } });
    await settleObject(registry.db, { ...gone, tenant: 'old' }, { state: 'done', answer: { id: 'x', sealed: '204', requestHash: 'h' } });
    await registry.db.execute(
      sql`update object_runs set since = now() - interval '2 minutes', answered_at = now() - interval '2 minutes' where tenant = 'old'`,
    );
    expect(await purgeObjectRuns(registry.db, WINDOW)).toBe(1);
    const left = await registry.db.execute<{ workflow_id: string; answer: string | null }>(
      sql`select workflow_id, answer from object_runs where tenant = 'old'`,
    );
    expect(left).toEqual([{ workflow_id: 'workload-create/old/web', answer: null }]);
  });
});
