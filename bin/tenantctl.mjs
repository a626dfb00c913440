#!/usr/bin/env node
// `npx tenantctl`: the compiled CLI when built (dist/), else its TypeScript source through tsx.
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const built = new URL('../dist/cli/tenantctl.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../cli/tenantctl.ts', import.meta.url).href);
}
