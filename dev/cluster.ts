import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '#lib/config';
import { stopProcess } from '#lib/supervision';
import { createLogger } from '#lib/logger';
import { createKnex } from '#db/knex';
import { openServices } from '#apps/ops/src/services';
import { seedDemoData, openDemoEvents, type DemoFair } from '#apps/demo/src/demo-data';
import { demoWebhookSecrets, startDemoWebhookReceiver, subscribeDemoWebhooks } from '#apps/demo/src/demo-webhooks';
import { ensureDatabase, portInUse, startPostgres, type RunningPostgres } from './postgres-server';
import { freePort } from './ports';
import { onPath } from './go-install';
import { Connection } from '@temporalio/client';
import {
  defaultCacheDir,
  registerSearchAttributes,
  resolveTemporalCli,
  startDevServer,
  type RunningDevServer,
} from './temporal-server';
import { startTemporalOnPostgres, type TemporalOnPostgres } from './temporal-postgres';
import { fileSdTargets, nginxConfig, prometheusConfig, type Endpoint } from './cluster-config';
import { resolveJaeger, startTraceStore } from './trace-store';
import { imageApiNodeFlags } from './image-command';

/**
 * The production shape on one machine (`npm run cluster`; decision 0262): the compiled build
 * (`npm run build:dist`) run as the image runs it, the app's PostgreSQL, the Temporal server (built
 * once with `go install`) on its own PostgreSQL with several history shards, migrations by the
 * compiled migrator, N API processes (with the image's Node flags, read from the Dockerfile's CMD)
 * and M workers (each with its METRICS_PORT), nginx from Debian as load balancer and edge cache,
 * Prometheus from Debian scraping every process with the alert rules of deploy/prometheus loaded
 * (the APIs and workers through file-based service discovery, rewritten as processes are added
 * and removed), and the demo fair seeded as `npm start` seeds it.
 *
 * Every process runs in its own process group with its output in `<dir>/logs/`, so a terminal's
 * Ctrl-C reaches the supervisor alone; `stop()` ends them in order: Prometheus and the load
 * balancer, the APIs (in-flight requests finish), the workers (in-flight activities finish),
 * Temporal, then both PostgreSQL servers. Used by `npm run cluster` and meant for the chaos matrix
 * and the bench on this shape: `apis[i].kill('SIGKILL')` / `restart()`, `temporal.pid`, `appPg`,
 * `addWorker()` / `removeProcess()` (a rolling deploy's new workers, scraped like the first ones).
 */
const ROOT = path.resolve(__dirname, '..');

export interface ClusterOptions {
  log: (line: string) => void;
  /** Run folder (logs, data, generated configs); default a fresh temporary one, removed by stop() unless `keep`. */
  dir?: string;
  keep?: boolean;
  apis?: number;
  workers?: number;
  /** Temporal history shards (fixed for the life of its database). Default 4. */
  historyShards?: number;
  /** The load balancer's port (default: a free one). */
  port?: number;
  /** Prometheus's port (default: a free one). */
  prometheusPort?: number;
  /** Prometheus scrape and rule interval (default "5s"). */
  scrapeInterval?: string;
  /**
   * An external Temporal (host:port, namespace `default`) instead of the server on PostgreSQL that
   * the cluster builds and runs: a machine without Go 1.25, or a cluster of one's own.
   */
  temporalAddress?: string;
  /**
   * Run the Temporal CLI's dev server (in memory) instead of the server on PostgreSQL: a stand-in
   * for a machine where the server's build is not in the cache (the cluster test); no Temporal
   * server metrics then. Ignored with `temporalAddress`.
   */
  temporalDevServer?: boolean;
  /** A compiled build to run (the output of `npm run build:dist`); default: built now into dist/cluster. */
  dist?: string;
  /** Extra environment of every API and worker (after the cluster's own). */
  env?: Record<string, string>;
  /**
   * A trace store's OTLP endpoint: passed to every API and worker as OTEL_EXPORTER_OTLP_ENDPOINT
   * (with OTEL_SERVICE_NAME jobfair-api / jobfair-worker). Default: the supervisor's own
   * OTEL_EXPORTER_OTLP_ENDPOINT, if set; else the cluster's own trace store (see `traces`).
   */
  otlpEndpoint?: string;
  /**
   * Run the trace store (Jaeger in memory, built once into the cache; decision 0263) and point
   * every API and worker at it, unless an OTLP endpoint is given. Default true; false: no traces.
   */
  traces?: boolean;
  /**
   * A trace store of the caller's (OTLP in, Jaeger's query API out; e.g. the tests' in-process
   * receiver): every API and worker exports to it, the check reads it; the caller stops it.
   */
  traceStore?: { otlpUrl: string; queryUrl: string };
  /**
   * Aborting stops the cluster, also during start-up: what started so far is stopped, and
   * `startCluster` rejects (a test's time limit, a Ctrl-C).
   */
  signal?: AbortSignal;
  /** Seed the demo fair and its webhook receiver as `npm start` does (default true). */
  demo?: boolean;
  /** How often the supervisor checks each API's /readyz for the load balancer (default 1000 ms). */
  healthEveryMs?: number;
}

export interface ClusterProcess {
  name: string;
  kind: 'api' | 'worker';
  /** The public port (APIs only). */
  port: number | null;
  metricsPort: number;
  logFile: string;
  child: ChildProcess;
  /**
   * Starts it again (same ports, same log file, appended) and waits until it is ready; `dist`: from
   * another compiled build (a rolling deploy's next version), which later restarts keep.
   */
  restart: (opts?: { dist?: string }) => Promise<void>;
}

export interface Cluster {
  dir: string;
  /** The load balancer: every public URL goes through it. */
  base: string;
  prometheusUrl: string;
  apis: ClusterProcess[];
  workers: ClusterProcess[];
  /** The Temporal server the cluster runs (null with an external `temporalAddress` or the dev server). */
  temporal: TemporalOnPostgres | null;
  /** The dev server standing in for it (`temporalDevServer`), else null. */
  temporalDevServer: RunningDevServer | null;
  temporalAddress: string;
  appPg: RunningPostgres;
  databaseUrl: string;
  /** The cluster's trace store (Jaeger's query API: /api/traces/<id>); null when it runs none. */
  traceQueryUrl: string | null;
  /** The configuration the processes were given (as `loadConfig` reads their environment). */
  config: Config;
  env: Record<string, string>;
  nginx: { pid: number | undefined; configFile: string; accessLog: string };
  demo: (DemoFair & { receiver: Awaited<ReturnType<typeof startDemoWebhookReceiver>> | null }) | null;
  /** Which APIs the load balancer sends traffic to right now (by name). */
  inRotation: () => string[];
  /**
   * Starts one more worker (`worker-N`, its log in logs/, a metrics port of its own) from `dist`
   * (default the cluster's build) with `env` over the cluster's, and resolves once it polls; from
   * then on it is in `workers`, scraped by Prometheus and stopped with the cluster.
   */
  addWorker: (opts?: { dist?: string; env?: Record<string, string> }) => Promise<ClusterProcess>;
  /**
   * Retires a process for good: out of Prometheus's targets (and the load balancer, for an API)
   * first, then stopped (SIGTERM, 35 s grace) unless it has exited, and dropped from `apis` / `workers`.
   */
  removeProcess: (p: ClusterProcess) => Promise<void>;
  stop: () => Promise<void>;
}

/** Builds the production output into `out` (as the Dockerfile does), reporting how long it took. */
export function buildDist(out: string, log: (l: string) => void): void {
  const t = Date.now();
  log(`building the production output (npm run build:dist) into ${path.relative(ROOT, out)}/ …`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'dev/build-dist.ts'), '--out', out], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`build:dist failed:\n${r.stdout}${r.stderr}`);
  log(`production output built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

/**
 * The Debian programs the cluster runs (NGINX_BIN, PROMETHEUS_BIN, else PATH or /usr/sbin,
 * /usr/bin). A missing one is installed with apt once when this is a root shell with apt (our
 * machines, CI, a fresh container), as `npm test` installs its Debian packages; else a clear
 * message names the package.
 */
export function clusterPrograms(log: (l: string) => void): {
  nginx: string;
  prometheus: string;
  nginxExporter: string;
} {
  const find = (bin: string, override: string | undefined) =>
    override ?? onPath(bin) ?? [`/usr/sbin/${bin}`, `/usr/bin/${bin}`].find((x) => fs.existsSync(x));
  const wanted = {
    nginx: 'nginx-light',
    prometheus: 'prometheus',
    'prometheus-nginx-exporter': 'prometheus-nginx-exporter',
  } as const;
  const overrides = {
    nginx: process.env.NGINX_BIN,
    prometheus: process.env.PROMETHEUS_BIN,
    'prometheus-nginx-exporter': process.env.NGINX_EXPORTER_BIN,
  };
  const missing = (Object.keys(wanted) as Array<keyof typeof wanted>).filter((b) => !find(b, overrides[b]));
  if (missing.length) {
    const pkgs = missing.map((b) => wanted[b]);
    if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get'))
      throw new Error(
        `${missing.join(' and ')} not found: install Debian's ${pkgs.join(' ')} (apt-get install -y ${pkgs.join(' ')})`,
      );
    log(`installing Debian ${pkgs.join(' ')} (once per machine)…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [
      ['update', '-qq'],
      ['install', '-y', '-qq', ...pkgs],
    ]) {
      const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
      if (r.status !== 0)
        throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status}); install ${pkgs.join(' ')} by hand`);
    }
  }
  return {
    nginx: find('nginx', overrides.nginx)!,
    prometheus: find('prometheus', overrides.prometheus)!,
    nginxExporter: find('prometheus-nginx-exporter', overrides['prometheus-nginx-exporter'])!,
  };
}

/** A child in its own process group, its output appended to `logFile`. */
function spawnLogged(cmd: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const fd = fs.openSync(logFile, 'a');
  try {
    return spawn(cmd, args, { env, stdio: ['ignore', fd, fd], detached: true });
  } finally {
    fs.closeSync(fd);
  }
}

const tail = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8').slice(-3000);
  } catch {
    return '';
  }
};

async function until(
  what: string,
  check: () => Promise<boolean>,
  opts: { timeoutMs?: number; failed?: () => string | null } = {},
) {
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    const failure = opts.failed?.();
    if (failure) throw new Error(`${what}: ${failure}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${(opts.timeoutMs ?? 120_000) / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const answers = async (url: string, status = 200) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.arrayBuffer();
  return res.status === status;
};

const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const log = opts.log;
  const programs = clusterPrograms(log);
  const tmp = !opts.dir;
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-cluster-'));
  fs.mkdirSync(dir, { recursive: true });
  // Readable by the postgres user (embedded PostgreSQL refuses root) and nginx's workers.
  fs.chmodSync(dir, 0o755);
  const logs = path.join(dir, 'logs');
  fs.mkdirSync(logs, { recursive: true });
  const stops: Array<{ what: string; stop: () => Promise<void> }> = [];
  const children = new Set<ChildProcess>();
  // A supervisor that dies without stop() leaves nothing behind: every child is killed on exit.
  const onExit = () => {
    for (const c of children) if (!exited(c)) c.kill('SIGKILL');
  };
  process.on('exit', onExit);
  let stopped = false;
  let stopping: Promise<void> | null = null;
  const stopAll = () =>
    (stopping ??= (async () => {
      stopped = true;
      for (const s of stops.reverse()) {
        const t = Date.now();
        await s.stop().catch((e: Error) => log(`stopping ${s.what}: ${e.message}`));
        log(`stopped ${s.what} (${Date.now() - t} ms)`);
      }
      process.off('exit', onExit);
      opts.signal?.removeEventListener('abort', onAbort);
      if (tmp && !opts.keep) fs.rmSync(dir, { recursive: true, force: true });
    })());
  // What starts registers how it stops. Once stopping (an abort during start-up), a server that
  // finishes starting afterwards is stopped at once and start-up goes no further.
  const late: Array<Promise<void>> = [];
  const addStop = (what: string, stop: () => Promise<void>, first = false) => {
    if (stopped) {
      late.push(stop().catch(() => undefined));
      throw new Error(`the cluster was stopped during start-up (${what} stopped again)`);
    }
    if (first) stops.splice(0, 0, { what, stop });
    else stops.push({ what, stop });
  };
  const onAbort = () => void stopAll();
  if (opts.signal?.aborted) throw new Error('the cluster was stopped before it started');
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const nApis = opts.apis ?? 2;
    const nWorkers = opts.workers ?? 2;
    const lbPort = opts.port ?? (await freePort());
    if (opts.port && (await portInUse(opts.port))) throw new Error(`port ${opts.port} (the load balancer) is in use`);
    const base = `http://127.0.0.1:${lbPort}`;

    // 1. The compiled build.
    let dist = opts.dist;
    if (!dist) {
      dist = path.join(ROOT, 'dist', 'cluster');
      buildDist(dist, log);
    }

    // 2. Temporal on its own PostgreSQL, several history shards, its metrics on a port of its own.
    const temporalMetricsPort = await freePort();
    let temporal: TemporalOnPostgres | null = null;
    let devServer: RunningDevServer | null = null;
    if (opts.temporalAddress) {
      const connection = await Connection.connect({ address: opts.temporalAddress });
      try {
        await registerSearchAttributes(connection, 'default');
      } finally {
        await connection.close();
      }
      log(`Temporal: external at ${opts.temporalAddress} (no server started)`);
    } else if (opts.temporalDevServer) {
      const cli = resolveTemporalCli({ cacheDir: defaultCacheDir(process.env.CACHE_DIR), log });
      const started = await startDevServer({
        cli: cli.path,
        port: await freePort(),
        namespace: 'default',
        log,
        ownProcessGroup: true,
      });
      devServer = started;
      addStop('the Temporal dev server', started.stop);
      log(`Temporal: the CLI's dev server at ${started.address}, standing in for the server on PostgreSQL`);
    } else {
      temporal = await startTemporalOnPostgres({
        dir: path.join(dir, 'temporal'),
        cacheDir: defaultCacheDir(process.env.CACHE_DIR),
        namespace: 'default',
        log,
        historyShards: opts.historyShards ?? 4,
        metricsPort: temporalMetricsPort,
        ownProcessGroup: true,
        historyCacheMaxBytes: Number(process.env.TEMPORAL_HISTORY_CACHE_MB || 64) * 2 ** 20,
      });
      addStop('Temporal and its PostgreSQL', temporal.stop);
    }
    const temporalAddress = temporal?.address ?? opts.temporalAddress ?? devServer!.address;

    // 3. The app's PostgreSQL and its migrations (the compiled migrator, as the image's migrate job runs it).
    const appPg = await startPostgres({
      dataDir: path.join(dir, 'app-pg'),
      port: await freePort(),
      ownProcessGroup: true,
      log: () => undefined,
    });
    // Stopped after Temporal (pushed first = stopped last would be the other way): both databases last.
    addStop("the app's PostgreSQL", appPg.stop, true);
    await ensureDatabase(appPg.url(), 'jobfair');
    const databaseUrl = appPg.url('jobfair');
    log(`app PostgreSQL on port ${appPg.port}`);

    // The trace store, before the processes that export to it; stopped after them (their last spans).
    let otlp = opts.traceStore?.otlpUrl ?? opts.otlpEndpoint ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    let traceQueryUrl: string | null = opts.traceStore?.queryUrl ?? null;
    if (!otlp && (opts.traces ?? true)) {
      const bin = await resolveJaeger({ cacheDir: defaultCacheDir(process.env.CACHE_DIR), log });
      const store = await startTraceStore({ bin, ownProcessGroup: true });
      children.add(store.child!);
      addStop('the trace store (Jaeger)', store.stop);
      otlp = store.otlpUrl;
      traceQueryUrl = store.queryUrl;
      log(`trace store (Jaeger) taking OTLP on ${store.otlpUrl}, queried on ${store.queryUrl}`);
    }
    const env: Record<string, string> = {
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: 'default',
      APP_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: path.join(dir, 'data'),
      // The load balancer is the one hop in front: the client's address is what it saw.
      TRUST_PROXY: '1',
      // The demo's webhook receiver listens on loopback (never in production).
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      JOBFAIR_SUPERVISED: '1',
      ...(otlp ? { OTEL_EXPORTER_OTLP_ENDPOINT: otlp } : {}),
      ...opts.env,
    };
    const config = loadConfig({}, env);
    const migrate = spawnSync(process.execPath, [path.join(dist, 'db/cli.js'), 'migrate'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}${migrate.stderr}`);
    log('migrations applied (node dist/db/cli.js migrate)');

    // 4. The demo fair, seeded through the services as npm start does; its events go live once workers poll.
    const demoWanted = opts.demo ?? true;
    const opened = demoWanted ? openServices(config, { databaseUrl, temporalAddress }) : null;
    // Closed once: after the demo is set up, or by stop() if start-up ends before that.
    let closing: Promise<void> | null = null;
    const seeding = opened && { services: opened.services, close: () => (closing ??= opened.close()) };
    if (seeding) addStop('the demo seeding connections', seeding.close);
    let demoFair: DemoFair | null = null;
    if (seeding) demoFair = await seedDemoData(seeding.services, config);

    // 5. The APIs and the workers, as the image runs them: plain node on the compiled entries, the
    // API with the Node flags of the image's CMD (the Dockerfile is their one source).
    const apiNodeFlags = imageApiNodeFlags(ROOT);
    const procEnv = (kind: 'api' | 'worker', own: Record<string, string>) => ({
      ...process.env,
      ...env,
      ...(otlp ? { OTEL_SERVICE_NAME: `jobfair-${kind}` } : {}),
      ...own,
    });
    const readyOf = new Map<ClusterProcess, () => Promise<void>>();
    const makeProcess = async (
      kind: 'api' | 'worker',
      name: string,
      o: { dist?: string; env?: Record<string, string> } = {},
    ): Promise<ClusterProcess> => {
      let port = kind === 'api' ? await freePort() : null;
      let metricsPort = await freePort();
      const logFile = path.join(logs, `${name}.log`);
      let from = o.dist ?? dist;
      const entry = () => path.join(from, kind === 'api' ? 'apps/api/src/server.js' : 'apps/worker/src/main.js');
      const own = () => ({ ...o.env, METRICS_PORT: String(metricsPort), ...(port ? { PORT: String(port) } : {}) });
      const p: ClusterProcess = {
        name,
        kind,
        port,
        metricsPort,
        logFile,
        child: undefined as unknown as ChildProcess,
        restart: async (r = {}) => {
          if (!exited(p.child)) await stopProcess(p.child, 'SIGTERM', 35_000);
          from = r.dist ?? from;
          start();
          await ready();
        },
      };
      // A restarted worker is ready on its own "worker running" line, not the one before it in the log.
      let logFrom = 0;
      const start = () => {
        logFrom = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
        const args = kind === 'api' ? [...apiNodeFlags, entry()] : [entry()];
        p.child = spawnLogged(process.execPath, args, procEnv(kind, own()), logFile);
        children.add(p.child);
      };
      const ready = () =>
        until(
          `${name} (log: ${logFile})`,
          async () =>
            kind === 'api'
              ? answers(`http://127.0.0.1:${port}/readyz`)
              : /worker running/.test(fs.readFileSync(logFile).subarray(logFrom).toString('utf8')),
          {
            failed: () =>
              exited(p.child) ? `exited (${p.child.exitCode ?? p.child.signalCode}):\n${tail(logFile)}` : null,
          },
        );
      // A free port can be taken by another process (an outgoing connection's ephemeral port, a
      // parallel test) between freePort() and the child's bind: the first start then takes new
      // ports and tries again, before anything (nginx, Prometheus) has been told the old ones.
      const firstReady = async () => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await ready();
          } catch (err) {
            const lostPort =
              exited(p.child) && /EADDRINUSE/.test(fs.readFileSync(logFile).subarray(logFrom).toString('utf8'));
            if (!lostPort || attempt >= 3) throw err;
            log(`${name}: a port was taken before it could bind; starting it on new ports`);
            port = kind === 'api' ? await freePort() : null;
            metricsPort = await freePort();
            p.port = port;
            p.metricsPort = metricsPort;
            start();
          }
        }
      };
      start();
      readyOf.set(p, firstReady);
      return p;
    };
    const workers: ClusterProcess[] = [];
    const apis: ClusterProcess[] = [];
    // Stopped in this order after the load balancer: the APIs, then the workers (those added later too).
    addStop(
      'the workers',
      async () => void (await Promise.all(workers.map((w) => stopProcess(w.child, 'SIGTERM', 35_000)))),
    );
    addStop('the APIs', async () => void (await Promise.all(apis.map((a) => stopProcess(a.child, 'SIGTERM', 35_000)))));
    for (let i = 0; i < nWorkers; i++) workers.push(await makeProcess('worker', `worker-${i + 1}`));
    for (let i = 0; i < nApis; i++) apis.push(await makeProcess('api', `api-${i + 1}`));
    let workersStarted = nWorkers;
    const t = Date.now();
    await Promise.all([...workers, ...apis].map((p) => readyOf.get(p)!()));
    log(`${nApis} APIs and ${nWorkers} workers ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    // 6. nginx: load balancer and edge cache, kept in step with each API's /readyz.
    const nginxDir = path.join(dir, 'nginx');
    fs.mkdirSync(path.join(nginxDir, 'tmp'), { recursive: true });
    const nginxConf = path.join(nginxDir, 'nginx.conf');
    const down = new Set<string>();
    const nginxStatusPort = await freePort();
    const writeNginx = () =>
      fs.writeFileSync(
        nginxConf,
        nginxConfig({
          dir: nginxDir,
          listen: { host: '127.0.0.1', port: lbPort },
          apis: apis.map((a) => ({ host: '127.0.0.1', port: a.port!, down: down.has(a.name) })),
          statusPort: nginxStatusPort,
        }),
      );
    writeNginx();
    const nginxArgs = ['-p', nginxDir, '-c', nginxConf, '-e', path.join(nginxDir, 'error.log')];
    const test = spawnSync(programs.nginx, [...nginxArgs, '-t'], { encoding: 'utf8' });
    if (test.status !== 0) throw new Error(`nginx -t refused the generated config:\n${test.stderr}`);
    const nginx = spawnLogged(
      programs.nginx,
      [...nginxArgs, '-g', 'daemon off;'],
      process.env,
      path.join(logs, 'nginx.log'),
    );
    children.add(nginx);
    addStop('the load balancer (nginx)', () => stopProcess(nginx, 'SIGQUIT', 10_000));
    await until('the load balancer', () => answers(`${base}/readyz`), {
      timeoutMs: 30_000,
      failed: () => (exited(nginx) ? tail(path.join(nginxDir, 'error.log')) : null),
    });
    log(`load balancer and edge cache (nginx) at ${base}`);

    const reloadNginx = () => {
      writeNginx();
      spawnSync(programs.nginx, [...nginxArgs, '-s', 'reload']);
      log(
        `load balancer: ${apis
          .filter((a) => !down.has(a.name))
          .map((a) => a.name)
          .join(', ')} in rotation`,
      );
    };
    // The active check open-source nginx lacks: each API's /readyz every second; one that fails is
    // taken out of rotation (nginx reloads gracefully) until it answers again. All failing: all kept.
    let checking = false;
    const health = setInterval(() => {
      if (checking || exited(nginx)) return;
      checking = true;
      void (async () => {
        const results = await Promise.all(
          apis.map(async (a) => ({
            a,
            ok: !exited(a.child) && (await answers(`http://127.0.0.1:${a.port}/readyz`).catch(() => false)),
          })),
        );
        const next = new Set(results.filter((r) => !r.ok).map((r) => r.a.name));
        if (next.size === apis.length) next.clear();
        if ([...next].join() !== [...down].join()) {
          down.clear();
          for (const n of next) down.add(n);
          reloadNginx();
        }
      })().finally(() => (checking = false));
    }, opts.healthEveryMs ?? 1000);
    addStop('the /readyz checks', async () => clearInterval(health));

    // nginx's counters (connections, requests) in Prometheus's format, from its stub_status.
    const exporterPort = await freePort();
    const exporter = spawnLogged(
      programs.nginxExporter,
      [
        `-nginx.scrape-uri=http://127.0.0.1:${nginxStatusPort}/stub_status`,
        `-web.listen-address=127.0.0.1:${exporterPort}`,
      ],
      process.env,
      path.join(logs, 'nginx-exporter.log'),
    );
    children.add(exporter);
    addStop("nginx's exporter", () => stopProcess(exporter, 'SIGTERM', 5_000));

    // 7. Prometheus scraping every process, with the alert rules.
    const promPort = opts.prometheusPort ?? (await freePort());
    const promDir = path.join(dir, 'prometheus');
    fs.mkdirSync(promDir, { recursive: true });
    const promConf = path.join(promDir, 'prometheus.yml');
    const local = (port: number): Endpoint => ({ host: '127.0.0.1', port });
    // The APIs' and workers' targets in files Prometheus watches (file_sd_configs), rewritten
    // whole (write, then rename) whenever a process is added or removed.
    const targetFiles = { apis: path.join(promDir, 'apis.json'), workers: path.join(promDir, 'workers.json') };
    const writeTargets = () => {
      for (const [file, list] of [
        [targetFiles.apis, apis],
        [targetFiles.workers, workers],
      ] as const) {
        fs.writeFileSync(`${file}.tmp`, fileSdTargets(list.map((p) => local(p.metricsPort))));
        fs.renameSync(`${file}.tmp`, file);
      }
    };
    writeTargets();
    fs.writeFileSync(
      promConf,
      prometheusConfig({
        interval: opts.scrapeInterval ?? '5s',
        apis: { file: targetFiles.apis },
        workers: { file: targetFiles.workers },
        temporal: temporal ? local(temporalMetricsPort) : null,
        nginx: local(exporterPort),
        ruleFiles: [path.join(ROOT, 'deploy/prometheus/rules.yml')],
      }),
    );
    const prometheus = spawnLogged(
      programs.prometheus,
      [
        `--config.file=${promConf}`,
        `--storage.tsdb.path=${path.join(promDir, 'data')}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
        '--storage.tsdb.retention.time=1d',
      ],
      process.env,
      path.join(logs, 'prometheus.log'),
    );
    children.add(prometheus);
    addStop('Prometheus', () => stopProcess(prometheus, 'SIGTERM', 10_000));
    const prometheusUrl = `http://127.0.0.1:${promPort}`;
    await until('Prometheus', () => answers(`${prometheusUrl}/-/ready`), {
      timeoutMs: 60_000,
      failed: () => (exited(prometheus) ? tail(path.join(logs, 'prometheus.log')) : null),
    });
    log(
      `Prometheus at ${prometheusUrl} (${apis.length + workers.length + (temporal ? 2 : 1)} targets, rules of deploy/prometheus)`,
    );

    // 8. The demo events go live (workers poll now) and its webhook receiver is subscribed.
    let demo: Cluster['demo'] = null;
    if (seeding && demoFair) {
      try {
        await openDemoEvents(seeding.services, demoFair);
        const hookKnex = createKnex(databaseUrl, 1);
        const receiver = await startDemoWebhookReceiver({
          secrets: demoWebhookSecrets(hookKnex, env.APP_SECRET),
          log: createLogger({ ...config, LOG_FORMAT: 'auto' }, 'demo-webhooks'),
        });
        addStop('the demo webhook receiver', async () => {
          await receiver.close();
          await hookKnex.destroy();
        });
        await subscribeDemoWebhooks(seeding.services, demoFair, receiver.url);
        demo = { ...demoFair, receiver };
      } finally {
        await seeding.close();
      }
    }

    const addWorker: Cluster['addWorker'] = async (o = {}) => {
      if (stopped) throw new Error('the cluster is stopped');
      const p = await makeProcess('worker', `worker-${++workersStarted}`, o);
      // In `workers` at once, so stop() ends it even while it starts; scraped once it polls.
      workers.push(p);
      await readyOf.get(p)!();
      writeTargets();
      log(`${p.name} added (metrics :${p.metricsPort}, scraped)`);
      return p;
    };
    const removeProcess: Cluster['removeProcess'] = async (p) => {
      const list = p.kind === 'api' ? apis : workers;
      if (!list.includes(p)) return;
      list.splice(list.indexOf(p), 1);
      writeTargets();
      if (p.kind === 'api') reloadNginx();
      if (!exited(p.child)) await stopProcess(p.child, 'SIGTERM', 35_000);
      log(`${p.name} removed (no longer scraped)`);
    };

    return {
      dir,
      base,
      prometheusUrl,
      apis,
      workers,
      temporal,
      temporalDevServer: devServer,
      temporalAddress,
      appPg,
      databaseUrl,
      traceQueryUrl,
      config,
      env,
      nginx: { pid: nginx.pid, configFile: nginxConf, accessLog: path.join(nginxDir, 'access.log') },
      demo,
      inRotation: () => apis.filter((a) => !down.has(a.name)).map((a) => a.name),
      addWorker,
      removeProcess,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    await Promise.all(late);
    throw err;
  }
}
