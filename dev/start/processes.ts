import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { appSecret } from '#lib/config';
import { connectClosable } from '#lib/temporal-connection';
import type { StartContext } from './context';

const ROOT = path.resolve(__dirname, '..', '..');
const READY_WITHIN_MS = 120_000;
const pause = () => new Promise((r) => setTimeout(r, 250));

/** The worker, then the API, each a direct child in its own process group; an unexpected exit stops everything. */
export function spawnWorkerAndApi(ctx: StartContext): void {
  const { config, infra, supervisor } = ctx;
  const env = {
    ...process.env,
    ...ctx.serverEnv,
    JOBFAIR_SUPERVISED: '1',
    APP_SECRET: appSecret(config),
    ...(ctx.demoWebhooks ? { OUTBOUND_HTTP_ALLOW_LOOPBACK: 'true' } : {}),
    DATABASE_URL: infra.databaseUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    ...(infra.temporalUiUrl ? { TEMPORAL_UI_URL: infra.temporalUiUrl } : {}),
  };
  // `node --import tsx` keeps each process a direct child of this one (no tsx wrapper in between),
  // so signals reach it and it can notice when this supervisor is gone.
  const run = (name: string, entry: string, own: Record<string, string>) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], {
      env: { ...env, ...own },
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    child.once('exit', (code, signal) => {
      if (!supervisor.stopping) {
        console.error(`[start] the ${name} exited unexpectedly (${signal ?? `code ${code}`}); stopping everything`);
        void supervisor.stop(1);
      }
    });
    supervisor.children.push(child);
  };
  run('worker', 'apps/worker/src/main.ts', { METRICS_PORT: String(ctx.metricsPorts.worker) });
  run('API', 'apps/api/src/server.ts', { METRICS_PORT: String(ctx.metricsPorts.api) });
  ctx.readyDeadline = Date.now() + READY_WITHIN_MS;
}

/** Waits until the API's /readyz answers 200 (120 s at most, else everything stops). */
export async function awaitApiReady(ctx: StartContext): Promise<void> {
  const readyUrl = `http://127.0.0.1:${ctx.config.PORT}/readyz`;
  for (;;) {
    try {
      const res = await fetch(readyUrl);
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > ctx.readyDeadline) {
      console.error(`[start] ${readyUrl} did not answer 200 within 120 s`);
      return ctx.supervisor.stop(1);
    }
    await pause();
  }
}

/** Ready means the worker polls too: the banner must not promise what no worker can do yet. */
export async function awaitWorkerPolling(ctx: StartContext): Promise<void> {
  const { config } = ctx;
  const connection = await connectClosable({ address: ctx.infra.temporalAddress });
  const client = new Client({ connection: connection.connection, namespace: config.TEMPORAL_NAMESPACE });
  ctx.temporal = { client, close: connection.close };
  for (;;) {
    const { pollers } = await client.workflowService.describeTaskQueue({
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: { name: config.TEMPORAL_TASK_QUEUE },
      taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
    });
    if ((pollers?.length ?? 0) > 0) return;
    if (Date.now() > ctx.readyDeadline) {
      console.error(`[start] no worker polls task queue ${config.TEMPORAL_TASK_QUEUE} after 120 s`);
      return ctx.supervisor.stop(1);
    }
    await pause();
  }
}
