import { republishNames, withDnsWrites } from '../records/index.js';
import type { TenantIdentity } from '../../core/identity.js';
import type { TenantSecrets } from '../../core/tenant-view.js';
import type { StepModule } from '../tenant-step-module.js';

/** `dns`: the tenant's forward and reverse zones and its update key; delete removes them. */
export const dnsStep: StepModule<'dns'> = {
  name: 'dns',
  appliesTo: () => true,
  async ensure({ deps, tenant: t, secrets }) {
    // One DNS write at a time per worker: PowerDNS on SQLite refuses concurrent writes.
    const zones = await withDnsWrites(deps, () => deps.ports.dns.ensure(zonesOf(t, secrets)));
    // The names the service published for workloads and records come back with a recreated zone.
    return [...zones, ...(await republishNames(deps, t.name, t.index))];
  },
  async plan({ deps, tenant: t, secrets }) {
    const zones = await deps.ports.dns.plan(zonesOf(t, secrets));
    return [...zones, ...(await republishNames(deps, t.name, t.index, true))];
  },
  async remove({ deps, tenant: t }) {
    await withDnsWrites(deps, () => deps.ports.dns.remove({ tenant: t.name, zone: t.zone, reverseZone: t.reverseZone, tsigKeyName: t.tsigKeyName }));
  },
};

/** The tenant's zones and update key, as the port takes them. */
function zonesOf(t: TenantIdentity, secrets: TenantSecrets) {
  return {
    tenant: t.name,
    zone: t.zone,
    reverseZone: t.reverseZone,
    tsigKeyName: t.tsigKeyName,
    tsigAlgorithm: t.tsigAlgorithm,
    tsigSecret: secrets.tsigSecret!,
  };
}
