import type { Context } from 'hono';

/** The controller's answer envelope: `{meta: {rc, msg?}, data: [...]}`, errors with an empty list. */
export const ok = (c: Context, data: unknown[]) => c.json({ meta: { rc: 'ok' }, data });
export const apiError = (c: Context, status: 400 | 401 | 404, msg: string) => c.json({ meta: { rc: 'error', msg }, data: [] }, status);
