import { isGrpcServiceError, type ConnectionLike } from '@temporalio/client';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import proto from '@temporalio/proto';

const { temporal } = proto;
const { VersionDrainageStatus, WorkerDeploymentVersionStatus } = temporal.api.enums.v1;

/** 5: gRPC's NOT_FOUND, what Temporal answers about a deployment no worker has polled as yet. */
const NOT_FOUND = 5;

/**
 * A release's workers are one version of the service's Worker Deployment (docs/upgrading.md): new
 * runs begin on the deployment's current version and stay pinned to it to their end. These are the
 * calls the worker and the lab make about their own version; operators make the same ones with
 * `temporal worker deployment ...`.
 */
export interface DeploymentScope {
  connection: ConnectionLike;
  namespace: string;
}

/** The deployment's current build id; undefined when it has none, or no worker of it has polled yet. */
export async function currentBuildId(scope: DeploymentScope, deploymentName: string): Promise<string | undefined> {
  try {
    const { workerDeploymentInfo } = await scope.connection.workflowService.describeWorkerDeployment({ namespace: scope.namespace, deploymentName });
    return workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || undefined;
  } catch (err) {
    if (isGrpcServiceError(err) && err.code === NOT_FOUND) return undefined;
    throw err;
  }
}

/**
 * Makes `version` its deployment's current one and says whether it did. `first`: only when the
 * deployment has no current version (a new site, or the first versioned release replacing
 * unversioned workers), so a worker of the next release, started beside the running one, serves
 * nothing until an operator moves new runs to it. `always`: the lab's, whose one worker is the site.
 * Done before the worker polls, so nothing waits for a version to be chosen.
 */
export async function makeCurrent(scope: DeploymentScope, version: WorkerDeploymentVersion, when: 'first' | 'always'): Promise<boolean> {
  const current = await currentBuildId(scope, version.deploymentName);
  if (current === version.buildId || (current !== undefined && when === 'first')) return false;
  await scope.connection.workflowService.setWorkerDeploymentCurrentVersion({
    namespace: scope.namespace,
    deploymentName: version.deploymentName,
    buildId: version.buildId,
    identity: `worker ${version.buildId}`,
    // The worker polls right after: without these, a version no worker has polled yet is refused.
    allowNoPollers: true,
    ignoreMissingTaskQueues: true,
  });
  return true;
}

export type VersionState = 'inactive' | 'current' | 'ramping' | 'draining' | 'drained' | 'unknown';

/** Where new runs and open runs stand with the version: `drained` once none is open or can begin on it. */
export async function versionState(scope: DeploymentScope, version: WorkerDeploymentVersion): Promise<VersionState> {
  const { workerDeploymentVersionInfo: info } = await scope.connection.workflowService.describeWorkerDeploymentVersion({
    namespace: scope.namespace,
    deploymentVersion: version,
  });
  switch (info?.status) {
    case WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_CURRENT:
      return 'current';
    case WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_RAMPING:
      return 'ramping';
    case WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_INACTIVE:
      return 'inactive';
  }
  const drainage = info?.drainageInfo?.status;
  if (drainage === VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINED) return 'drained';
  if (drainage === VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINING) return 'draining';
  return 'unknown';
}

/**
 * Resolves once the version has drained: it is neither current nor ramping and no run pinned to it
 * is open (Temporal decides from its visibility store, minutes after the last one closed). Errors
 * reading it are retried; `signal` ends the wait.
 */
export async function untilDrained(scope: DeploymentScope, version: WorkerDeploymentVersion, opts: { everyMs: number; signal: AbortSignal }): Promise<void> {
  while (!opts.signal.aborted) {
    const state = await versionState(scope, version).catch(() => 'unknown' as const);
    if (state === 'drained') return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, opts.everyMs);
      opts.signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
  }
}
