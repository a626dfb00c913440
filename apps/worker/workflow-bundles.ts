import { bundleWorkflowCode } from '@temporalio/worker';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workflowInterceptorModules } from './workflow-interceptor-modules.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The workflow bundle the production worker loads (WORKFLOW_BUNDLE, design §4): the workflows with
 * the failure converter and the workflow interceptor modules, which the sandbox loads by path.
 * `tracing` picks OpenTelemetry's workflow interceptors in (the `.traced.js` bundle). One builder
 * for the image (scripts/build-workflow-bundle.ts), the tests' workers and the replay test, so
 * the replay test replays what ships.
 */
export async function buildWorkflowBundle(tracing: boolean, opts: { quiet?: boolean; interceptorModules?: string[] } = {}): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: resolve(root, 'workflows/index.ts'),
    failureConverterPath: resolve(root, 'temporal/failure-converter.ts'),
    // `interceptorModules`: a release's change made without touching the sources (test/e2e/release-upgrade.test.ts).
    workflowInterceptorModules: [...workflowInterceptorModules({ tracing }), ...(opts.interceptorModules ?? [])],
    ...(opts.quiet ? { logger: { trace() {}, debug() {}, info() {}, warn() {}, error: (m: string) => console.error(m), log() {} } } : {}),
  });
  return code;
}
