import { describe, it, expect } from 'vitest';
import { dataSourceDrift, desiredDataSources, logDataSourceType, secureDigest, type DesiredDataSource, type ObservedDataSource } from './datasources.js';
import { dashboardUrl, deletedOrgName, orgName } from './names.js';

const inputs = { logEndpoint: 'https://logs.site.example', readToken: 'r3ad', selectHeader: 'X-Log-Project', accountId: 1001 };
const desired = desiredDataSources(inputs);

/** What Grafana would return for a data source written exactly as desired. */
function asStored(d: DesiredDataSource): ObservedDataSource {
  const { secureJsonData, ...rest } = d;
  return { ...rest, secureJsonFields: Object.fromEntries(Object.keys(secureJsonData).map((k) => [k, true])), readOnly: false };
}

describe('the three log data sources of a tenant org', () => {
  it.each([
    ['svc-logs-workloads', 'Logs: workloads', '1001-0', false],
    ['svc-logs-platform', 'Logs: platform', '1001-1', false],
    ['svc-logs-devices', 'Logs: devices', '1001-2', true],
  ])('%s is named %s, selects project %s, default=%s', (uid, name, project, isDefault) => {
    const d = desired.find((x) => x.uid === uid);
    expect(d).toMatchObject({ name, type: logDataSourceType, access: 'proxy', url: inputs.logEndpoint, isDefault, basicAuth: false });
    expect(d?.jsonData).toMatchObject({ httpHeaderName1: 'Authorization', httpHeaderName2: 'X-Log-Project' });
    expect(d?.secureJsonData).toEqual({ httpHeaderValue1: 'Bearer r3ad', httpHeaderValue2: project });
    expect(d?.jsonData.svcSecureDigest).toBe(secureDigest(['Bearer r3ad', project]));
  });

  it('exactly one is the default', () => {
    expect(desired.filter((d) => d.isDefault).map((d) => d.uid)).toEqual(['svc-logs-devices']);
  });

  it('the digest never contains the token', () => {
    for (const d of desired) expect(JSON.stringify(d.jsonData)).not.toContain('r3ad');
  });
});

describe('drift of a stored data source', () => {
  const want = desired[2] as DesiredDataSource;
  const rotated = desiredDataSources({ ...inputs, readToken: 'n3w' })[2] as DesiredDataSource;
  const rows: Array<[string, ObservedDataSource, DesiredDataSource, string[]]> = [
    // reason, what Grafana shows, what the service wants, drifted fields
    ['as written: no drift', asStored(want), want, []],
    ['url pointed elsewhere', { ...asStored(want), url: 'http://evil.example' }, want, ['url']],
    ['default moved to another data source', { ...asStored(want), isDefault: false }, want, ['isDefault']],
    ['renamed', { ...asStored(want), name: 'mine' }, want, ['name']],
    ['auth header name changed', { ...asStored(want), jsonData: { ...want.jsonData, httpHeaderName1: 'X-Other' } }, want, ['jsonData']],
    ['extra jsonData added', { ...asStored(want), jsonData: { ...want.jsonData, tlsSkipVerify: true } }, want, ['jsonData']],
    ['secure value cleared', { ...asStored(want), secureJsonFields: { httpHeaderValue1: true } }, want, ['secureJsonData']],
    ['token rotated since it was written: seen through the digest', asStored(want), rotated, ['jsonData']],
  ];
  it.each(rows)('%s', (_reason, actual, target, fields) => {
    expect(dataSourceDrift(actual, target)).toEqual(fields);
  });
});

describe('names', () => {
  it.each([
    ['acme', 7, 'deleted-acme-7'],
    ['b2', 12, 'deleted-b2-12'],
  ])('org of %s (id %i) is renamed %s when emptied', (tenant, id, want) => {
    expect(deletedOrgName(tenant, id)).toBe(want);
  });

  it('the live org carries the tenant name', () => {
    expect(orgName('acme')).toBe('acme');
  });

  it.each([
    ['https://grafana.site.example', 3, 'https://grafana.site.example/?orgId=3'],
    ['https://grafana.site.example/', 3, 'https://grafana.site.example/?orgId=3'],
  ])('dashboard url of %s org %i', (base, id, want) => {
    expect(dashboardUrl(base, id)).toBe(want);
  });
});
