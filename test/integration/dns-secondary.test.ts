import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createPowerDnsAdapter, type DnsAdapter, type TenantZoneSpec } from '../../backends/powerdns/powerdns.js';
import { tenantDnsNames } from '../../backends/powerdns/names.js';
import { BackendHttp } from '../../backends/http/client.js';
import { dig, nsupdate, startPowerDns, type RunningDnsServer } from '../support/pdns.js';
import { waitFor } from '../support/wait-for.js';
import { checkPowerDns } from '../../activities/dns/check.js';

/**
 * Tenant zones reach the site's secondaries (issue 45 item 2): a second real PowerDNS consumes the
 * site's catalog zone, as any RFC 9432 secondary would. The primary checks its catalog for new and
 * dropped members every `xfr-cycle-interval`, here 10 s (60 s by default): a new zone arrives within
 * that round; a record change arrives at once, by the NOTIFY the adapter sends after it, well inside it.
 */
const CATALOG = 'catalog.lab.example.';
const ROUND_S = 10;
const SITE = { siteDomain: 'lab.example', supernet: '10.128.0.0/16' };

function tenantSpec(tenant: string, index: number): TenantZoneSpec {
  return { tenant, ...tenantDnsNames({ tenant, index, ...SITE }), tsigSecret: randomBytes(32).toString('base64') };
}

/** The adapter as the service ran before the site declared secondaries: Native zones, no catalog. */
const nativeAdapter = () => createPowerDnsAdapter({ apiUrl: primary.apiUrl, apiKey: primary.apiKey, nameservers: ['ns1.lab.example.'], updateServer: '' });

let primary: RunningDnsServer;
let secondary: RunningDnsServer;
let dns: DnsAdapter;

const soaSerial = async (port: number, zone: string) => Number((await dig(port, zone, 'SOA')).answers[0]?.split(' ')[2] ?? NaN);
const served = async (port: number, zone: string) => (await dig(port, zone, 'SOA')).status === 'NOERROR';

beforeAll(async () => {
  // The secondary first: the primary's also-notify names its port.
  secondary = await startPowerDns({ settings: { secondary: 'yes', dnsupdate: 'no', 'xfr-cycle-interval': '1' } });
  primary = await startPowerDns({ settings: { primary: 'yes', 'also-notify': `127.0.0.1:${secondary.dnsPort}`, 'xfr-cycle-interval': String(ROUND_S) } });
  const consumer = new BackendHttp('powerdns', secondary.apiUrl, { 'X-API-Key': secondary.apiKey });
  await consumer.call({
    method: 'POST',
    path: 'servers/localhost/zones',
    json: { name: CATALOG, kind: 'Consumer', masters: [`127.0.0.1:${primary.dnsPort}`] },
  });
  const opts = { apiUrl: primary.apiUrl, apiKey: primary.apiKey, nameservers: ['ns1.lab.example.'], updateServer: '' };
  dns = createPowerDnsAdapter({ ...opts, catalog: CATALOG });
}, 60_000);
afterAll(async () => {
  await primary?.stop();
  await secondary?.stop();
});

describe('tenant zones on a secondary PowerDNS through the catalog zone', () => {
  it('the site check passes on the primary the secondary really transfers from', async () => {
    const api = new BackendHttp('powerdns', primary.apiUrl, { 'X-API-Key': primary.apiKey });
    expect(await checkPowerDns(api, { secondaries: [`127.0.0.1:${secondary.dnsPort}`], catalog: CATALOG })).toMatch(
      new RegExp(
        `; primary for 1 secondaries through catalog zone ${CATALOG.replaceAll('.', '\\.')} \\(created with the next tenant\\); .*xfr-cycle-interval \\(${ROUND_S} s\\)$`,
      ),
    );
  });

  it("an existing tenant's Native zones are moved into the catalog by the ensure, and appear on the secondary", async () => {
    const old = tenantSpec('oldco', 1);
    // As the service wrote them before the site declared secondaries.
    await nativeAdapter().ensure(old);
    expect((await dns.plan(old)).slice(1)).toEqual([
      { object: 'zone oldco.lab.example.', result: 'corrected', fields: ['kind', 'catalog', 'NOTIFY-DNSUPDATE'] },
      { object: 'zone 1.128.10.in-addr.arpa.', result: 'corrected', fields: ['kind', 'catalog', 'NOTIFY-DNSUPDATE'] },
    ]);
    expect((await dns.ensure(old)).slice(1)).toEqual([
      { object: 'zone oldco.lab.example.', result: 'corrected', fields: ['kind', 'catalog', 'NOTIFY-DNSUPDATE'] },
      { object: 'zone 1.128.10.in-addr.arpa.', result: 'corrected', fields: ['kind', 'catalog', 'NOTIFY-DNSUPDATE'] },
    ]);
    expect((await dns.observe(old)).zone).toEqual({ exists: true, matches: true, drift: [] });
    const t0 = Date.now();
    await waitFor(async () => (await served(secondary.dnsPort, old.zone)) && (await served(secondary.dnsPort, old.reverseZone)), (ROUND_S + 10) * 1000);
    console.log(`moved zones served by the secondary after ${Date.now() - t0} ms`);
  }, 40_000);

  it("a new tenant's zones appear on the secondary; a record change and the tenant's own update reach it by NOTIFY", async () => {
    const acme = tenantSpec('acme', 2);
    expect(await dns.ensure(acme)).toEqual([
      { object: 'tsig key tenant-acme', result: 'created' },
      { object: 'zone acme.lab.example.', result: 'created' },
      { object: 'zone 2.128.10.in-addr.arpa.', result: 'created' },
    ]);
    const t0 = Date.now();
    await waitFor(() => served(secondary.dnsPort, acme.zone), (ROUND_S + 10) * 1000);
    console.log(`new zone served by the secondary after ${Date.now() - t0} ms`);

    const before = await soaSerial(primary.dnsPort, acme.zone);
    await dns.ensureRecord({ zone: acme.zone, name: `web.${acme.zone}`, type: 'A', content: '10.128.2.10' });
    const after = await soaSerial(primary.dnsPort, acme.zone);
    expect(after).toBeGreaterThan(before);
    const t1 = Date.now();
    // Well inside the primary's own round: only the NOTIFY sent with the change brings it this soon.
    await waitFor(async () => (await soaSerial(secondary.dnsPort, acme.zone)) === after, 4000);
    expect((await dig(secondary.dnsPort, `web.${acme.zone}`)).answers).toEqual(['10.128.2.10']);
    console.log(`record change on the secondary after ${Date.now() - t1} ms`);

    const update = await nsupdate(primary.dnsPort, acme.zone, `hmac-sha256:${acme.tsigKeyName}:${acme.tsigSecret}`, [
      `update add printer.${acme.zone} 60 A 10.128.2.77`,
    ]);
    expect(update).toMatchObject({ ok: true });
    await waitFor(async () => (await dig(secondary.dnsPort, `printer.${acme.zone}`)).answers.length === 1, 4000);

    await dns.removeRecord({ zone: acme.zone, name: `web.${acme.zone}`, type: 'A' });
    await waitFor(async () => (await dig(secondary.dnsPort, `web.${acme.zone}`)).status === 'NXDOMAIN', 4000);
  }, 60_000);

  it("a deleted tenant's zones leave the secondary with the catalog's next round", async () => {
    const gone = tenantSpec('goneco', 3);
    await dns.ensure(gone);
    await waitFor(() => served(secondary.dnsPort, gone.zone), (ROUND_S + 10) * 1000);
    await dns.remove(gone);
    await waitFor(async () => !(await served(secondary.dnsPort, gone.zone)), (ROUND_S + 10) * 1000);
  }, 60_000);

  it('a zone of the catalog name that is no producer is refused, naming SITE_DNS_CATALOG', async () => {
    const plain = tenantSpec('plain', 4);
    await nativeAdapter().ensure(plain);
    const other = createPowerDnsAdapter({
      apiUrl: primary.apiUrl,
      apiKey: primary.apiKey,
      nameservers: ['ns1.lab.example.'],
      updateServer: '',
      catalog: plain.zone,
    });
    const failed = await other.ensure(tenantSpec('wrongcat', 5)).catch((e: unknown) => e as Error);
    expect(String(failed)).toMatch(/zone plain\.lab\.example\. \(SITE_DNS_CATALOG\) is a Native zone, not a producer catalog: .*pdnsutil set-kind/);
  });
});
