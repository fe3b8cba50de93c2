// First: tracing patches `pg` and `http` as they are required (decision 0263).
import { tracing } from './instrument';
import { Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { loadConfig } from '#lib/config';
import { createLogger } from '#lib/logger';
import { createKnex } from '#db/knex';
import { startWorker } from './worker';
import { kickMatchmaker } from '#workflows/matchmaking/client';
import { ensureRetention } from '#workflows/retention/client';
import { exitWithParent } from '#lib/supervision';
import { freeLoopbackPort, startMetricsServer, type MetricsServer } from '#lib/metrics';
import { temporalMetricsText } from './metrics';
import { setCurrentVersion } from '#lib/worker-versioning';

/**
 * The SDK's own chatter at `info` (bundling with webpack's output, worker state changes) is for
 * debugging the worker, not news: `debug`. Workflows' and activities' own logs keep their level —
 * those are the business events ("match … accepted by both").
 */
function sdkLogLevel(
  level: string,
  meta: Record<string, unknown> | undefined,
): 'trace' | 'debug' | 'info' | 'warn' | 'error' {
  const l = level.toLowerCase() as 'trace' | 'debug' | 'info' | 'warn' | 'error';
  if (l !== 'info') return l;
  return meta?.sdkComponent === 'workflow' || meta?.sdkComponent === 'activity' ? 'info' : 'debug';
}

/** Process shell of the worker: config, logging, dependencies, graceful shutdown on SIGINT/SIGTERM. */
async function main() {
  const config = loadConfig();
  const log = createLogger(config, 'worker');
  const sdkMetricsPort = config.METRICS_PORT !== undefined ? await freeLoopbackPort() : null;
  Runtime.install({
    logger: {
      log: (level, message, meta) => log[sdkLogLevel(level, meta)](meta ?? {}, message),
      trace: (m, meta) => log.trace(meta ?? {}, m),
      debug: (m, meta) => log.debug(meta ?? {}, m),
      info: (m, meta) => log[sdkLogLevel('INFO', meta)](meta ?? {}, m),
      warn: (m, meta) => log.warn(meta ?? {}, m),
      error: (m, meta) => log.error(meta ?? {}, m),
    },
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) },
      // The SDK's own metrics (schedule-to-start, task latencies, slots, polls) on a loopback port,
      // appended to this process's METRICS_PORT scrape: one target per process (decision 0258).
      ...(sdkMetricsPort
        ? {
            metrics: {
              prometheus: { bindAddress: `127.0.0.1:${sdkMetricsPort}`, useSecondsForDurations: true },
            },
          }
        : {}),
    },
  });
  let metrics: MetricsServer | null = null;
  if (config.METRICS_PORT !== undefined && sdkMetricsPort) {
    metrics = await startMetricsServer({
      host: config.HOST,
      port: config.METRICS_PORT,
      extra: temporalMetricsText(sdkMetricsPort),
    });
    log.info({ port: metrics.port }, `metrics: http://${config.HOST}:${metrics.port}/metrics`);
  }
  if (!config.DATABASE_URL)
    throw new Error('DATABASE_URL is required for the worker (npm start sets it for the embedded PostgreSQL)');
  if (!config.TEMPORAL_ADDRESS)
    throw new Error('TEMPORAL_ADDRESS is required for the worker (npm start sets it for the dev server)');
  const knex = createKnex(config.DATABASE_URL, config.DATABASE_POOL_MAX);
  // Signals are handled from the first moment: one that arrives while the worker is still
  // bundling and connecting stops it as soon as it has started, still cleanly.
  let stopping: string | null = null;
  let started: Awaited<ReturnType<typeof startWorker>> | null = null;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = reason;
    log.info({ reason }, 'worker shutting down: in-flight activities finish, the rest are retried by Temporal');
    // The metrics listener goes first: its port is free for a successor while this one drains.
    const metricsClosed = metrics?.close();
    if (!started) {
      // Still starting: nothing is running yet. A signal lets start-up finish and then drains
      // (main() below); a vanished supervisor may mean Temporal is gone too, so exit now.
      if (reason === 'supervisor gone') process.exit(0);
      return;
    }
    await started.shutdown();
    await knex.destroy();
    await metricsClosed;
    await tracing?.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  exitWithParent(() => void stop('supervisor gone'));

  started = await startWorker({ config, knex, address: config.TEMPORAL_ADDRESS, tracing });
  if (stopping) {
    await started.shutdown();
    await knex.destroy();
    process.exit(0);
  }
  log.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, buildId: config.WORKER_BUILD_ID ?? null }, 'worker running');
  if (config.WORKER_BUILD_ID && config.WORKER_PROMOTE) {
    // The rolling update's switch: this version takes every workflow task from now on; the old
    // workers go idle and drain until Kubernetes stops them (decision 0265).
    const version = { deploymentName: config.WORKER_DEPLOYMENT_NAME, buildId: config.WORKER_BUILD_ID };
    // Only forward: a pod of an older version restarting mid-rollout must not switch the fleet back
    // (the old code cannot replay what the new one wrote); a rollback is switched by hand.
    setCurrentVersion(started.client, config.TEMPORAL_NAMESPACE, version, {
      identity: 'worker start',
      onlyIfNewest: true,
    })
      .then((current) =>
        current
          ? log.info(version, `worker version ${version.deploymentName}.${version.buildId} is current`)
          : log.warn(version, 'a newer worker version exists: this one stays idle (set-current-version to roll back)'),
      )
      .catch((err) => log.error({ err }, 'could not make this worker version current'));
  }
  // The matchmaker is a long-running workflow; make sure it exists (idempotent) once a worker is up.
  kickMatchmaker(started.client, config, 'worker_start').catch((err) =>
    log.warn({ err }, 'could not start the matchmaker; the first queue join will'),
  );
  // So is the retention workflow, which deletes rows past their retention (decision 0267).
  ensureRetention(started.client, config).catch((err) =>
    log.warn({ err }, 'could not start the retention workflow; the next worker start will'),
  );
  await started.run;
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
