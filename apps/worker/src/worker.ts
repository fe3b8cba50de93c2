import fs from 'node:fs';
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/worker';
import type { Context } from '@temporalio/activity';
import type { Tracing } from '#lib/tracing';
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
/** The same bundle with the OpenTelemetry workflow interceptors, for a worker with tracing on (decision 0263). */
export const PREBUILT_TRACED_WORKFLOW_BUNDLE = path.join(__dirname, '..', '..', '..', 'workflow-bundle-traced.js');
/** The SDK's workflow interceptors: a span per workflow run, signal, update and activity scheduled. */
export const OTEL_WORKFLOW_INTERCEPTORS =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

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
  /** The process's tracing (null or absent: none): spans of workflows and activities, trace context across them. */
  tracing?: Tracing | null;
}): Promise<StartedWorker> {
  const { config, knex } = opts;
  const connection = await NativeConnection.connect({ address: opts.address });
  const clientConnection = await connectClosable({ address: opts.address });
  const tracing = opts.tracing ?? null;
  const client = new Client({
    connection: clientConnection.connection,
    namespace: config.TEMPORAL_NAMESPACE,
    ...(tracing ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {}),
  });
  const draining = new AbortController();
  watchPool('worker', knex);
  const { activities, dispatchWake } = buildActivities({ config, knex, client, draining: draining.signal });
  const code = workflowCode(opts.workflowBundle, tracing !== null);
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    ...code.source,
    activities,
    interceptors: {
      workflowModules: code.workflowModules,
      activity: [
        ...(tracing
          ? [
              (ctx: Context) => ({
                inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
                outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
              }),
            ]
          : []),
        activityMetricsInterceptor,
      ],
    },
    // Workflow spans are made inside the sandbox and leave it through this sink (never on replay).
    ...(tracing ? { sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) } } : {}),
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

/**
 * Tests hand in their bundle; the compiled image has prebuilt ones (with and without the tracing
 * interceptors); otherwise webpack bundles the workflows at start, with the interceptors when
 * tracing is on.
 */
function workflowCode(
  given: WorkerOptions['workflowBundle'],
  traced: boolean,
): { source: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'>; workflowModules: string[] } {
  if (given) return { source: { workflowBundle: given }, workflowModules: [] };
  const prebuilt = traced ? PREBUILT_TRACED_WORKFLOW_BUNDLE : PREBUILT_WORKFLOW_BUNDLE;
  if (fs.existsSync(prebuilt)) return { source: { workflowBundle: { codePath: prebuilt } }, workflowModules: [] };
  return { source: { workflowsPath: WORKFLOWS_PATH }, workflowModules: traced ? [OTEL_WORKFLOW_INTERCEPTORS] : [] };
}
