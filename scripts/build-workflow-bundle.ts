import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tracedBundlePath } from '../apps/worker/workflow-interceptor-modules.js';
import { buildWorkflowBundle } from '../apps/worker/workflow-bundles.js';

/**
 * Pre-builds the workflow bundles the production worker loads through WORKFLOW_BUNDLE (design §4), so
 * a worker starts without webpack and every replica runs byte-identical workflow code. The failure
 * converter and the workflow interceptor modules go into the bundle because the workflow sandbox
 * loads them by path, not from the worker. Two bundles: the plain one at the given path, and the
 * traced one beside it (`.traced.js`, with OpenTelemetry's workflow interceptors), which the worker
 * loads instead when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 *
 * Usage: npx tsx scripts/build-workflow-bundle.ts [output path, default dist/workflow-bundle.js]
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? resolve(root, 'dist/workflow-bundle.js'));

await mkdir(dirname(out), { recursive: true });
for (const [path, tracing] of [
  [out, false],
  [tracedBundlePath(out), true],
] as const) {
  const code = await buildWorkflowBundle(tracing);
  await writeFile(path, code);
  process.stdout.write(`workflow bundle: ${path} (${Math.round(code.length / 1024)} KiB)\n`);
}
