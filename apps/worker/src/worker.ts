import fs from 'node:fs';
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { connectClosable } from '#lib/temporal-connection';
import type { Knex } from 'knex';
import type { Config } from '#lib/config';
import { buildActivities, type BuiltActivities } from './activities';
import { activityMetricsInterceptor } from './metrics';
import { watchPool } from '#lib/metrics';

// index.ts under tsx and jest, index.js in the compiled image (dist/).
export const WORKFLOWS_PATH = path.join(__dirname, '..', '..', '..', 'workflows', `index${path.extname(__filename)}`);
/** Written by `npm run build:dist` beside the compiled code: the worker then starts without webpack. */
export const PREBUILT_WORKFLOW_BUNDLE = path.join(__dirname, '..', '..', '..', 'workflow-bundle.js');

export interface StartedWorker {
  worker: Worker;
  /** The worker's Temporal client (the same one its activities use). */
  client: Client;
  run: Promise<void>;
  /** Nudges this worker's webhook dispatcher, as its own fan-out does after queueing deliveries. */
  dispatchWake: BuiltActivities['dispatchWake'];
  /** Stops polling, lets in-flight activities finish, then closes connections. */
  shutdown: () => Promise<void>;
}

/**
 * Builds a worker for the configured task queue. Tests pass `workflowBundle` (bundled once per
 * test run) instead of bundling per file.
 */
export async function startWorker(opts: {
  config: Config;
  knex: Knex;
  address: string;
  workflowBundle?: WorkerOptions['workflowBundle'];
  shutdownGraceTime?: WorkerOptions['shutdownGraceTime'];
}): Promise<StartedWorker> {
  const { config, knex } = opts;
  const connection = await NativeConnection.connect({ address: opts.address });
  const clientConnection = await connectClosable({ address: opts.address });
  const client = new Client({ connection: clientConnection.connection, namespace: config.TEMPORAL_NAMESPACE });
  const draining = new AbortController();
  watchPool('worker', knex);
  const { activities, dispatchWake } = buildActivities({ config, knex, client, draining: draining.signal });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    ...(opts.workflowBundle
      ? { workflowBundle: opts.workflowBundle }
      : fs.existsSync(PREBUILT_WORKFLOW_BUNDLE)
        ? { workflowBundle: { codePath: PREBUILT_WORKFLOW_BUNDLE } }
        : { workflowsPath: WORKFLOWS_PATH }),
    activities,
    interceptors: { activity: [activityMetricsInterceptor] },
    // With a build id the worker polls as one version of the Worker Deployment; every workflow
    // auto-upgrades to the current version on its next task, so old workers need not outlive the
    // hours-long queue entries, and code changes stay behind patched() (decision 0265).
    ...(config.WORKER_BUILD_ID
      ? {
          workerDeploymentOptions: {
            version: { deploymentName: config.WORKER_DEPLOYMENT_NAME, buildId: config.WORKER_BUILD_ID },
            useWorkerVersioning: true as const,
            defaultVersioningBehavior: 'AUTO_UPGRADE' as const,
          },
        }
      : {}),
    shutdownGraceTime: opts.shutdownGraceTime ?? '30 seconds',
    // After a worker dies, each workflow it had cached sends its next task to the dead worker's
    // sticky queue and waits this long before the task goes to the normal queue (SDK default 10 s;
    // the server keeps routing to a sticky queue until it has seen no poll on it for ~10 s). With a
    // restarted worker back within seconds, every offer to an entry the dead worker had cached, every
    // expiry timer of its matches and the matchmaker's next task waited it out (decisions 0204,
    // 0226). A task that misses it on a live worker is only replayed from history: CPU, not a
    // wrong result.
    stickyQueueScheduleToStartTimeout: '1 second',
  });
  const run = worker.run();
  return {
    worker,
    client,
    run,
    dispatchWake,
    shutdown: async () => {
      draining.abort();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await run.catch(() => undefined);
      await connection.close();
      await clientConnection.close();
    },
  };
}
