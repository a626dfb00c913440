import type { WorkerDeploymentVersion } from '@temporalio/common';
import type { Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import { currentBuildId, makeCurrent, untilDrained, type DeploymentScope } from '../../temporal/worker-deployment.js';
import { buildInfo } from '../api/build-info.js';
import { ConfigError, type Config } from '../config/env.js';

/**
 * The version of the service's Worker Deployment this worker runs (docs/upgrading.md): its build id
 * is the build's commit, as `/version` answers it (baked into a production build, read from git in
 * a checkout, `-dirty` when tracked files differ), unless TEMPORAL_WORKER_BUILD_ID names one.
 */
export function workerVersion(config: Config, commit: () => string = () => buildInfo(config).commit): WorkerDeploymentVersion {
  const buildId = config.env.TEMPORAL_WORKER_BUILD_ID ?? commit();
  if (buildId === 'unknown') {
    throw new ConfigError('TEMPORAL_WORKER_BUILD_ID is required: this build does not know its commit (no dist/build-info.json, no git checkout)');
  }
  return { deploymentName: config.env.TEMPORAL_WORKER_DEPLOYMENT, buildId };
}

/** How often a worker that stops when drained asks about its version: one call, cheap for the server. */
export const DRAINED_CHECK_MS = 5_000;

/**
 * Runs the worker as its version: made current when the deployment has none (a new site, or the
 * first versioned release over unversioned workers), else left to the operator's switch
 * (docs/upgrading.md); with `stopWhenDrained`, shut down once no run can need the version.
 */
export async function runAsVersion(
  worker: Worker,
  scope: DeploymentScope,
  version: WorkerDeploymentVersion,
  opts: { stopWhenDrained: boolean; log: Logger },
): Promise<void> {
  const made = await makeCurrent(scope, version, 'first');
  const current = made ? version.buildId : await currentBuildId(scope, version.deploymentName);
  opts.log.info(
    { deployment: version.deploymentName, buildId: version.buildId, currentBuildId: current },
    made ? 'worker version made current: new runs begin on it' : 'worker version polling; new runs begin on the current version',
  );
  const done = new AbortController();
  const running = worker.run();
  if (opts.stopWhenDrained) {
    void untilDrained(scope, version, { everyMs: DRAINED_CHECK_MS, signal: done.signal }).then(() => {
      if (done.signal.aborted || worker.getState() !== 'RUNNING') return;
      opts.log.info({ deployment: version.deploymentName, buildId: version.buildId }, 'worker version drained: no run needs it, stopping');
      worker.shutdown();
    });
  }
  try {
    await running;
  } finally {
    done.abort();
  }
}
