import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';

/**
 * Worker Versioning (Worker Deployments, decision 0265): a worker started with a build id polls as
 * version `<deployment>.<buildId>`; the server sends every workflow task to the deployment's current
 * version (workflows auto-upgrade), so switching the current version is the one moment a rolling
 * update moves the fleet from the old code to the new one, and old and new workers never share a
 * workflow's history.
 */
export interface DeploymentVersion {
  deploymentName: string;
  buildId: string;
}

/** The deployment's current build id, or null when it has none (or does not exist yet). */
export async function currentBuildId(
  client: Client,
  namespace: string,
  deploymentName: string,
): Promise<string | null> {
  try {
    const res = await client.workflowService.describeWorkerDeployment({ namespace, deploymentName });
    return res.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || null;
  } catch (err) {
    if ((err as { code?: number }).code === 5 /* NOT_FOUND */) return null;
    throw err;
  }
}

/**
 * Makes `version` the deployment's current version: from the next workflow task on, every workflow
 * (running or new) runs on it. The server knows a version only once one of its workers has polled,
 * and refuses a version that does not poll every task queue the current one does; both are retried
 * until `timeoutMs`. Idempotent: a version already current is left as is.
 */
export async function setCurrentVersion(
  client: Client,
  namespace: string,
  version: DeploymentVersion,
  opts: { identity?: string; timeoutMs?: number; onRetry?: (err: Error) => void } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    try {
      if ((await currentBuildId(client, namespace, version.deploymentName)) === version.buildId) return;
      await client.workflowService.setWorkerDeploymentCurrentVersion({
        namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        identity: opts.identity ?? 'jobfair',
      });
      return;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(
          `could not make ${version.deploymentName}.${version.buildId} the current version: ${(err as Error).message}`,
        );
      opts.onRetry?.(err as Error);
      await sleep(500);
    }
  }
}
