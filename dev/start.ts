import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { appSecret, ConfigError, loadConfig } from '#lib/config';
import { startInfrastructure, redactUrl, type Infrastructure } from './stack';
import { defaultCacheDir, TemporalCliUnavailableError } from './temporal-server';
import { createKnex, migrateLatest } from '#db/knex';
import { seedDemoData, openDemoEvents, DEMO_PASSWORD } from '#apps/demo/src/demo-data';
import { openServices } from '#apps/ops/src/services';
import { startDemoSimulator, stopDemoSimulation } from '#apps/demo/src/demo-simulator';
import { demoWebhookSecrets, startDemoWebhookReceiver, subscribeDemoWebhooks } from '#apps/demo/src/demo-webhooks';
import { Runtime } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { connectClosable } from '#lib/temporal-connection';
import { createLogger } from '#lib/logger';
import { portInUse } from './postgres-server';
import { freePort } from './ports';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTurnServer } from './turn-server';
import { resolveLiveKitServer, startLiveKitServer } from './livekit-server';
import { resolveJaeger, startTraceStore } from './trace-store';
import { randomBytes } from 'node:crypto';

/**
 * `npm start`: the whole service on one machine — Temporal dev server (or TEMPORAL_ADDRESS),
 * embedded PostgreSQL (or DATABASE_URL), migrations, demo data, the worker and the API as
 * separate processes. Ctrl-C stops everything it started. `npm start -- --turn` also runs coturn on
 * loopback and points the interview room at it (try ROOM_ICE_TRANSPORT_POLICY=relay to force it).
 * `npm start -- --livekit` runs a LiveKit server on loopback (built once with Go) and makes it the
 * room engine (VIDEO_PROVIDER=livekit), its webhooks to this API. `npm start -- --traces` runs the
 * trace store (Jaeger, in memory, built once with Go) and turns tracing on in both processes.
 */
const ROOT = path.resolve(__dirname, '..');
const log = (line: string) => console.log(`[start] ${line}`);

async function main() {
  const t0 = Date.now();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // The demo's webhook receiver listens on loopback, which webhook targets may use only with
  // OUTBOUND_HTTP_ALLOW_LOOPBACK (or its former name WEBHOOK_ALLOW_LOOPBACK; never in production).
  // Outside production npm start turns it on unless it was set to false, which also leaves the
  // receiver out (decision 0176).
  const demoWebhooks =
    config.NODE_ENV !== 'production' &&
    (config.OUTBOUND_HTTP_ALLOW_LOOPBACK ||
      ['OUTBOUND_HTTP_ALLOW_LOOPBACK', 'WEBHOOK_ALLOW_LOOPBACK'].every((name) => !process.env[name]));
  if (demoWebhooks) config = { ...config, OUTBOUND_HTTP_ALLOW_LOOPBACK: true };
  if (await portInUse(config.PORT)) {
    console.error(`Port ${config.PORT} (PORT) is already in use: is another npm start running? Stop it or set PORT.`);
    process.exit(1);
  }
  // Prometheus metrics, each process on its own port beside the public one (decision 0258): the
  // API on METRICS_PORT, the worker on the next. Unset, 9464 and 9465 — or free ports when another
  // program holds those (9464 is also OpenTelemetry's exporter default); a port asked for must be free.
  const metricsPorts = { api: config.METRICS_PORT ?? 9464, worker: (config.METRICS_PORT ?? 9464) + 1 };
  // A port asked for may still be held for a moment by the processes of a run that just ended
  // (its worker closes its metrics listener first, then drains): wait a few seconds for it.
  const freed = async (port: number) => {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(200))
      if (!(await portInUse(port))) return true;
    return false;
  };
  for (const side of ['api', 'worker'] as const)
    if (await portInUse(metricsPorts[side])) {
      if (config.METRICS_PORT === undefined) metricsPorts[side] = await freePort();
      else if (!(await freed(metricsPorts[side]))) {
        console.error(
          `Port ${metricsPorts[side]} (metrics of the ${side}: METRICS_PORT, the worker's the next one) is ` +
            'already in use: is another npm start running? Stop it or set METRICS_PORT.',
        );
        process.exit(1);
      }
    }

  let infra: Infrastructure | undefined;
  const children: ChildProcess[] = [];
  let stopping = false;
  const beforeStop: Array<() => Promise<void>> = [];
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    for (const f of beforeStop) await f().catch(() => undefined);
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGTERM');
            setTimeout(() => c.kill('SIGKILL'), 35_000).unref();
          }),
      ),
    );
    await infra?.stop().catch((err: Error) => console.error(`[start] stopping the servers: ${err.message}`));
    log('stopped');
    process.exit(code);
  };
  // The API, the worker and the servers run in their own process groups, so Ctrl-C (and a closed
  // terminal's hang-up) reaches this supervisor alone and it stops them in order: the demo's
  // simulator and receiver, then the API and worker (they drain), then Temporal and PostgreSQL.
  // Sent to every process at once, Ctrl-C took the servers down under a worker still finishing
  // its activities: a screen of connection errors, and now and then a failed exit.
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGHUP', () => void stop(0));

  try {
    infra = await startInfrastructure({ config, log, persistent: true });
  } catch (err) {
    console.error(
      err instanceof TemporalCliUnavailableError
        ? err.message
        : `Could not start the infrastructure: ${(err as Error).message}`,
    );
    process.exit(1);
  }

  const knex = createKnex(infra.databaseUrl, 2);
  try {
    const applied = await migrateLatest(knex);
    log(applied.length ? `migrations applied: ${applied.join(', ')}` : 'migrations: up to date');
  } finally {
    await knex.destroy();
  }
  // The demo fair is seeded now; its events go live once the worker runs (go-live is an Update).
  const seeding = openServices(
    { ...config, APP_SECRET: appSecret(config) },
    { databaseUrl: infra.databaseUrl, temporalAddress: infra.temporalAddress },
  );
  const demo = await seedDemoData(seeding.services, config);

  // --turn: coturn on loopback with a fresh shared secret (or ROOM_TURN_SECRET), stopped with the rest.
  let turnEnv: Record<string, string> = {};
  if (process.argv.includes('--turn')) {
    const secret = config.ROOM_TURN_SECRET ?? randomBytes(24).toString('hex');
    try {
      const turn = await startTurnServer({ secret });
      beforeStop.push(turn.stop);
      turnEnv = { ROOM_TURN_URLS: turn.urls.join(','), ROOM_TURN_SECRET: secret };
      log(`TURN (coturn) on 127.0.0.1:${turn.port} for the interview room (--turn)`);
    } catch (err) {
      console.error(`[start] --turn: ${(err as Error).message}`);
      return stop(1);
    }
  }

  // --livekit: a LiveKit server on loopback (dev mode, a fresh key pair), webhooks to this API.
  let liveKitEnv: Record<string, string> = {};
  if (process.argv.includes('--livekit')) {
    try {
      const bin = await resolveLiveKitServer({ cacheDir: defaultCacheDir(config.CACHE_DIR), log });
      const lk = await startLiveKitServer({ bin, webhookUrl: `http://127.0.0.1:${config.PORT}/livekit/webhook` });
      beforeStop.push(lk.stop);
      liveKitEnv = {
        VIDEO_PROVIDER: 'livekit',
        LIVEKIT_URL: lk.url,
        LIVEKIT_API_KEY: lk.apiKey,
        LIVEKIT_API_SECRET: lk.apiSecret,
      };
      log(`LiveKit server on ${lk.url} as the interview room engine (--livekit)`);
    } catch (err) {
      console.error(`[start] --livekit: ${(err as Error).message}`);
      return stop(1);
    }
  }

  // --traces: the trace store (Jaeger, in memory) on loopback, both processes exporting to it (decision 0263).
  let tracesEnv: Record<string, string> = {};
  let traceQueryUrl: string | null = null;
  if (process.argv.includes('--traces')) {
    try {
      const bin = await resolveJaeger({ cacheDir: defaultCacheDir(config.CACHE_DIR), log });
      // Jaeger's usual ports when free (16686 is where people look), any free ones otherwise.
      const store = await startTraceStore({
        bin,
        otlpPort: (await portInUse(4318)) ? undefined : 4318,
        queryPort: (await portInUse(16686)) ? undefined : 16686,
      });
      beforeStop.push(store.stop);
      tracesEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: store.otlpUrl };
      traceQueryUrl = store.queryUrl;
      log(`trace store (Jaeger) taking OTLP on ${store.otlpUrl}, queried on ${store.queryUrl} (--traces)`);
    } catch (err) {
      console.error(`[start] --traces: ${(err as Error).message}`);
      return stop(1);
    }
  }

  const env = {
    ...process.env,
    ...turnEnv,
    ...liveKitEnv,
    ...tracesEnv,
    JOBFAIR_SUPERVISED: '1',
    APP_SECRET: appSecret(config),
    ...(demoWebhooks ? { OUTBOUND_HTTP_ALLOW_LOOPBACK: 'true' } : {}),
    DATABASE_URL: infra.databaseUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    ...(infra.temporalUiUrl ? { TEMPORAL_UI_URL: infra.temporalUiUrl } : {}),
  };
  // `node --import tsx` keeps each process a direct child of this one (no tsx wrapper in between),
  // so signals reach it and it can notice when this supervisor is gone.
  const run = (name: string, entry: string, own: Record<string, string> = {}) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], {
      env: { ...env, ...own },
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    child.once('exit', (code, signal) => {
      if (!stopping) {
        console.error(`[start] the ${name} exited unexpectedly (${signal ?? `code ${code}`}); stopping everything`);
        void stop(1);
      }
    });
    children.push(child);
  };
  run('worker', 'apps/worker/src/main.ts', { METRICS_PORT: String(metricsPorts.worker) });
  run('API', 'apps/api/src/server.ts', { METRICS_PORT: String(metricsPorts.api) });

  const readyUrl = `http://127.0.0.1:${config.PORT}/readyz`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const res = await fetch(readyUrl);
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      console.error(`[start] ${readyUrl} did not answer 200 within 120 s`);
      return stop(1);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  // Ready means the worker polls too: the banner must not promise what no worker can do yet.
  const temporalConnection = await connectClosable({ address: infra.temporalAddress });
  const temporal = new Client({ connection: temporalConnection.connection, namespace: config.TEMPORAL_NAMESPACE });
  for (;;) {
    const { pollers } = await temporal.workflowService.describeTaskQueue({
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: { name: config.TEMPORAL_TASK_QUEUE },
      taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
    });
    if ((pollers?.length ?? 0) > 0) break;
    if (Date.now() > deadline) {
      console.error(`[start] no worker polls task queue ${config.TEMPORAL_TASK_QUEUE} after 120 s`);
      return stop(1);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  let receiver: Awaited<ReturnType<typeof startDemoWebhookReceiver>> | null = null;
  try {
    await openDemoEvents(seeding.services, demo);
    if (demoWebhooks) {
      const hookKnex = createKnex(infra.databaseUrl, 1);
      receiver = await startDemoWebhookReceiver({
        secrets: demoWebhookSecrets(hookKnex, appSecret(config)),
        log: createLogger(config, 'demo-webhooks'),
      });
      const r = receiver;
      beforeStop.push(async () => {
        await r.close();
        await hookKnex.destroy();
      });
      await subscribeDemoWebhooks(seeding.services, demo, receiver.url);
    }
  } finally {
    await seeding.close();
  }
  let simulator: Awaited<ReturnType<typeof startDemoSimulator>> | null = null;
  if (config.DEMO_SIMULATION === 'on') {
    // The simulator's own words ("Margaret Hamilton accepted …") at info; the SDK's chatter at debug.
    const pino = createLogger(config, 'demo');
    const levelOf = (level: string, meta?: Record<string, unknown>) => {
      const l = level.toLowerCase() as 'trace' | 'debug' | 'info' | 'warn' | 'error';
      return l === 'info' && meta?.sdkComponent !== 'activity' && meta?.sdkComponent !== 'workflow' ? 'debug' : l;
    };
    Runtime.install({
      logger: {
        log: (level, message, meta) => pino[levelOf(level, meta)](meta ?? {}, message),
        trace: (m, meta) => pino.trace(meta ?? {}, m),
        debug: (m, meta) => pino.debug(meta ?? {}, m),
        info: (m, meta) => pino[levelOf('INFO', meta)](meta ?? {}, m),
        warn: (m, meta) => pino.warn(meta ?? {}, m),
        error: (m, meta) => pino.error(meta ?? {}, m),
      },
    });
    const simKnex = createKnex(infra.databaseUrl, 2);
    simulator = await startDemoSimulator({ config, knex: simKnex, address: infra.temporalAddress });
    const stopSimulator = simulator.stop;
    beforeStop.push(async () => {
      await stopSimulator();
      await simKnex.destroy();
    });
  } else {
    await stopDemoSimulation(temporal, config);
  }
  await temporalConnection.close();
  const base = config.publicBaseUrl;
  console.log(
    [
      '',
      `Job fair is up (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s).`,
      `  Web app:      ${base}/`,
      `  API:          ${base}/api/v1`,
      `  OpenAPI:      ${base}/api/v1/openapi.json`,
      `  Temporal UI:  ${infra.temporalUiUrl ?? '(external Temporal: see TEMPORAL_UI_URL)'}`,
      `  PostgreSQL:   ${redactUrl(infra.databaseUrl)}`,
      `  Metrics:      http://${config.HOST}:${metricsPorts.api}/metrics (API), ` +
        `http://${config.HOST}:${metricsPorts.worker}/metrics (worker, with the Temporal SDK's)`,
      ...(traceQueryUrl
        ? [`  Traces:       ${traceQueryUrl}/api/traces/<trace_id of a log line> (tsx dev/trace-store.ts show <id>)`]
        : []),
      '',
      `  Live now:     ${demo.events.map((e) => e.company).join(', ')} (${demo.events.length} open-invite events)`,
      `  Webhooks:     ${receiver ? `demo receiver at ${receiver.url} — the ${demo.events[0].company} team is subscribed ` + `(signatures verified; one line per delivery)` : 'no demo receiver (WEBHOOK_ALLOW_LOOPBACK=false)'}`,
      `  Simulator:    ${simulator ? `on — simulated seekers join, recruiters accept (workflow ${simulator.workflowId}; ` + `DEMO_SIMULATION=off stops it)` : 'off (DEMO_SIMULATION=off)'}`,
      '',
      `  Demo seeker    ${demo.seekerEmail} / ${DEMO_PASSWORD}`,
      `    agent token (seeker preset, until ${demo.tokenExpiresAt.slice(0, 10)}): ${demo.seekerToken}`,
      `  Demo recruiter ${demo.recruiterEmail} / ${DEMO_PASSWORD}`,
      `    token (recruiter preset, until ${demo.tokenExpiresAt.slice(0, 10)}): ${demo.recruiterToken}`,
      '',
      simulator
        ? `  Try: curl -s -H "Authorization: Bearer ${demo.seekerToken}" ${base}/api/v1/matches   ` +
          `(Ada's agent has joined ${demo.events[0].slug}; her match appears within seconds — accept ` +
          `it at ${base}/matches)`
        : `  Try: curl -s -X POST -H "Authorization: Bearer ${demo.seekerToken}" -H "content-type: ` +
          `application/json" -d '{"live_event_slug":"${demo.events[0].slug}"}' ${base}/api/v1/queue/join`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
