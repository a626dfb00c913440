import type { Context } from 'hono';
import type { Route } from '../routes.js';
import { apiError, ok } from './envelope.js';
import { applyWlanUpdate, refuseWlanUpdate, type UnifiSite } from './model.js';

/** Requests under `api/s/<site>`, the site already resolved (an unknown one: NoSiteContext). */
export type SiteEnv = { Variables: { site: UnifiSite } };
type SiteContext = Context<SiteEnv>;

function byId<T extends { _id: string }>(c: SiteContext, list: T[]): Response {
  const item = list.find((i) => i._id === c.req.param('id'));
  return item ? ok(c, [item]) : apiError(c, 400, 'api.err.IdInvalid');
}

/** A PUT of the changed fields; a refused field answers as Network 10.4.57 does (index.ts). */
async function updateWlan(c: SiteContext, onWrite: () => void): Promise<Response> {
  const site = c.get('site');
  const wlan = site.wlans.find((w) => w._id === c.req.param('id'));
  if (!wlan) return apiError(c, 400, 'api.err.IdInvalid');
  const body = (await c.req.json().catch(() => undefined)) as unknown;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return apiError(c, 400, 'api.err.InvalidPayload');
  const refusal = refuseWlanUpdate(site, wlan, body as Record<string, unknown>);
  if (refusal) {
    return c.json(
      {
        meta: { rc: 'error', msg: 'api.err.InvalidPayload' },
        data: [{ rc: 'error', msg: 'api.err.InvalidValue', validationError: refusal }],
      },
      400,
    );
  }
  applyWlanUpdate(wlan, body as Record<string, unknown>);
  onWrite();
  return ok(c, [wlan]);
}

/** The `rest/networkconf` and `rest/wlanconf` collections; `onWrite` counts successful PUTs. */
export function restRoutes(onWrite: () => void): Route<SiteEnv>[] {
  return [
    { method: 'get', path: '/s/:site/rest/networkconf', handler: (c) => ok(c, c.get('site').networks) },
    { method: 'get', path: '/s/:site/rest/networkconf/:id', handler: (c) => byId(c, c.get('site').networks) },
    { method: 'get', path: '/s/:site/rest/wlanconf', handler: (c) => ok(c, c.get('site').wlans) },
    { method: 'get', path: '/s/:site/rest/wlanconf/:id', handler: (c) => byId(c, c.get('site').wlans) },
    { method: 'put', path: '/s/:site/rest/wlanconf/:id', handler: (c) => updateWlan(c, onWrite) },
  ];
}
