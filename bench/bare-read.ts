import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import postgres from 'postgres';

/**
 * The comparison for reads: a bare Hono route answering one registry row by primary key through
 * postgres.js, in its own process like the API, with the API's pool size. Started by the bench with
 * BARE_PORT and DATABASE_URL set.
 */
const port = process.env.BARE_PORT;
const databaseUrl = process.env.DATABASE_URL;
if (!port || !databaseUrl) throw new Error('bare-read: BARE_PORT and DATABASE_URL must be set');
const sql = postgres(databaseUrl, { max: 10 });
const app = new Hono();
app.get('/bare/:name', async (c) => {
  const [row] = await sql`select * from tenants where name = ${c.req.param('name')}`;
  return row ? c.json(row) : c.json({ error: 'not found' }, 404);
});
serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' });
