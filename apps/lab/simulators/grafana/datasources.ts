/**
 * Data sources of the caller's org (X-Grafana-Org-Id). Followed: grafana pkg/api/datasources.go
 * (AddDataSource 409 with the store's "data source with the same name/uid already exists",
 * "Datasource added"; UpdateDataSourceByUID 404 "Data source not found", 403 "Cannot update read-only
 * data source", 409 on an old `version`; DeleteDataSourceByUID 403 "Cannot delete read-only data
 * source", "Data source deleted"), pkg/services/datasources/models.go (AddDataSourceCommand.ReadOnly
 * is `json:"-"`: the HTTP API cannot make a data source read-only, only provisioning can), and
 * docs http_api/data_source.md. Secure JSON values are write-only: reads return secureJsonFields.
 */
import type { Context } from 'hono';
import { apiError, bindJson, orgAdmin } from './auth.js';
import type { DataSource } from './state.js';
import type { GrafanaHandler, GrafanaRoute } from './routes.js';

function secureFields(d: DataSource): Record<string, boolean> {
  return Object.fromEntries(Object.keys(d.secureJsonData).map((k) => [k, true]));
}

function dto(d: DataSource) {
  return {
    id: d.id,
    uid: d.uid,
    orgId: d.orgId,
    name: d.name,
    type: d.type,
    typeLogoUrl: '',
    access: d.access,
    url: d.url,
    user: d.user,
    database: d.database,
    basicAuth: d.basicAuth,
    basicAuthUser: d.basicAuthUser,
    withCredentials: d.withCredentials,
    isDefault: d.isDefault,
    jsonData: d.jsonData,
    secureJsonFields: secureFields(d),
    version: d.version,
    readOnly: d.readOnly,
  };
}

/** GET /api/datasources lists each without its credentials' user, flags and version (pkg/api/dtos DataSourceListItemDTO). */
function listItem(d: DataSource) {
  const { id, uid, orgId, name, type, typeLogoUrl, access, url, user, database, basicAuth, isDefault, jsonData, readOnly } = dto(d);
  return { id, uid, orgId, name, type, typeName: type, typeLogoUrl, access, url, user, database, basicAuth, isDefault, jsonData, readOnly };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const strings = (v: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(obj(v)).filter(([, s]) => typeof s === 'string')) as Record<string, string>;

function invalidUrl(c: Context, url: string): Response | undefined {
  if (url === '') return undefined;
  try {
    new URL(url);
    return undefined;
  } catch {
    return apiError(c, 400, 'Validation error, invalid URL');
  }
}

/** The fields AddDataSource and UpdateDataSource both take from the form as sent (absent: empty). */
function formFields(b: Record<string, unknown>) {
  return {
    url: str(b.url),
    user: str(b.user),
    database: str(b.database),
    basicAuth: b.basicAuth === true,
    basicAuthUser: str(b.basicAuthUser),
    withCredentials: b.withCredentials === true,
    isDefault: b.isDefault === true,
    jsonData: obj(b.jsonData),
  };
}

const listDataSources: GrafanaHandler = (state) =>
  orgAdmin(state, 'datasources:read', (c, caller) => c.json(state.datasourcesOf(caller.orgId).map(listItem), 200));

const readDataSource: GrafanaHandler = (state) =>
  orgAdmin(state, 'datasources:read', (c, caller) => {
    const d = state.datasourceByUid(caller.orgId, c.req.param('uid') ?? '');
    return d ? c.json(dto(d), 200) : apiError(c, 404, 'Data source not found');
  });

const addDataSource: GrafanaHandler = (state) =>
  orgAdmin(state, 'datasources:create', async (c, caller) => {
    const b = await bindJson(c);
    if (b instanceof Response) return b;
    if (str(b.type) === '' || str(b.access) === '') return apiError(c, 400, 'bad request data');
    const bad = invalidUrl(c, str(b.url));
    if (bad) return bad;
    const uid = str(b.uid) || Math.random().toString(36).slice(2, 16);
    if (!/^[a-zA-Z0-9\-_]{1,40}$/.test(uid)) return apiError(c, 400, 'invalid format of UID. Only alphanumeric characters, hyphen and underscore are allowed');
    const name = str(b.name) || str(b.type);
    const existing = state.datasourcesOf(caller.orgId);
    if (existing.some((d) => d.name === name)) return apiError(c, 409, 'data source with the same name already exists');
    if (existing.some((d) => d.uid === uid)) return apiError(c, 409, 'data source with the same uid already exists');
    const d = state.addDataSource({
      orgId: caller.orgId,
      uid,
      name,
      type: str(b.type),
      access: str(b.access),
      ...formFields(b),
      secureJsonData: strings(b.secureJsonData),
      readOnly: false,
    });
    return c.json({ datasource: dto(d), id: d.id, message: 'Datasource added', name: d.name }, 200);
  });

const updateDataSource: GrafanaHandler = (state) =>
  orgAdmin(state, 'datasources:write', async (c, caller) => {
    const b = await bindJson(c);
    if (b instanceof Response) return b;
    const bad = invalidUrl(c, str(b.url));
    if (bad) return bad;
    const d = state.datasourceByUid(caller.orgId, c.req.param('uid') ?? '');
    if (!d) return apiError(c, 404, 'Data source not found');
    if (d.readOnly) return apiError(c, 403, 'Cannot update read-only data source');
    const name = str(b.name) || d.name;
    if (state.datasourcesOf(caller.orgId).some((o) => o.id !== d.id && o.name === name)) {
      return apiError(c, 409, 'Failed to update datasource: data source with the same name already exists');
    }
    if (typeof b.version === 'number' && b.version !== 0 && b.version < d.version) {
      return apiError(c, 409, 'Datasource has already been updated by someone else. Please reload and try again');
    }
    Object.assign(d, {
      name,
      type: str(b.type) || d.type,
      access: str(b.access) || d.access,
      ...formFields(b),
      // Secure values not sent are kept, as Grafana keeps existing encrypted fields.
      secureJsonData: { ...d.secureJsonData, ...strings(b.secureJsonData) },
      version: d.version + 1,
    });
    if (d.isDefault) state.onlyDefault(d);
    return c.json({ datasource: dto(d), id: d.id, message: 'Datasource updated', name: d.name }, 200);
  });

const deleteDataSource: GrafanaHandler = (state) =>
  orgAdmin(state, 'datasources:delete', (c, caller) => {
    const d = state.datasourceByUid(caller.orgId, c.req.param('uid') ?? '');
    if (!d) return apiError(c, 404, 'Data source not found');
    if (d.readOnly) return apiError(c, 403, 'Cannot delete read-only data source');
    state.datasources.delete(d.id);
    return c.json({ message: 'Data source deleted', id: d.id }, 200);
  });

export const DATA_SOURCE_ROUTES: GrafanaRoute[] = [
  ['get', '/api/datasources', listDataSources],
  ['get', '/api/datasources/uid/:uid', readDataSource],
  ['post', '/api/datasources', addDataSource],
  ['put', '/api/datasources/uid/:uid', updateDataSource],
  ['delete', '/api/datasources/uid/:uid', deleteDataSource],
];
