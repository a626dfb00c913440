import type { Context, Hono } from 'hono';
import { mountRoutes, type Method } from '../routes.js';
import type { GrafanaState } from './state.js';

/** A Grafana API handler over the simulator's state. */
export type GrafanaHandler = (state: GrafanaState) => (c: Context) => Response | Promise<Response>;

export type GrafanaRoute = [method: Method, path: string, handler: GrafanaHandler];

export function mountGrafanaRoutes(app: Hono, state: GrafanaState, table: GrafanaRoute[]): void {
  mountRoutes(
    app,
    table.map(([method, path, handler]) => ({ method, path, handler: handler(state) })),
  );
}
