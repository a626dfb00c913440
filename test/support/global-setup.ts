import { tracedBundlePath } from '../../apps/worker/workflow-interceptor-modules.js';
import { buildWorkflowBundle } from '../../apps/worker/workflow-bundles.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { Registry } from '../../db/registry.js';
import { startDevServer } from '../../temporal/dev-server.js';
import { buildEntryBundles, type EntryBundles } from './entry-bundles.js';

/**
 * Shared servers, started once per test run (design §8): the Temporal dev server, a freshly
 * migrated template database (each suite copies it into its own database), the workflow
 * bundle (built once instead of once per worker), and the entry points the tests start as
 * processes, compiled once (test/support/entry-bundles.ts).
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    pgBaseUrl: string;
    dbTemplate: string;
    workflowBundle: string;
    entryBundles: EntryBundles;
  }
}

export function pgBaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function databaseUrl(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const runDir = join(root, '.test-run', runId);
  mkdirSync(runDir, { recursive: true });
  // Node's on-disk compile cache for every process the run starts (the pool's, and the ~110 worker
  // and API processes the tests spawn, which inherit it): a spawned worker compiles its modules once
  // per run, not once per start (~0.1 s of CPU a start).
  process.env.NODE_COMPILE_CACHE = join(runDir, 'compile-cache');

  const base = pgBaseUrl();
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const template = `tp_${runId}_template`;
  await admin.unsafe(`create database "${template}"`);
  const registry = new Registry(databaseUrl(base, template), undefined, 1);
  await registry.migrate();
  await registry.close();

  // Both bundles, built as the image builds them (apps/worker/workflow-bundles.ts): the worker loads
  // the traced one when tracing is on.
  const [temporal, bundle, traced, entryBundles] = await Promise.all([
    startDevServer({ projectRoot: root }),
    buildWorkflowBundle(false, { quiet: true }),
    buildWorkflowBundle(true, { quiet: true }),
    buildEntryBundles(root, runDir),
  ]);
  const bundlePath = join(runDir, 'workflow-bundle.js');
  writeFileSync(bundlePath, bundle);
  writeFileSync(tracedBundlePath(bundlePath), traced);

  project.provide('temporalAddress', temporal.address);
  project.provide('pgBaseUrl', base);
  project.provide('dbTemplate', template);
  project.provide('workflowBundle', bundlePath);
  project.provide('entryBundles', entryBundles);

  return async () => {
    await temporal.stop();
    const dbs = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${`tp_${runId}_%`}`;
    for (const { datname } of dbs) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    await admin.end();
  };
}
