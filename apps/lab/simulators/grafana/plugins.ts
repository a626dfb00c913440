/**
 * Installed plugins, as far as the service asks: grafana pkg/api/plugins.go GetPluginSettingByID
 * (`GET /api/plugins/:pluginId/settings`, any signed-in user for a data source plugin): the
 * plugin's settings DTO, or 404 "Plugin not found, no installed plugin with that id". Grafana
 * itself accepts a data source of a type no installed plugin provides, so the data source
 * routes do not check this; only the question asked here tells.
 */
import { apiError, withCaller } from './auth.js';
import type { GrafanaRoute } from './routes.js';

/** The VictoriaLogs data source plugin, id since its 0.13.0 (before: `victorialogs-datasource`). */
export const VICTORIALOGS_PLUGIN = { id: 'victoriametrics-logs-datasource', name: 'VictoriaLogs', version: '0.14.1' };

export const PLUGIN_ROUTES: GrafanaRoute[] = [
  [
    'get',
    '/api/plugins/:pluginId/settings',
    (state) =>
      withCaller(state, (c) => {
        const plugin = state.plugins.get(c.req.param('pluginId') ?? '');
        if (!plugin) return apiError(c, 404, 'Plugin not found, no installed plugin with that id');
        return c.json({
          name: plugin.name,
          type: 'datasource',
          id: plugin.id,
          enabled: true,
          pinned: false,
          autoEnabled: true,
          info: { version: plugin.version, updated: '' },
          hasUpdate: false,
          defaultNavUrl: '',
          state: '',
          signature: 'valid',
        });
      }),
  ],
];
