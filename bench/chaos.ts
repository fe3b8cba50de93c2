import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '#lib/config';
import { freePort } from '#dev/ports';
import { ensureDatabase, startPostgres, type RunningPostgres } from '#dev/postgres-server';
import {
  defaultCacheDir,
  registerSearchAttributes,
  resolveTemporalCli,
  startDevServer,
  type RunningDevServer,
} from '#dev/temporal-server';
import { connectClosable, lazyClosable } from '#lib/temporal-connection';
import { createKnex, migrateLatest } from '#db/knex';
import { openServices } from '#apps/ops/src/services';
import { seedDemoData } from '#apps/demo/src/demo-data';
import { Client } from '@temporalio/client';
import { createServices } from '#apps/api/src/services';
import { SCOPES } from '#lib/scopes';
import { hashToken } from '#lib/tokens';
import { exitOf, runProcess, type RunningProcess } from '#test/helpers/processes';
import type { LifecycleSeeker } from '#test/helpers/chaos-lifecycle';
import { chaosTable, runChaos, startChaosReceiver, type ChaosResult, type ChaosTarget } from '#test/helpers/chaos';

type ChaosReceiver = Awaited<ReturnType<typeof startChaosReceiver>>;
import { buildDist } from './support/infra';
import { rollingDeploy } from './support/rolling-deploy';
import { parseDuration, SoakSampler, withChildren } from './support/soak';
import { scanDeployHistories } from '#test/helpers/chaos-deploy';
import { setCurrentVersion } from '#lib/worker-versioning';
import { runMain, Teardown } from './support/runner';
import { startCluster, type Cluster, type ClusterProcess } from '#dev/cluster';
import type { Knex } from 'knex';

/**
 * `npm run chaos`: the fault matrix (decision 0164). Starts its own PostgreSQL (embedded, on disk)
 * and Temporal dev server (SQLite file, so a stopped server restarts with its state), the worker and
 * the API as real processes, then for each fault — none, worker (kill -9), API (kill -9),
 * PostgreSQL (kill -9 of the server and its backends), Temporal (stop) — runs keyed job creations
 * and webhook test deliveries (to a local receiver failing 10 % of first attempts) and seekers'
 * whole lifecycles (join, accept, late accept, decline, expiry on small-capacity events with short
 * acceptance windows; decision 0181) while the fault strikes, and reconciles client
 * acknowledgements with PostgreSQL and the receiver's log; over-capacity, seekers matched twice,
 * matches accepted after `expires_at` and the longest matching gap are measured.
 *
 * The API and the worker run as the production image runs them (decision 0225): the production
 * output is built once per run (`npm run build:dist` into a git-ignored `dist/chaos-…` folder) and
 * each process is plain `node` on the compiled entry — the worker starts from the prebuilt workflow
 * bundle, so a restarted worker does not re-bundle the workflow code with webpack. `--tsx` runs them
 * under tsx instead (`npm start`'s way). `--keep` keeps the run's folder (Temporal's
 * SQLite file, the processes' logs) and prints its path, to read workflow histories afterwards.
 *
 * The workers run versioned (Worker Versioning, build id `chaos-v1`; decision 0265). The `deploy`
 * row is a rolling deploy of a changed workflow while the traffic runs: a second build whose
 * workflow bundle carries a real change (bench/support/deploy-change.ts, behind `patched()`), new
 * workers of build `chaos-v2` started beside the old ones, made current, the old ones stopped, the
 * API replaced — then every history of the row is scanned for workflow task failures and
 * non-determinism. `--workers N` runs N workers (a fault kills the first; the deploy replaces all).
 *
 * `--cluster` runs the matrix on the production shape of dev/cluster.ts (decision 0262): the Temporal
 * server on its own PostgreSQL, the app's PostgreSQL, two APIs behind nginx and two versioned
 * workers, compiled; every request through the load balancer. Its faults kill -9 one API (the load
 * balancer keeps answering; the note under the table counts the attempts the clients retried), one
 * worker, the app's PostgreSQL, the Temporal server or Temporal's PostgreSQL, each restarted on its
 * own data and ports; its deploy row adds version 2's workers to the cluster (scraped by its
 * Prometheus like the first ones), retires the old ones and restarts each API in turn from version
 * 2's build.
 *
 * `--soak <duration>` (e.g. 30m) replaces the matrix: steady keyed job creations, webhook test
 * deliveries and seeker lifecycles for the duration, no fault; the RSS of every process and the
 * latency of every request are sampled and their drift (first window against last) printed; the
 * run fails when something grows without bound (the rule is in bench/support/soak.ts).
 *
 *   npm run chaos [-- --faults none,worker,api,postgres,temporal,deploy --jobs 100 --tests 40 --seekers 24 --slots 2 --down-ms 3000 --workers 1 --keep --tsx]
 *   npm run chaos -- --soak 30m
 *   npm run chaos -- --cluster [--faults none,api,worker,deploy,postgres,temporal,temporal-postgres] [--soak 10m]
 */
const { values } = parseArgs({
  options: {
    faults: { type: 'string' },
    workers: { type: 'string', default: '1' },
    soak: { type: 'string' },
    jobs: { type: 'string', default: '100' },
    tests: { type: 'string', default: '40' },
    seekers: { type: 'string', default: '24' },
    slots: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '8' },
    'down-ms': { type: 'string', default: '3000' },
    keep: { type: 'boolean', default: false },
    tsx: { type: 'boolean', default: false },
    cluster: { type: 'boolean', default: false },
  },
});
const say = (l: string) => console.log(`[chaos] ${l}`);
const RETRIES = '500,1000,2000,4000,8000';
/** The Worker Deployment of the chaos workers, the build they start as and the one the deploy row rolls out. */
const DEPLOYMENT = 'jobfair-chaos';
const V1 = 'chaos-v1';
const V2 = 'chaos-v2';
const DEPLOY_PATCH = 'chaos-rolling-deploy-memo'; // bench/support/deploy-change.ts (a workflow-bundle module: not imported here)

async function waitReady(base: string, proc: RunningProcess, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`process exited:\n${proc.output().slice(-3000)}`);
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not ready within ${timeoutMs} ms:\n${proc.output().slice(-3000)}`);
}

/** PostgreSQL's postmaster (its backends are its children), from its data directory's pid file. */
const postmaster = (dataDir: string) =>
  Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

function killTree(pid: number) {
  // PostgreSQL's backends are children of the postmaster: kill -9 them all (they are ours, by id).
  let children: number[] = [];
  try {
    children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map(Number)
      .filter(Boolean);
  } catch {
    /* none */
  }
  for (const p of [pid, ...children]) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** What the traffic and the lifecycles need of a stack under fault (the dev-server stack or the cluster). */
interface Stack {
  /** Where clients send requests: the one API, or the cluster's load balancer. */
  base: string;
  env: Record<string, string>;
  knex: Knex;
  temporalAddress: string;
}

/** The stack under fault: its processes and servers change as faults strike and recover, so they live here. */
interface Chaos extends Stack {
  dir: string;
  dist: string | null;
  logs: RunningProcess[];
  base: string;
  env: Record<string, string>;
  dbUrl: string;
  knex: Knex;
  pg: RunningPostgres;
  pgOpts: { dataDir: string; port: number };
  temporal: RunningDevServer;
  tOpts: Parameters<typeof startDevServer>[0];
  /** The running workers, all of the current build. */
  workers: RunningProcess[];
  /** The current build id and where its compiled code is (the deploy row moves both to version 2). */
  buildId: string;
  api: RunningProcess;
  /** A client of the chaos stack's Temporal (the deployer's: set-current-version, the history scan). */
  admin: Client;
}

/** The worker and API as the image runs them (compiled, plain node), or under tsx with --tsx. */
function spawnApp(c: Pick<Chaos, 'dist' | 'logs'>, entry: string, env: Record<string, string>): RunningProcess {
  const p = runProcess(entry, env, c.dist ? { dist: c.dist } : {});
  c.logs.push(p);
  return p;
}

async function waitWorker(w: RunningProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!/worker running/.test(w.output())) {
    if (w.exitCode !== null || Date.now() > deadline)
      throw new Error(`worker did not start:\n${w.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A versioned worker of `buildId`; the chaos run (the deployer) switches versions itself. */
function workerEnv(env: Record<string, string>, buildId: string): Record<string, string> {
  return {
    ...env,
    LOG_LEVEL: 'info',
    WORKER_BUILD_ID: buildId,
    WORKER_DEPLOYMENT_NAME: DEPLOYMENT,
    WORKER_PROMOTE: 'false',
  };
}

async function startWorkerOf(c: Pick<Chaos, 'dist' | 'logs' | 'env'>, buildId: string): Promise<RunningProcess> {
  const w = spawnApp(c, 'apps/worker/src/main.ts', workerEnv(c.env, buildId));
  await waitWorker(w);
  return w;
}

function appEnv(dir: string, apiPort: number, dbUrl: string, temporalAddress: string): Record<string, string> {
  const base = `http://127.0.0.1:${apiPort}`;
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    PORT: String(apiPort),
    PUBLIC_BASE_URL: base,
    DATABASE_URL: dbUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    DATA_DIR: path.join(dir, 'data'),
    ...TRAFFIC_ENV,
  };
}

/** The settings of the matrix's traffic, the same on the dev-server stack and on the cluster. */
const TRAFFIC_ENV: Record<string, string> = {
  APP_SECRET: 'chaos-secret-chaos-secret-chaos-secret-01',
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: RETRIES,
  RATE_LIMIT_WRITE_PER_MIN: '100000',
  RATE_LIMIT_READ_PER_MIN: '100000',
  BILLING_FREE_MAX_LIVE_EVENTS: '1000',
  // Short acceptance windows and interviews: expiries happen and slots turn over within a row.
  MATCH_ACCEPT_WINDOW_MS: '4000',
  MATCH_EXPIRY_REMINDER_MS: '0',
  INTERVIEW_LENGTH_MS: '3000',
  INTERVIEW_REPORT_WINDOW_MS: '0',
};
const APP_SECRET = TRAFFIC_ENV.APP_SECRET;

/** PostgreSQL (embedded, on disk) and the Temporal dev server (SQLite file, so a stopped server restarts with its state). */
async function startServers(dir: string, teardown: Teardown) {
  const pgOpts = { dataDir: path.join(dir, 'pg'), port: await freePort() };
  // Closed through this object: a fault replaces its server by a new one.
  const pg = { pg: await startPostgres(pgOpts), pgOpts };
  teardown.add(() => pg.pg.stop());
  await ensureDatabase(pg.pg.url(), 'jobfair');
  const dbUrl = pg.pg.url('jobfair');
  const knex = createKnex(dbUrl, 4);
  teardown.add(() => knex.destroy());
  await migrateLatest(knex);
  const cli = resolveTemporalCli({ cacheDir: defaultCacheDir(), log: say });
  const tOpts = {
    cli: cli.path,
    port: await freePort(),
    uiPort: await freePort(),
    dbFile: path.join(dir, 'temporal.sqlite'),
    namespace: 'default',
    log: () => undefined,
  };
  const servers = Object.assign(pg, { dbUrl, knex, temporal: await startDevServer(tOpts), tOpts });
  teardown.add(() => servers.temporal.stop());
  const conn = await connectClosable({ address: servers.temporal.address });
  await registerSearchAttributes(conn.connection, 'default');
  await conn.close();
  return servers;
}

/** Servers, the demo data, the worker and the API; each closed by `teardown` (whichever process or server is current after the faults). */
async function startChaos(
  dir: string,
  dist: string | null,
  logs: RunningProcess[],
  teardown: Teardown,
): Promise<{ c: Chaos; recruiterToken: string }> {
  const servers = await startServers(dir, teardown);
  const apiPort = await freePort();
  const env = appEnv(dir, apiPort, servers.dbUrl, servers.temporal.address);
  const config = loadConfig({}, env);
  const { services, close } = openServices(config, {
    databaseUrl: servers.dbUrl,
    temporalAddress: servers.temporal.address,
  });
  const { recruiterToken } = await seedDemoData(services, config);
  await close();
  const api = spawnApp({ dist, logs }, 'apps/api/src/server.ts', env);
  const adminConn = await connectClosable({ address: servers.temporal.address });
  teardown.add(() => adminConn.close());
  const admin = new Client({ connection: adminConn.connection, namespace: 'default' });
  // The same object as `servers`, so the teardown steps above close whatever server a fault left running.
  const c: Chaos = Object.assign(servers, {
    temporalAddress: servers.temporal.address,
    dir,
    dist,
    logs,
    base: `http://127.0.0.1:${apiPort}`,
    env,
    workers: [] as RunningProcess[],
    buildId: V1,
    api,
    admin,
  });
  teardown.add(async () => {
    for (const p of [c.api, ...c.workers]) if (p.exitCode === null) p.kill('SIGKILL');
  });
  await waitReady(c.base, c.api);
  for (let i = 0; i < Number(values.workers); i++) c.workers.push(await startWorkerOf(c, V1));
  // The first deploy: version 1 takes every workflow task (until now none had a current version).
  await setCurrentVersion(admin, 'default', { deploymentName: DEPLOYMENT, buildId: V1 }, { identity: 'chaos' });
  return { c, recruiterToken };
}

/** The deployer's step of the rolling deploy: version 2 becomes current (retried until its workers poll). */
async function promoteV2(admin: Client): Promise<void> {
  let last = '';
  await setCurrentVersion(
    admin,
    'default',
    { deploymentName: DEPLOYMENT, buildId: V2 },
    {
      identity: 'chaos',
      onRetry: (err) => {
        if (err.message !== last) say(`deploy: set-current-version not yet: ${(last = err.message)}`);
      },
    },
  );
}

/** What each fault does and how the stack recovers from it (none: no fault). */
function faultTargets(c: Chaos): Record<string, ChaosTarget | null> {
  return {
    none: null,
    worker: {
      fault: async () => {
        c.workers[0].kill('SIGKILL');
        await exitOf(c.workers[0]);
      },
      recover: async () => {
        c.workers[0] = await startWorkerOf(c, c.buildId);
      },
    },
    api: {
      fault: async () => {
        c.api.kill('SIGKILL');
        await exitOf(c.api);
      },
      recover: async () => {
        c.api = spawnApp(c, 'apps/api/src/server.ts', c.env);
        await waitReady(c.base, c.api);
      },
    },
    postgres: {
      fault: async () => killTree(postmaster(c.pg.dataDir)),
      recover: async () => {
        // Crash recovery on start; retried while the killed backends' shared memory is released.
        for (let i = 0; ; i++) {
          try {
            c.pg = await startPostgres(c.pgOpts);
            break;
          } catch (err) {
            if (i > 20) throw err;
            await new Promise((r) => setTimeout(r, 500));
          }
        }
        await waitReady(c.base, c.api);
      },
    },
    temporal: {
      fault: async () => {
        await c.temporal.stop();
      },
      recover: async () => {
        c.temporal = await startDevServer(c.tOpts);
        await waitReady(c.base, c.api);
      },
    },
    // Not a fault: a rolling deploy of the changed workflow (version 2) while the traffic runs.
    deploy: c.dist
      ? {
          fault: async () => {
            const v2 = `${c.dist!.replace(/-v2$/, '')}-v2`;
            const next = { dist: v2, logs: c.logs, env: c.env };
            const res = await rollingDeploy({
              oldWorkers: c.workers,
              startWorker: () => startWorkerOf(next, V2),
              promote: () => promoteV2(c.admin),
              replaceApis: [
                async () => {
                  // A successor beside the old API (its own port), then traffic moves to it: what the
                  // load balancer does in a rolling update.
                  const port = await freePort();
                  const env = { ...c.env, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
                  const api = spawnApp({ dist: v2, logs: c.logs }, 'apps/api/src/server.ts', env);
                  await waitReady(env.PUBLIC_BASE_URL, api);
                  const old = c.api;
                  Object.assign(c, { api, env, base: env.PUBLIC_BASE_URL });
                  return { old, next: api };
                },
              ],
              log: say,
            });
            Object.assign(c, { workers: res.workers, buildId: V2, dist: v2 });
            say(
              `deploy: steps (ms from start) ${JSON.stringify(res.steps)}, killed after grace: ${res.killedAfterGrace}`,
            );
          },
          recover: async () => undefined,
        }
      : null,
  };
}

/**
 * The cluster under fault (`--cluster`): the production shape of dev/cluster.ts (the real Temporal
 * server on its own PostgreSQL, the app's PostgreSQL, two APIs behind nginx, two workers, compiled),
 * every request through the load balancer. Its processes change as faults strike and recover.
 */
interface ClusterChaos extends Stack {
  cl: Cluster;
  dist: string;
  admin: Client;
  logs: RunningProcess[];
  /** The app's PostgreSQL as restarted by the postgres row (the cluster's stop() ends the one it started). */
  appPg: RunningPostgres;
}

/** Waits until `url` answers 200 (a load balancer or an API's /readyz). */
async function waitUrl(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} not answering 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function startClusterChaos(
  dist: string,
  logs: RunningProcess[],
  teardown: Teardown,
): Promise<{ s: ClusterChaos; recruiterToken: string }> {
  // After the cluster's own stop (steps run last first): a PostgreSQL the postgres row restarted.
  const restarted: { pg: RunningPostgres | null } = { pg: null };
  teardown.add(async () => restarted.pg?.stop());
  const cl = await startCluster({
    log: (l) => say(`cluster: ${l}`),
    dist,
    demo: false,
    keep: values.keep,
    // The matrix's settings, and versioned workers the run (the deployer) switches itself.
    env: { ...TRAFFIC_ENV, WORKER_BUILD_ID: V1, WORKER_DEPLOYMENT_NAME: DEPLOYMENT, WORKER_PROMOTE: 'false' },
  });
  teardown.add(() => cl.stop());
  if (values.keep) say(`cluster folder (logs/, configs) kept: ${cl.dir}`);
  const knex = createKnex(cl.databaseUrl, 4);
  teardown.add(() => knex.destroy());
  const { services, close } = openServices(cl.config, {
    databaseUrl: cl.databaseUrl,
    temporalAddress: cl.temporalAddress,
  });
  const { recruiterToken } = await seedDemoData(services, cl.config);
  await close();
  const adminConn = await connectClosable({ address: cl.temporalAddress });
  teardown.add(() => adminConn.close());
  const admin = new Client({ connection: adminConn.connection, namespace: 'default' });
  await setCurrentVersion(admin, 'default', { deploymentName: DEPLOYMENT, buildId: V1 }, { identity: 'chaos' });
  const s: ClusterChaos = {
    base: cl.base,
    env: cl.env,
    knex,
    temporalAddress: cl.temporalAddress,
    cl,
    dist,
    admin,
    logs,
    get appPg() {
      return restarted.pg ?? cl.appPg;
    },
    set appPg(pg: RunningPostgres) {
      restarted.pg = pg;
    },
  };
  return { s, recruiterToken };
}

/**
 * A worker of version 2 added to the cluster (`worker-N`, its log in the cluster's logs/, scraped by
 * its Prometheus, stopped with it): after the deploy, `cl.workers` are version 2's.
 */
async function startV2Worker(s: ClusterChaos): Promise<ClusterProcess> {
  return s.cl.addWorker({ dist: `${s.dist}-v2`, env: workerEnv({}, V2) });
}

/** A cluster process as the rolling deploy sees it (its output is its log file). */
function asRunning(p: ClusterProcess): RunningProcess {
  return Object.assign(p.child, { output: () => fs.readFileSync(p.logFile, 'utf8').slice(-3000) });
}

async function kill9(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await exitOf(child);
}

/** The faults on the cluster: kill -9 one API, one worker, either PostgreSQL, the Temporal server; the rolling deploy. */
function clusterTargets(s: ClusterChaos): Record<string, ChaosTarget | null> {
  const { cl } = s;
  const lbReady = () => waitUrl(`${cl.base}/readyz`);
  return {
    none: null,
    // The load balancer keeps answering from the other API; the killed one comes back on its port.
    api: {
      fault: () => kill9(cl.apis[0].child),
      recover: async () => {
        await cl.apis[0].restart();
        await lbReady();
      },
    },
    worker: {
      fault: () => kill9(cl.workers[0].child),
      recover: () => cl.workers[0].restart(),
    },
    postgres: {
      fault: async () => killTree(postmaster(s.appPg.dataDir)),
      recover: async () => {
        const opts = { dataDir: s.appPg.dataDir, port: s.appPg.port, ownProcessGroup: true, log: () => undefined };
        for (let i = 0; ; i++) {
          try {
            s.appPg = await startPostgres(opts);
            break;
          } catch (err) {
            if (i > 20) throw err;
            await new Promise((r) => setTimeout(r, 500));
          }
        }
        await lbReady();
      },
    },
    temporal: cl.temporal
      ? {
          fault: async () => {
            process.kill(cl.temporal!.pid!, 'SIGKILL');
          },
          recover: async () => {
            await cl.temporal!.restartServer();
            await lbReady();
          },
        }
      : null,
    'temporal-postgres': cl.temporal
      ? {
          fault: async () => killTree(postmaster(cl.temporal!.postgresDataDir)),
          recover: async () => {
            await cl.temporal!.restartPostgres();
            await lbReady();
          },
        }
      : null,
    // Not a fault: the rolling deploy of the changed workflow on the cluster's workers and APIs.
    deploy: {
      fault: async () => {
        const v2 = `${s.dist}-v2`;
        const oldWorkers = [...cl.workers];
        const res = await rollingDeploy({
          oldWorkers: oldWorkers.map(asRunning),
          startWorker: async () => asRunning(await startV2Worker(s)),
          promote: () => promoteV2(s.admin),
          // One API at a time, on its own port: SIGTERM drains it (the load balancer's /readyz check
          // takes it out, a refused connection is retried on the other API), then version 2 starts there.
          replaceApis: cl.apis.map((a) => async () => {
            const old = asRunning(a);
            await a.restart({ dist: v2 });
            return { old, next: asRunning(a) };
          }),
          log: say,
        });
        // The stopped old workers leave the cluster: no longer Prometheus targets.
        for (const w of oldWorkers) await cl.removeProcess(w);
        say(`deploy: steps (ms from start) ${JSON.stringify(res.steps)}, killed after grace: ${res.killedAfterGrace}`);
      },
      recover: async () => undefined,
    },
  };
}

/**
 * The seekers' lifecycles: the web application's accept (no API route: humans only) runs through
 * the same use-case from here, on a Temporal client with the API's deadlines (so it recovers like
 * the API does).
 */
async function lifecycleOf(c: Stack, recruiterToken: string, teardown: Teardown) {
  const lifeTemporal = lazyClosable({
    address: c.temporalAddress,
    deadlines: { callTimeoutMs: 10_000, maxRetryDelayMs: 1_000 },
  });
  teardown.add(() => lifeTemporal.close());
  const lifeServices = createServices({
    knex: c.knex,
    temporal: new Client({ connection: lifeTemporal.connection, namespace: 'default' }),
    config: loadConfig({}, c.env),
    changelogEntries: [],
    appSecret: APP_SECRET,
  });
  const recruiterUserId: string = (
    await c
      .knex('api_tokens')
      .where({ token_hash: hashToken(recruiterToken) })
      .first('user_id')
  ).user_id;
  const newSeekers = async (n: number, tag: string): Promise<LifecycleSeeker[]> => {
    const out: LifecycleSeeker[] = [];
    for (let i = 0; i < n; i++) {
      const user = await lifeServices.deps.repos.accounts.insertUser({
        email: `chaos-${tag}-${i}@chaos.test`,
        display_name: `Chaos seeker ${i}`,
        role: 'seeker',
      });
      await lifeServices.accounts.profiles.completeOnboarding(user.id, {
        full_name: `Chaos seeker ${i}`,
        title: 'Engineer',
        skills: ['TypeScript', 'PostgreSQL'],
        experience_years: 5,
      } as never);
      out.push({
        userId: user.id,
        token: (await lifeServices.accounts.tokens.mint(user.id, { name: 'chaos', scopes: SCOPES })).token,
      });
    }
    return out;
  };
  const accept = async (m: { id: string; seekerUserId: string }) => {
    await lifeServices.matches.accept({ userId: m.seekerUserId, matchId: m.id });
    await lifeServices.matches.accept({ userId: recruiterUserId, matchId: m.id });
  };
  return { temporal: lifeServices.deps.temporal, newSeekers, accept };
}

/** The recruiter's API calls (keyed creation of events, jobs and webhooks). */
const poster = (c: Stack, recruiterToken: string) => async (p: string, body?: unknown) => {
  const res = await fetch(`${c.base}/api/v1${p}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${recruiterToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`POST ${p}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
};

/** One fault's row: a fresh event with a webhook, two small-capacity events for the lifecycles, and the run. */
async function runFault(
  fault: string,
  c: Stack,
  ctx: {
    recruiterToken: string;
    receiver: ChaosReceiver;
    targets: Record<string, ChaosTarget | null>;
    life: Awaited<ReturnType<typeof lifecycleOf>>;
    /** The soak: steady traffic over this span, no fault. */
    soakMs?: number;
    /** Called when the row's traffic starts (after its events and seekers are set up). */
    onTraffic?: () => void;
  },
): Promise<ChaosResult> {
  // The soak's steady rates: a job creation every 2 s, a webhook test every 4 s, a seeker every 3 s.
  const soakS = ctx.soakMs ? ctx.soakMs / 1000 : 0;
  const n = {
    jobs: soakS ? Math.round(soakS / 2) : Number(values.jobs),
    tests: soakS ? Math.round(soakS / 4) : Number(values.tests),
    seekers: soakS ? Math.round(soakS / 3) : Number(values.seekers),
    events: soakS ? 4 : 2,
  };
  // The deploy row: traffic from well before the switch to well after it, so workflows started on
  // version 1 are in flight when version 2 takes over; no down time. 150 s: on a loaded machine the
  // dev server took up to 73 s to make a version current (3.5 s unloaded-ish), and the row must
  // still have traffic for version 2 afterwards.
  const timing = ctx.soakMs
    ? { faultAfterMs: 0, downMs: 0, spanMs: ctx.soakMs }
    : fault === 'deploy'
      ? { faultAfterMs: 6_000, downMs: 0, spanMs: 150_000 }
      : { faultAfterMs: 2_000, downMs: Number(values['down-ms']) };
  const post = poster(c, ctx.recruiterToken);
  const slug = `chaos-${fault}-${Date.now().toString(36)}`;
  const ev = (await post('/live-events', { slug, company_name: 'Chaos Inc', visibility: 'open_invite' })).event;
  await post(`/live-events/${ev.id}/go-live`);
  const hook = await post('/webhooks', { target_url: ctx.receiver.url, events: ['match.matched'] });
  const lifeEvents = [];
  for (let i = 0; i < n.events; i++) {
    const le = (
      await post('/live-events', {
        slug: `${slug}-life-${i}`,
        company_name: 'Chaos Inc',
        visibility: 'open_invite',
        interview_slots: Number(values.slots),
      })
    ).event;
    for (const title of ['Backend engineer', 'Platform engineer'])
      await post('/jobs', { live_event_id: le.id, title: `${title} ${i}`, essential_skills: ['TypeScript'] });
    await post(`/live-events/${le.id}/go-live`);
    lifeEvents.push({ id: le.id as string, slug: le.slug as string });
  }
  const seekers = await ctx.life.newSeekers(n.seekers, slug);
  say(
    `${ctx.soakMs ? 'soak' : `fault ${fault}`}: ${n.jobs} keyed job creations + ${n.tests} webhook tests + ` +
      `${n.seekers} seeker lifecycles on ${n.events} events × ${values.slots} slots…`,
  );
  ctx.onTraffic?.();
  return runChaos(fault, {
    base: () => c.base,
    knex: c.knex,
    token: ctx.recruiterToken,
    eventId: ev.id,
    webhookId: hook.id,
    receiver: ctx.receiver,
    jobs: n.jobs,
    tests: n.tests,
    concurrency: Number(values.concurrency),
    ...timing,
    target: ctx.soakMs ? null : ctx.targets[fault],
    settleMs: 180_000,
    log: say,
    lifecycle: { seekers, events: lifeEvents, temporal: ctx.life.temporal, accept: ctx.life.accept },
  });
}

/** Writes the table and sets exit code 1 on a lost, duplicated or given-up operation, a slow recovery, a broken lifecycle invariant or a non-deterministic replay. */
function report(results: ChaosResult[], extra = '', extraFailed = false): void {
  const table = chaosTable(results) + (extra ? `\n\n${extra}` : '');
  console.log(`\n${table}`);
  fs.mkdirSync('test-artifacts', { recursive: true });
  fs.writeFileSync(path.join('test-artifacts', 'chaos.md'), `${new Date().toISOString()}\n\n${table}\n`);
  const bad = results.filter(
    (r) =>
      // A deploy row in which no workflow ran the changed code proved nothing.
      (r.deploy && (r.deploy.nonDeterminism > 0 || r.deploy.backToOld > 0 || r.deploy.newPath === 0)) ||
      r.lost ||
      r.duplicated ||
      r.gaveUp ||
      r.deliveriesDuplicatedBeyondAtLeastOnce ||
      (r.recoveryMs ?? 0) > 5_000 ||
      (r.lifecycle &&
        (r.lifecycle.overCapacity > 0 ||
          r.lifecycle.matchedTwice > 0 ||
          r.lifecycle.disagreements > 0 ||
          r.lifecycle.acceptedAfterExpiry > 0 ||
          r.lifecycle.longestGapMs > 15_000)),
  );
  process.exitCode = bad.length || extraFailed ? 1 : 0;
}

/** Under the cluster's table: what the clients' keyed retries absorbed per row, and the machine's load. */
function clusterNote(results: ChaosResult[]): string {
  const perRow = results.map((r) => `${r.fault} ${r.failedAttempts} (gave up ${r.gaveUp})`).join(', ');
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  return (
    `On the cluster (2 APIs behind nginx, 2 workers, the Temporal server on PostgreSQL), every request through the load balancer. ` +
    `Attempts answered 5xx or failed on the network, then retried with their key, per row: ${perRow}. ` +
    `Load average (1 / 5 / 15 min) at the end: ${load} on ${os.cpus().length} cores.`
  );
}

/** Version 2: the same compiled build with a workflow bundle carrying the changed workflow (bench/support/deploy-change.ts). */
function buildChangedWorkflow(v1: string, v2: string): void {
  fs.cpSync(v1, v2, { recursive: true });
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(__dirname, '..', 'dev/build-dist.ts'),
      '--out',
      v2,
      '--bundle-only',
      '--workflow-interceptor',
      path.join(__dirname, 'support', 'deploy-change.ts'),
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`version 2's workflow bundle failed: ${r.stderr}`);
}

/** The rows asked for (--faults), or every row of the stack; none for a soak. */
function chosenFaults(dist: string | null): string[] {
  const faults = values.soak
    ? []
    : (
        values.faults ??
        (values.cluster
          ? 'none,api,worker,deploy,postgres,temporal,temporal-postgres'
          : 'none,worker,api,postgres,temporal,deploy')
      ).split(',');
  if (faults.includes('deploy') && !dist) throw new Error('the deploy row needs the compiled build: drop --tsx');
  if (values.cluster && !dist) throw new Error('--cluster runs the compiled build: drop --tsx');
  return faults;
}

/** The compiled build, and version 2 beside it when the deploy row runs. */
function buildVersions(dist: string, faults: string[]): void {
  const tb = Date.now();
  buildDist(dist);
  say(`npm run build:dist (into ${path.relative(process.cwd(), dist)}) in ${((Date.now() - tb) / 1000).toFixed(1)} s`);
  if (faults.includes('deploy')) {
    const tv = Date.now();
    buildChangedWorkflow(dist, `${dist}-v2`);
    say(`version 2 (the changed workflow's bundle) in ${((Date.now() - tv) / 1000).toFixed(1)} s`);
  }
}

/** The stack under fault, with what the rows strike and what the soak samples. */
interface Started {
  stack: Stack;
  admin: Client;
  recruiterToken: string;
  targets: Record<string, ChaosTarget | null>;
  processes: ConstructorParameters<typeof SoakSampler>[0];
}

/** --cluster: the production shape (dev/cluster.ts). */
async function startClusterStack(dist: string, logs: RunningProcess[], teardown: Teardown): Promise<Started> {
  const { s, recruiterToken } = await startClusterChaos(dist, logs, teardown);
  const processes = () => [
    ...s.cl.apis.map((a) => ({ name: a.name, pids: () => [a.child.pid!] })),
    ...s.cl.workers.map((w) => ({ name: w.name, pids: () => [w.child.pid!] })),
    { name: 'app PostgreSQL (server + backends)', pids: () => withChildren(postmaster(s.cl.appPg.dataDir)) },
    ...(s.cl.temporal
      ? [
          { name: 'Temporal server', pids: () => [s.cl.temporal!.pid!] },
          {
            name: "Temporal's PostgreSQL (server + backends)",
            pids: () => withChildren(postmaster(s.cl.temporal!.postgresDataDir)),
          },
        ]
      : []),
    { name: 'nginx', pids: () => withChildren(s.cl.nginx.pid!) },
  ];
  return { stack: s, admin: s.admin, recruiterToken, targets: clusterTargets(s), processes };
}

/** The dev-server stack: one API, the workers, PostgreSQL, the Temporal dev server. */
async function startDevStack(
  dir: string,
  dist: string | null,
  logs: RunningProcess[],
  teardown: Teardown,
): Promise<Started> {
  const { c, recruiterToken } = await startChaos(dir, dist, logs, teardown);
  const processes = () => [
    { name: 'API', pids: () => [c.api.pid!] },
    ...c.workers.map((w, i) => ({ name: `worker ${i + 1}`, pids: () => [w.pid!] })),
    { name: 'PostgreSQL (server + backends)', pids: () => withChildren(postmaster(c.pg.dataDir)) },
    { name: 'Temporal dev server', pids: () => (c.temporal.pid ? [c.temporal.pid] : []) },
  ];
  return { stack: c, admin: c.admin, recruiterToken, targets: faultTargets(c), processes };
}

type RowContext = Parameters<typeof runFault>[2];

/** --soak: steady traffic over the span, no fault, each process's resources sampled. */
async function runSoak(st: Started, row: RowContext, results: ChaosResult[]): Promise<void> {
  const soakMs = parseDuration(values.soak!);
  const sampler = new SoakSampler(st.processes);
  const r = await runFault('soak', st.stack, { ...row, soakMs, onTraffic: () => sampler.start() });
  sampler.stop();
  results.push(r);
  const soak = sampler.report(soakMs);
  report(results, soak.table, soak.failures.length > 0);
}

/** The deploy row: the histories it touched, scanned for task failures and version moves. */
async function scanDeploy(r: ChaosResult, admin: Client, rowStart: number): Promise<void> {
  const d = await scanDeployHistories(admin, {
    sinceMs: rowStart,
    patchId: DEPLOY_PATCH,
    oldBuildId: V1,
    newBuildId: V2,
  });
  r.deploy = d;
  say(
    `deploy: ${d.workflows} histories scanned: ${d.taskFailures} workflow task failures ` +
      `(${d.nonDeterminism} non-determinism), ${d.newPath} ran the changed code, ` +
      `${d.upgradedInFlight} moved from version 1 to 2 in flight (${d.upgradedToNewPath} of them then ` +
      `took the new path), ${d.backToOld} went back to version 1` +
      (d.examples.length ? `\n  ${d.examples.join('\n  ')}` : ''),
  );
}

/** Each fault's row in turn, its table printed as it ends; then the report. */
async function runRows(st: Started, faults: string[], row: RowContext, results: ChaosResult[]): Promise<void> {
  for (const fault of faults) {
    if (!(fault in st.targets)) throw new Error(`unknown fault ${fault}; one of ${Object.keys(st.targets).join(', ')}`);
    const rowStart = Date.now();
    const r = await runFault(fault, st.stack, row);
    if (fault === 'deploy') await scanDeploy(r, st.admin, rowStart);
    results.push(r);
    say(`\n${chaosTable([r])}`);
  }
  report(results, values.cluster ? clusterNote(results) : '');
}

/** --keep: the run folder stays, with every process's output; else it goes. */
function keepOrRemove(dir: string, logs: RunningProcess[]): void {
  if (!values.keep) return fs.rmSync(dir, { recursive: true, force: true });
  logs.forEach((p, i) => fs.writeFileSync(path.join(dir, `process-${i}-${p.pid}.log`), p.output()));
  say(
    values.cluster
      ? `kept ${dir} (the cluster's own folder, named above, has every process's log)`
      : `kept ${dir} (temporal.sqlite, process-*.log; read it with: temporal server start-dev ` +
          `--db-filename ${path.join(dir, 'temporal.sqlite')} --headless)`,
  );
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-chaos-'));
  const teardown = new Teardown();
  const results: ChaosResult[] = [];
  const dist = values.tsx ? null : path.join(__dirname, '..', 'dist', `chaos-${randomUUID().slice(0, 8)}`);
  const logs: RunningProcess[] = [];
  try {
    const faults = chosenFaults(dist);
    if (dist) buildVersions(dist, faults);
    const st = values.cluster
      ? await startClusterStack(dist!, logs, teardown)
      : await startDevStack(dir, dist, logs, teardown);
    const receiver = await startChaosReceiver();
    teardown.add(() => receiver.close());
    const life = await lifecycleOf(st.stack, st.recruiterToken, teardown);
    const row: RowContext = { recruiterToken: st.recruiterToken, receiver, targets: st.targets, life };
    if (values.soak) await runSoak(st, row, results);
    else await runRows(st, faults, row, results);
  } finally {
    await teardown.run(() => undefined);
    if (dist) for (const d of [dist, `${dist}-v2`]) fs.rmSync(d, { recursive: true, force: true });
    keepOrRemove(dir, logs);
  }
}

runMain(main);
