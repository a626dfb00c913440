import { grafanaSettings } from './settings.js';
import type { DashboardsPort } from './port.js';
import { BackendError } from '../../core/backend-outcome.js';
import type { Site } from '../site.js';
import { LOG_SELECT_HEADER } from '../../core/tenant-view.js';
import { type BackendArea, jsonApi, probe } from '../backend-area.js';
import { logDataSourceType } from '../../backends/grafana/datasources.js';
import { createGrafanaAdapter } from '../../backends/grafana/grafana.js';

/** The pre-0.13 id of the VictoriaLogs data source plugin. */
const PRE_013_LOG_PLUGIN = 'victorialogs-datasource';
const GRAFANA_PLUGIN_FIX = `the VictoriaLogs data source plugin (${logDataSourceType}, 0.13 or later) is not installed: tenants' data sources would not work; install it (grafana cli plugins install ${logDataSourceType}, or GF_INSTALL_PLUGINS) and restart Grafana`;

/** Grafana: each tenant's organization, login and log data source (which needs the log store). */
export const dashboardsArea: BackendArea<'dashboards', DashboardsPort | undefined, typeof grafanaSettings> = {
  port: 'dashboards',
  settings: grafanaSettings,
  bind: (site, timeoutMs, calls) => {
    const logStore = site.logStore;
    if (!site.grafana || !logStore) return undefined;
    const grafana = createGrafanaAdapter({ ...site.grafana, timeoutMs, calls });
    const source = { logEndpoint: logStore.endpoint, selectHeader: LOG_SELECT_HEADER };
    return {
      ensure: (spec) => grafana.ensure({ ...spec, ...source }),
      plan: (spec) => grafana.plan({ ...spec, ...source }),
      loginExists: (username) => grafana.loginExists(username),
      remove: (spec) => grafana.remove(spec),
    };
  },
  probes: (site, timeoutMs) => (site.grafana ? [grafanaProbe(site.grafana, timeoutMs)] : []),
};

function grafanaProbe(g: NonNullable<Site['grafana']>, timeoutMs: number) {
  return probe('grafana', g.url, async () => {
    const auth = `Basic ${Buffer.from(`${g.adminUser}:${g.adminPassword}`).toString('base64')}`;
    const api = jsonApi('grafana', g.url, { authorization: auth }, timeoutMs, g.ca);
    const me = (await api.call({ path: '/api/user' })).json<{ login?: string; isGrafanaAdmin?: boolean }>();
    if (!me.isGrafanaAdmin) throw new BackendError('grafana', `${me.login ?? 'the admin user'} is not a Grafana server admin`, false);
    // Grafana accepts a data source of a type no installed plugin provides: ask for the plugin.
    const plugin = await api.call({ path: `/api/plugins/${logDataSourceType}/settings`, accept: [404] });
    if (plugin.status === 404) {
      const old = await api.call({ path: `/api/plugins/${PRE_013_LOG_PLUGIN}/settings`, accept: [404] });
      throw new BackendError(
        'grafana',
        old.status === 404 ? GRAFANA_PLUGIN_FIX : `${GRAFANA_PLUGIN_FIX} (it has ${PRE_013_LOG_PLUGIN}, the plugin before 0.13, whose id differs)`,
        false,
        404,
      );
    }
    const version = plugin.json<{ info?: { version?: string } }>().info?.version ?? '?';
    return `signed in as ${me.login ?? '?'} (server admin); plugin ${logDataSourceType} ${version}`;
  });
}
