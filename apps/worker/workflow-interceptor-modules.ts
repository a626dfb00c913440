import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The workflow interceptor modules every workflow bundle carries (the production bundle, the
 * tests', and the worker's own when it bundles from source): OpenTelemetry's, which follow a
 * trace from the client into the workflow and its activities, and the sweep metrics.
 */
export function workflowInterceptorModules(): string[] {
  return [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors'), ownModule('./sweep-metrics-workflow-interceptor')];
}

function ownModule(path: string): string {
  try {
    return require.resolve(`${path}.js`);
  } catch {
    return require.resolve(`${path}.ts`);
  }
}
