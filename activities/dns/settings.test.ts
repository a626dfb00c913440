import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../apps/config/env.js';

/** The secondaries a site declares (issue 45 item 2): addresses only, and a catalog only with them. */
const env = {
  OPERATOR_TOKEN: 'op-token-0123456789abcdef',
  DATABASE_URL: 'postgres://svc:pw@db.internal:5432/registry',
  SITE_DOMAIN: 'lab.example.net',
  SITE_TOKEN_KEY: Buffer.alloc(32, 1).toString('base64'),
  SITE_SECRETS_KEY: Buffer.alloc(32, 2).toString('base64'),
  SITE_PDNS_URL: 'http://pdns.internal:8081',
  SITE_PDNS_API_KEY: 'pdns-key',
  SITE_DNS_UPDATE_SERVER: 'ns.internal:53',
  SITE_RECURSOR_URL: 'http://recursor.internal:8082',
  SITE_RECURSOR_API_KEY: 'recursor-key',
  SITE_RECURSOR_FORWARD_TO: '10.0.0.53:53',
  SITE_MINIO_URL: 'http://minio.internal:9000',
  SITE_MINIO_ACCESS_KEY: 'minio-admin',
  SITE_MINIO_SECRET_KEY: 'minio-secret',
  SITE_PROXMOX_URL: 'https://pve.internal:8006/api2/json',
  SITE_PROXMOX_TOKEN_ID: 'svc@pve!prov',
  SITE_PROXMOX_TOKEN_SECRET: 'pve-secret',
};

describe('SITE_DNS_SECONDARIES and SITE_DNS_CATALOG', () => {
  it('without secondaries there is no catalog: the zones stay Native', () => {
    const dns = loadConfig({ ...env, SITE_DNS_CATALOG: 'cat.lab.example.net' }).site!.dns;
    expect(dns).toMatchObject({ secondaries: [], catalog: undefined });
  });

  it('takes addresses with and without a port; the catalog defaults under the site domain', () => {
    const dns = loadConfig({ ...env, SITE_DNS_SECONDARIES: '192.0.2.54, 192.0.2.55:5300,[2001:db8::53]:53,2001:db8::54' }).site!.dns;
    expect(dns.secondaries).toEqual(['192.0.2.54:53', '192.0.2.55:5300', '[2001:db8::53]:53', '[2001:db8::54]:53']);
    expect(dns.catalog).toBe('catalog.lab.example.net.');
    expect(loadConfig({ ...env, SITE_DNS_SECONDARIES: '192.0.2.54', SITE_DNS_CATALOG: 'Zones.Lab.Example.Net' }).site!.dns.catalog).toBe(
      'zones.lab.example.net.',
    );
  });

  it('refuses a name where an address belongs, naming the variable', () => {
    expect(() => loadConfig({ ...env, SITE_DNS_SECONDARIES: 'ns2.lab.example.net' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, SITE_DNS_SECONDARIES: 'ns2.lab.example.net' })).toThrow(/SITE_DNS_SECONDARIES/);
    expect(() => loadConfig({ ...env, SITE_DNS_SECONDARIES: '192.0.2.1:99999' })).toThrow(/SITE_DNS_SECONDARIES/);
  });
});
