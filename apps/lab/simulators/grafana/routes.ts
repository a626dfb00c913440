import type { Context, Hono } from 'hono';
import type { GrafanaState } from './state.js';

/** A Grafana API handler over the simulator's state. */
export type GrafanaHandler = (state: GrafanaState) => (c: Context) => Response | Promise<Response>;

export type GrafanaRoute = [method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, handler: GrafanaHandler];

export function mountGrafanaRoutes(app: Hono, state: GrafanaState, table: GrafanaRoute[]): void {
  for (const [method, path, handler] of table) app.on(method, path, handler(state));
}
