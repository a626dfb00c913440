import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimTenant, releaseTenant, tenantsHeldAlone, type LeaseMode } from '../../db/queries/tenant-leases.js';
import { Registry } from '../../db/registry.js';
import { freshDatabase } from '../support/database.js';

/**
 * The lease rule of "One tenant, one order" (docs/decisions.md) on a real registry: exclusive
 * alone, shared together, a holder renews its own, a lease whose run was ended by hand expires.
 */
let registry: Registry;
beforeAll(async () => {
  registry = new Registry(await freshDatabase(), undefined, 4);
});
afterAll(async () => {
  await registry?.close();
});

const claim = (tenant: string, holder: string, mode: LeaseMode) => claimTenant(registry.db, { tenant, holder, mode, operation: `${mode} by ${holder}` });

describe('tenant leases', () => {
  it.each([
    { held: 'exclusive', asked: 'exclusive', granted: false },
    { held: 'exclusive', asked: 'shared', granted: false },
    { held: 'shared', asked: 'exclusive', granted: false },
    { held: 'shared', asked: 'shared', granted: true },
  ] as const)('$held held, $asked asked by another run: granted $granted', async ({ held, asked, granted }) => {
    const tenant = `t${held[0]}${asked[0]}`;
    expect(await claim(tenant, 'run-1', held)).toEqual({ granted: true });
    const second = await claim(tenant, 'run-2', asked);
    expect(second.granted).toBe(granted);
    if (!second.granted) expect(second.heldBy).toBe(`${held} by run-1`);
    // Released, the tenant is free for anyone.
    await releaseTenant(registry.db, tenant, 'run-1');
    await releaseTenant(registry.db, tenant, 'run-2');
    expect(await claim(tenant, 'run-3', 'exclusive')).toEqual({ granted: true });
  });

  it('a run claiming again renews its own lease instead of waiting for itself', async () => {
    expect(await claim('renew', 'run-1', 'exclusive')).toEqual({ granted: true });
    expect(await claim('renew', 'run-1', 'exclusive')).toEqual({ granted: true });
  });

  it('a name lease and its tenant lease are different keys', async () => {
    expect(await claim('names', 'run-1', 'shared')).toEqual({ granted: true });
    expect(await claim('names/www', 'run-1', 'exclusive')).toEqual({ granted: true });
    expect(await claim('names', 'run-2', 'shared')).toEqual({ granted: true });
    expect((await claim('names/www', 'run-2', 'exclusive')).granted).toBe(false);
    expect(await claim('names/api', 'run-2', 'exclusive')).toEqual({ granted: true });
  });

  it('a lease past its expiry (its run was terminated by hand) no longer holds the tenant', async () => {
    expect(await claim('stale', 'run-1', 'exclusive')).toEqual({ granted: true });
    await registry.db.execute(sql`update tenant_leases set expires_at = now() - interval '1 second' where tenant = 'stale'`);
    expect(await claim('stale', 'run-2', 'exclusive')).toEqual({ granted: true });
  });

  it('twenty runs claiming one tenant exclusively at once: exactly one is granted', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => claim('crowd', `run-${i}`, 'exclusive')));
    expect(answers.filter((a) => a.granted)).toHaveLength(1);
  });

  it('the tenants held alone: a create, reconcile or delete holds its tenant so, not a shared run, a name, a released or an expired lease', async () => {
    expect(await claim('alone', 'run-1', 'exclusive')).toEqual({ granted: true });
    expect(await claim('together', 'run-1', 'shared')).toEqual({ granted: true });
    expect(await claim('together/www', 'run-1', 'exclusive')).toEqual({ granted: true });
    expect(await claim('gone', 'run-1', 'exclusive')).toEqual({ granted: true });
    await releaseTenant(registry.db, 'gone', 'run-1');
    expect(await claim('ended', 'run-1', 'exclusive')).toEqual({ granted: true });
    await registry.db.execute(sql`update tenant_leases set expires_at = now() - interval '1 second' where tenant = 'ended'`);
    const held = await tenantsHeldAlone(registry.db);
    expect(held).toContain('alone');
    for (const not of ['together', 'together/www', 'gone', 'ended']) expect(held).not.toContain(not);
  });
});
