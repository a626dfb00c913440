import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createPowerDnsAdapter, type TenantZoneSpec } from '../../backends/powerdns/powerdns.js';
import { createRecursorAdapter, type ResolverAdapter } from '../../backends/recursor/recursor.js';
import { ptrName, tenantDnsNames } from '../../backends/powerdns/names.js';
import { BackendHttp } from '../../backends/http/client.js';
import { dig, startPowerDns, startRecursor, type RunningDnsServer } from '../support/pdns.js';

/**
 * Two authoritative servers: the tenant DNS server, and a "rogue" one holding a stale copy of the
 * tenant zone with other addresses. The recursor's default route goes to the rogue one, so an
 * answer from it means the tenant forward is missing or points elsewhere.
 */
describe('Recursor adapter against a real pdns_recursor', () => {
  let tenantDns: RunningDnsServer;
  let rogueDns: RunningDnsServer;
  let recursor: RunningDnsServer;
  let resolver: ResolverAdapter;
  let recursorApi: BackendHttp;
  const names = tenantDnsNames({ tenant: 'acme', index: 1, siteDomain: 'lab.example', supernet: '10.128.0.0/16' });
  const spec: TenantZoneSpec = { tenant: 'acme', ...names, tsigSecret: randomBytes(32).toString('base64') };
  const zones = [names.zone, names.reverseZone];
  const web = `web.${names.zone}`;
  let forwardTo: string[];

  async function serve(server: RunningDnsServer, address: string): Promise<void> {
    const dns = createPowerDnsAdapter({ apiUrl: server.apiUrl, apiKey: server.apiKey, nameservers: ['ns1.lab.example.'], updateServer: '' });
    await dns.ensure(spec);
    await dns.ensureRecord({ zone: names.zone, name: web, type: 'A', content: address });
    await dns.ensureRecord({
      zone: names.reverseZone,
      name: ptrName('10.128.1.10'),
      type: 'PTR',
      content: address === '10.128.1.10' ? web : `stale.${names.zone}`,
    });
  }

  beforeAll(async () => {
    [tenantDns, rogueDns] = await Promise.all([startPowerDns(), startPowerDns()]);
    await Promise.all([serve(tenantDns, '10.128.1.10'), serve(rogueDns, '10.128.1.99')]);
    recursor = await startRecursor({ forwardDefault: [`127.0.0.1:${rogueDns.dnsPort}`] });
    resolver = createRecursorAdapter({ apiUrl: recursor.apiUrl, apiKey: recursor.apiKey });
    recursorApi = new BackendHttp('pdns-recursor', recursor.apiUrl, { 'X-API-Key': recursor.apiKey });
    forwardTo = [`127.0.0.1:${tenantDns.dnsPort}`];
  });
  afterAll(async () => {
    await Promise.all([recursor?.stop(), tenantDns?.stop(), rogueDns?.stop()]);
  });

  const resolve = (name: string, type = 'A') => dig(recursor.dnsPort, name, type);

  it('without forwards, the tenant zone is not answered by the tenant DNS server', async () => {
    expect((await resolve(web)).answers).toEqual(['10.128.1.99']);
    expect(await resolver.observe({ zones, forwardTo })).toEqual([
      { zone: names.zone, exists: false, matches: false, drift: [] },
      { zone: names.reverseZone, exists: false, matches: false, drift: [] },
    ]);
  });

  it('forwards both tenant zones to the tenant DNS server', async () => {
    expect(await resolver.ensure({ zones, forwardTo })).toEqual([
      { object: `forward ${names.zone}`, result: 'created' },
      { object: `forward ${names.reverseZone}`, result: 'created' },
    ]);
    expect(await resolve(web)).toEqual({ status: 'NOERROR', answers: ['10.128.1.10'] });
    expect((await resolve(ptrName('10.128.1.10'), 'PTR')).answers).toEqual([web]);
    expect((await resolver.observe({ zones, forwardTo })).every((o) => o.matches)).toBe(true);
    expect((await resolver.ensure({ zones, forwardTo })).map((o) => o.result)).toEqual(['in-place', 'in-place']);
  });

  it('corrects a forward pointed elsewhere, and answers from the tenant DNS server again', async () => {
    const elsewhere = { name: names.zone, type: 'Zone', kind: 'Forwarded', servers: [`127.0.0.1:${rogueDns.dnsPort}`], recursion_desired: false };
    await recursorApi.call({ method: 'PUT', path: `servers/localhost/zones/${names.zone}`, json: elsewhere });
    await recursorApi.call({ method: 'PUT', path: 'servers/localhost/cache/flush', query: { domain: names.zone } });
    expect((await resolve(web)).answers).toEqual(['10.128.1.99']);
    expect((await resolver.observe({ zones, forwardTo }))[0]).toEqual({ zone: names.zone, exists: true, matches: false, drift: ['servers'] });

    expect(await resolver.ensure({ zones, forwardTo })).toEqual([
      { object: `forward ${names.zone}`, result: 'corrected', fields: ['servers'] },
      { object: `forward ${names.reverseZone}`, result: 'in-place' },
    ]);
    // No manual flush here: what the old forward left in the cache must not be served.
    expect((await resolve(web)).answers).toEqual(['10.128.1.10']);
  });

  it('corrects a forward that asks for recursion', async () => {
    const recursing = { name: names.reverseZone, type: 'Zone', kind: 'Forwarded', servers: forwardTo, recursion_desired: true };
    await recursorApi.call({ method: 'PUT', path: `servers/localhost/zones/${names.reverseZone}`, json: recursing });
    expect((await resolver.observe({ zones, forwardTo }))[1]?.drift).toEqual(['recursion_desired']);
    expect((await resolver.ensure({ zones, forwardTo }))[1]?.result).toBe('corrected');
    expect((await resolve(ptrName('10.128.1.10'), 'PTR')).answers).toEqual([web]);
  });

  it('removes the forwards idempotently', async () => {
    await resolver.remove({ zones });
    await resolver.remove({ zones });
    expect((await resolver.observe({ zones, forwardTo })).map((o) => o.exists)).toEqual([false, false]);
    expect((await resolve(web)).answers).toEqual(['10.128.1.99']);
  });
});
