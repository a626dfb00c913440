import type { Context, Env, Hono } from 'hono';
import type { BlankEnv } from 'hono/types';

/**
 * A simulator's API as a table, one row per route, so the routes a product serves read as a list
 * and each handler stays a small function beside its own checks.
 */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Route<E extends Env = BlankEnv> {
  method: Method;
  /** Hono's pattern, e.g. `/nodes/:node/qemu/:vmid/config`. */
  path: string;
  handler: (c: Context<E>) => Response | Promise<Response>;
}

/**
 * Registers the rows in the table's order: Hono answers with the first route that matches, so a
 * literal segment (`/api/users/lookup`) must come before the parameter it would match (`/:id`).
 */
export function mountRoutes<E extends Env = BlankEnv>(app: Hono<E>, routes: readonly Route<E>[]): void {
  for (const r of routes) app.on(r.method.toUpperCase(), r.path, r.handler);
}

/** A table whose handlers share one context of the product (its state and checks). */
export type TableRow<X> = [method: Method, path: string, handler: (c: Context, x: X) => Response | Promise<Response>];

export function mountTable<X>(app: Hono, rows: readonly TableRow<X>[], x: X): void {
  mountRoutes(
    app,
    rows.map(([method, path, handler]) => ({ method, path, handler: (c: Context) => handler(c, x) })),
  );
}
