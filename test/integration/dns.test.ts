import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createPowerDnsAdapter, type DnsAdapter, type TenantZoneSpec } from '../../backends/powerdns/powerdns.js';
import { ptrName, tenantDnsNames } from '../../backends/powerdns/names.js';
import { BackendHttp } from '../../backends/http/client.js';
import { dig, nsupdate, startPowerDns, type RunningDnsServer } from '../support/pdns.js';

const SITE = { siteDomain: 'lab.example', supernet: '10.128.0.0/16' };

function tenantSpec(tenant: string, index: number): TenantZoneSpec {
  const names = tenantDnsNames({ tenant, index, ...SITE });
  return { tenant, ...names, tsigSecret: randomBytes(32).toString('base64') };
}

const keyArg = (spec: TenantZoneSpec, secret = spec.tsigSecret, name = spec.tsigKeyName) => `hmac-sha256:${name}:${secret}`;

describe('PowerDNS adapter against a real pdns_server', () => {
  let pdns: RunningDnsServer;
  let dns: DnsAdapter;
  /** Direct API access, standing in for someone changing the server behind the service's back. */
  let api: BackendHttp;
  const acme = tenantSpec('acme', 1);
  const beta = tenantSpec('beta', 2);

  beforeAll(async () => {
    pdns = await startPowerDns();
    dns = createPowerDnsAdapter({
      apiUrl: pdns.apiUrl,
      apiKey: pdns.apiKey,
      nameservers: ['ns1.lab.example.'],
      updateServer: `127.0.0.1:${pdns.dnsPort}`,
    });
    api = new BackendHttp('powerdns', pdns.apiUrl, { 'X-API-Key': pdns.apiKey });
  });
  afterAll(async () => {
    await pdns?.stop();
  });

  it('creates the key and both zones, which then observe as matching', async () => {
    expect(await dns.ensure(acme)).toEqual([
      { object: 'tsig key tenant-acme', result: 'created' },
      { object: 'zone acme.lab.example.', result: 'created' },
      { object: 'zone 1.128.10.in-addr.arpa.', result: 'created' },
    ]);
    await dns.ensure(beta);
    const seen = await dns.observe(acme);
    expect(seen).toEqual({
      zone: { exists: true, matches: true, drift: [] },
      reverseZone: { exists: true, matches: true, drift: [] },
      tsigKey: { exists: true, matches: true, drift: [] },
    });
    expect((await dig(pdns.dnsPort, acme.zone, 'NS')).answers).toEqual(['ns1.lab.example.']);
    expect((await dig(pdns.dnsPort, acme.reverseZone, 'SOA')).answers[0]).toMatch(/^ns1\.lab\.example\. hostmaster\.1\.128\.10\.in-addr\.arpa\. /);
  });

  it('lets the tenant publish names with its key, in both zones', async () => {
    const res = await nsupdate(pdns.dnsPort, acme.zone, keyArg(acme), [`update add printer.${acme.zone} 60 A 10.128.1.77`]);
    expect(res).toMatchObject({ ok: true });
    expect(await dig(pdns.dnsPort, `printer.${acme.zone}`)).toEqual({ status: 'NOERROR', answers: ['10.128.1.77'] });
    const ptr = await nsupdate(pdns.dnsPort, acme.reverseZone, keyArg(acme), [`update add ${ptrName('10.128.1.77')} 60 PTR printer.${acme.zone}`]);
    expect(ptr.ok).toBe(true);
    expect((await dig(pdns.dnsPort, ptrName('10.128.1.77'), 'PTR')).answers).toEqual([`printer.${acme.zone}`]);
  });

  it("refuses updates signed with a wrong secret, an unknown key, another tenant's key, or none", async () => {
    const attempts = [keyArg(acme, randomBytes(32).toString('base64')), keyArg(acme, acme.tsigSecret, 'tenant-nobody'), keyArg(beta)];
    for (const key of attempts) {
      const res = await nsupdate(pdns.dnsPort, acme.zone, key, [`update add intruder.${acme.zone} 60 A 10.128.1.66`]);
      expect(res.ok).toBe(false);
      expect(res.output).toMatch(/REFUSED|NOTAUTH|BADKEY|BADSIG/);
    }
    // nsupdate without -y sends an unsigned update; the zone admits every address, so only the key gates.
    const unsigned = await nsupdate(pdns.dnsPort, acme.zone, undefined, [`update add intruder.${acme.zone} 60 A 10.128.1.66`]);
    expect(unsigned.ok).toBe(false);
    expect(unsigned.output).toMatch(/REFUSED|NOTAUTH/);
    expect((await dig(pdns.dnsPort, `intruder.${acme.zone}`)).status).toBe('NXDOMAIN');
  });

  it('adopts everything in place when ensured again', async () => {
    expect((await dns.ensure(acme)).map((o) => o.result)).toEqual(['in-place', 'in-place', 'in-place']);
  });

  it('recreates a zone deleted behind its back', async () => {
    await api.call({ method: 'DELETE', path: `servers/localhost/zones/${acme.reverseZone}` });
    expect((await dns.observe(acme)).reverseZone).toEqual({ exists: false, matches: false, drift: [] });
    expect(await dns.ensure(acme)).toEqual([
      { object: 'tsig key tenant-acme', result: 'in-place' },
      { object: 'zone acme.lab.example.', result: 'in-place' },
      { object: 'zone 1.128.10.in-addr.arpa.', result: 'created' },
    ]);
    const res = await nsupdate(pdns.dnsPort, acme.reverseZone, keyArg(acme), [`update add ${ptrName('10.128.1.9')} 60 PTR nine.${acme.zone}`]);
    expect(res.ok).toBe(true);
  });

  it('corrects a TSIG secret altered through the API, so the issued key works again', async () => {
    await api.call({ method: 'PUT', path: 'servers/localhost/tsigkeys/tenant-acme.', json: { key: randomBytes(32).toString('base64') } });
    expect((await dns.observe(acme)).tsigKey).toEqual({ exists: true, matches: false, drift: ['secret'] });
    expect((await nsupdate(pdns.dnsPort, acme.zone, keyArg(acme), [`update add drift.${acme.zone} 60 A 10.128.1.5`])).ok).toBe(false);
    expect((await dns.ensure(acme))[0]).toEqual({ object: 'tsig key tenant-acme', result: 'corrected', fields: ['secret'] });
    expect((await nsupdate(pdns.dnsPort, acme.zone, keyArg(acme), [`update add drift.${acme.zone} 60 A 10.128.1.5`])).ok).toBe(true);
  });

  it('corrects a zone whose kind, update ACL and NS were changed', async () => {
    const zonePath = `servers/localhost/zones/${acme.zone}`;
    await api.call({ method: 'PUT', path: zonePath, json: { kind: 'Master' } });
    // Bind the zone to another tenant's key and point NS elsewhere.
    await api.call({ method: 'PUT', path: `${zonePath}/metadata/TSIG-ALLOW-DNSUPDATE`, json: { metadata: [beta.tsigKeyName] } });
    await api.call({
      method: 'PATCH',
      path: zonePath,
      json: { rrsets: [{ name: acme.zone, type: 'NS', ttl: 3600, changetype: 'REPLACE', records: [{ content: 'ns.elsewhere.example.', disabled: false }] }] },
    });
    expect((await nsupdate(pdns.dnsPort, acme.zone, keyArg(beta), [`update add stolen.${acme.zone} 60 A 10.128.1.6`])).ok).toBe(true);
    expect((await dns.observe(acme)).zone).toEqual({ exists: true, matches: false, drift: ['kind', 'NS', 'TSIG-ALLOW-DNSUPDATE'] });

    expect((await dns.ensure(acme))[1]).toEqual({ object: 'zone acme.lab.example.', result: 'corrected', fields: ['kind', 'NS', 'TSIG-ALLOW-DNSUPDATE'] });
    expect((await nsupdate(pdns.dnsPort, acme.zone, keyArg(beta), [`update add stolen2.${acme.zone} 60 A 10.128.1.6`])).ok).toBe(false);
    expect((await nsupdate(pdns.dnsPort, acme.zone, keyArg(acme), [`update delete stolen.${acme.zone} A`])).ok).toBe(true);
    expect((await dig(pdns.dnsPort, acme.zone, 'NS')).answers).toEqual(['ns1.lab.example.']);
    expect((await api.call({ path: zonePath }).then((r) => r.json<{ kind: string }>())).kind).toBe('Native');
    expect((await dns.observe(acme)).zone.matches).toBe(true);
  });

  it('publishes and withdraws its own rrsets without touching names the tenant published', async () => {
    const web = { zone: acme.zone, name: `web.${acme.zone}`, type: 'A' as const, content: '10.128.1.10' };
    const webPtr = { zone: acme.reverseZone, name: ptrName('10.128.1.10'), type: 'PTR' as const, content: `web.${acme.zone}` };
    expect(await dns.ensureRecord(web)).toEqual({ object: `record web.${acme.zone} A`, result: 'created' });
    expect((await dns.ensureRecord(webPtr)).result).toBe('created');
    expect(await dns.ensureRecord(web)).toEqual({ object: `record web.${acme.zone} A`, result: 'in-place' });
    expect((await dns.ensureRecord({ ...web, content: '10.128.1.11' })).result).toBe('corrected');
    expect((await dns.ensureRecord(web)).result).toBe('corrected');
    expect((await dig(pdns.dnsPort, web.name)).answers).toEqual(['10.128.1.10']);
    expect((await dig(pdns.dnsPort, webPtr.name, 'PTR')).answers).toEqual([web.name]);

    // The tenant keeps a second A at a name of its own and a TXT at the service's name.
    expect((await nsupdate(pdns.dnsPort, acme.zone, keyArg(acme), [`update add web.${acme.zone} 60 TXT "tenant note"`])).ok).toBe(true);

    await dns.removeRecord({ zone: web.zone, name: web.name, type: 'A' });
    await dns.removeRecord({ zone: web.zone, name: web.name, type: 'A' });
    await dns.removeRecord(webPtr);
    expect((await dig(pdns.dnsPort, web.name)).answers).toEqual([]);
    expect((await dig(pdns.dnsPort, web.name, 'TXT')).answers).toEqual(['"tenant note"']);
    expect((await dig(pdns.dnsPort, `printer.${acme.zone}`)).answers).toEqual(['10.128.1.77']);
    // (the reverse zone was recreated above, so the tenant's PTR that survives is the one added since)
    expect((await dig(pdns.dnsPort, ptrName('10.128.1.9'), 'PTR')).answers).toEqual([`nine.${acme.zone}`]);

    const listed = await dns.listRecords(acme.zone);
    expect(listed).toContainEqual({ name: `printer.${acme.zone}`, type: 'A', ttl: 60, content: '10.128.1.77' });
    expect(listed.some((r) => r.name === web.name && r.type === 'A')).toBe(false);
  });

  it('refuses a record outside the zone it names', async () => {
    await expect(dns.ensureRecord({ zone: acme.zone, name: `x.${beta.zone}`, type: 'A', content: '10.128.2.5' })).rejects.toMatchObject({
      name: 'BackendError',
      retryable: false,
    });
  });

  it('removes zones and key idempotently', async () => {
    await dns.remove(acme);
    await dns.remove(acme);
    expect(await dns.zoneExists(acme.zone)).toBe(false);
    expect(await dns.zoneExists(acme.reverseZone)).toBe(false);
    expect(await dns.zoneExists(beta.zone)).toBe(true);
    expect(await dns.listRecords(acme.zone)).toEqual([]);
    expect(await dns.observe(acme)).toEqual({
      zone: { exists: false, matches: false, drift: [] },
      reverseZone: { exists: false, matches: false, drift: [] },
      tsigKey: { exists: false, matches: false, drift: [] },
    });
    expect((await dig(pdns.dnsPort, `printer.${acme.zone}`)).status).toBe('REFUSED');
  });
});
