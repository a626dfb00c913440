/**
 * The three log data sources every tenant organization holds, as pure data: what to write, and
 * whether what Grafana shows still matches it.
 *
 * Grafana never returns secure JSON values, only which keys are set, so a rotated read token could
 * not be seen. A SHA-256 of the secure header values is kept in jsonData beside them: a digest of a
 * random token reveals nothing, and a mismatch tells the adapter to write the values again.
 */
import { createHash } from 'node:crypto';
import { projectHeaderValue } from '../../core/tenant-view.js';

export const logDataSourceType = 'victoriametrics-logs-datasource';

export const logDataSources = [
  { uid: 'svc-logs-workloads', name: 'Logs: workloads', project: 0, isDefault: false },
  { uid: 'svc-logs-platform', name: 'Logs: platform', project: 1, isDefault: false },
  { uid: 'svc-logs-devices', name: 'Logs: devices', project: 2, isDefault: true },
] as const;

export interface DataSourceInputs {
  /** The log endpoint Grafana queries (the gateway's URL). */
  logEndpoint: string;
  readToken: string;
  /** Name of the header choosing the project. */
  selectHeader: string;
  accountId: number;
}

export interface DesiredDataSource {
  uid: string;
  name: string;
  type: string;
  access: 'proxy';
  url: string;
  isDefault: boolean;
  basicAuth: false;
  jsonData: Record<string, string>;
  secureJsonData: Record<string, string>;
}

/** What GET /api/datasources/uid/:uid returns, the parts that matter here. */
export interface ObservedDataSource {
  uid: string;
  name: string;
  type: string;
  access: string;
  url: string;
  isDefault: boolean;
  basicAuth: boolean;
  jsonData?: Record<string, unknown>;
  secureJsonFields?: Record<string, boolean>;
  readOnly?: boolean;
}

export function secureDigest(values: string[]): string {
  return createHash('sha256').update(values.join('\n')).digest('hex');
}

export function desiredDataSources(i: DataSourceInputs): DesiredDataSource[] {
  return logDataSources.map((d) => {
    const values = [`Bearer ${i.readToken}`, projectHeaderValue(i.accountId, d.project)];
    return {
      uid: d.uid,
      name: d.name,
      type: logDataSourceType,
      access: 'proxy',
      url: i.logEndpoint,
      isDefault: d.isDefault,
      basicAuth: false,
      jsonData: {
        httpHeaderName1: 'Authorization',
        httpHeaderName2: i.selectHeader,
        svcSecureDigest: secureDigest(values),
      },
      secureJsonData: { httpHeaderValue1: values[0] as string, httpHeaderValue2: values[1] as string },
    };
  });
}

function sameJson(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, n) => k === kb[n] && JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

/** Names of the fields that differ; empty when the data source is as desired. Secret-free. */
export function dataSourceDrift(actual: ObservedDataSource, want: DesiredDataSource): string[] {
  const drift: string[] = [];
  if (actual.name !== want.name) drift.push('name');
  if (actual.type !== want.type) drift.push('type');
  if (actual.access !== want.access) drift.push('access');
  if (actual.url !== want.url) drift.push('url');
  if (actual.isDefault !== want.isDefault) drift.push('isDefault');
  if (actual.basicAuth !== want.basicAuth) drift.push('basicAuth');
  if (!sameJson(actual.jsonData ?? {}, want.jsonData)) drift.push('jsonData');
  const fields = actual.secureJsonFields ?? {};
  if (Object.keys(want.secureJsonData).some((k) => fields[k] !== true)) drift.push('secureJsonData');
  return drift;
}
