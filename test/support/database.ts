import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';

/** A fresh, migrated database of this test run, copied from the run's template. */
export async function freshDatabase(): Promise<string> {
  const base = inject('pgBaseUrl');
  const template = inject('dbTemplate');
  const name = `${template.replace(/_template$/, '')}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  try {
    // CREATE DATABASE ... TEMPLATE needs the template to have no other session: retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.unsafe(`create database "${name}" template "${template}"`);
        break;
      } catch (err) {
        if (attempt > 20) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await admin.end();
  }
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}
