import { bundleWorkflowCode } from '@temporalio/worker';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workflowInterceptorModules } from '../apps/worker/workflow-interceptor-modules.js';

/**
 * Pre-builds the workflow bundle the production worker loads through WORKFLOW_BUNDLE (design §4), so
 * a worker starts without webpack and every replica runs byte-identical workflow code. The failure
 * converter and the workflow interceptor modules go into the bundle because the workflow sandbox
 * loads them by path, not from the worker.
 *
 * Usage: npx tsx scripts/build-workflow-bundle.ts [output path, default dist/workflow-bundle.js]
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? resolve(root, 'dist/workflow-bundle.js'));

const { code } = await bundleWorkflowCode({
  workflowsPath: resolve(root, 'workflows/index.ts'),
  failureConverterPath: resolve(root, 'temporal/failure-converter.ts'),
  // Tracing and the sweep metrics run inside the workflow sandbox, so they ship in the bundle.
  workflowInterceptorModules: workflowInterceptorModules(),
});
await mkdir(dirname(out), { recursive: true });
await writeFile(out, code);
process.stdout.write(`workflow bundle: ${out} (${Math.round(code.length / 1024)} KiB)\n`);
