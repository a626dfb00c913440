import type { GrafanaState } from '../../apps/lab/simulators/grafana/index.js';

/** The uids of the data sources the Grafana simulator holds as `org`'s default: Grafana keeps one at the most. */
export const defaultDatasourceUids = (state: GrafanaState, org: number): string[] =>
  state
    .datasourcesOf(org)
    .filter((d) => d.isDefault)
    .map((d) => d.uid);
