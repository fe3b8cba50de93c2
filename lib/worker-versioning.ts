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

const seconds = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  t ? Number(t.seconds ?? 0) + (t.nanos ?? 0) / 1e9 : 0;

/**
 * The build ids of the deployment registered after `buildId` (its workers first polled later). A
 * worker that restarts during or after a rollout must not switch the fleet back to its older code.
 */
export async function newerBuildIds(client: Client, namespace: string, version: DeploymentVersion): Promise<string[]> {
  const res = await client.workflowService.describeWorkerDeployment({
    namespace,
    deploymentName: version.deploymentName,
  });
  const all = res.workerDeploymentInfo?.versionSummaries ?? [];
  const own = all.find((v) => v.deploymentVersion?.buildId === version.buildId);
  if (!own) return [];
  return all
    .filter((v) => seconds(v.createTime) > seconds(own.createTime))
    .map((v) => v.deploymentVersion?.buildId ?? '')
    .filter(Boolean);
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
  opts: {
    identity?: string;
    timeoutMs?: number;
    onRetry?: (err: Error) => void;
    /** Leave the current version alone when a newer version exists (a worker promoting itself); resolves false then. */
    onlyIfNewest?: boolean;
  } = {},
): Promise<boolean> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    try {
      if ((await currentBuildId(client, namespace, version.deploymentName)) === version.buildId) return true;
      if (opts.onlyIfNewest && (await newerBuildIds(client, namespace, version)).length) return false;
      await client.workflowService.setWorkerDeploymentCurrentVersion({
        namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        identity: opts.identity ?? 'jobfair',
      });
      return true;
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
