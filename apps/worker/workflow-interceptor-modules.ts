import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The workflow interceptor modules a workflow bundle carries: the sweep metrics always, and
 * OpenTelemetry's (which follow a trace from the client into the workflow and its activities) only
 * in the traced bundle. OpenTelemetry's interceptors cost a span per workflow task and a copy of the
 * OpenTelemetry modules in every cached workflow: measured with the bench, ~22 % of the worker's CPU
 * over a fill and ~60 MB of its peak memory, paid for nothing while no trace is exported. They add
 * no commands, so a run started by one bundle replays on the other (test/contract/workflow-replay).
 */
export function workflowInterceptorModules(opts: { tracing: boolean }): string[] {
  return [
    ...(opts.tracing ? [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')] : []),
    ownModule('./sweep-metrics-workflow-interceptor'),
  ];
}

/** Where the traced bundle lies beside a pre-built one: `workflow-bundle.js` → `workflow-bundle.traced.js`. */
export function tracedBundlePath(bundlePath: string): string {
  return bundlePath.replace(/(\.js)?$/, '.traced.js');
}

function ownModule(path: string): string {
  try {
    return require.resolve(`${path}.js`);
  } catch {
    return require.resolve(`${path}.ts`);
  }
}
