/**
 * The whole performance table (each figure beside its ceiling): `npm run bench` (no arguments) or `npm run bench -- --quick`.
 *
 * Starts its own stack (throw-away PostgreSQL and in-memory Temporal dev server on free ports),
 * seeds realistic data (1,000 events / 100,000 jobs, seekers, queue entries, matches), starts the
 * API and the worker as their own processes (compiled, as the image runs them, so their memory is
 * theirs) and a ceiling process, and prints ONE table — each row our figure beside its ceiling measured in the
 * same run, interleaved round by round (median of 3 rounds), so both see the same machine load:
 *
 * - discovery (live-now, jobs/search with skills, events/{slug}, live-events), cached and
 *   uncached, vs a bare Fastify route answering the same JSON body;
 * - GET /queue/status vs the same route, service and schema without auth and rate limiter;
 * - POST /queue/join p50/p99 at 1 and 20 concurrent seekers vs a bare update-with-start of a
 *   workflow whose update answers at once;
 * - jobs/search query p99 at 10k / 100k (/ 1M, full mode) jobs;
 * - RSS of the API and the worker, idle and after the load, and an idle worker compiled vs tsx;
 * - `--worker-tsx`: the worker the rows use runs as `npm start` runs it (tsx, webpack at start)
 *   instead of compiled with the prebuilt bundle (decision 0241);
 * - the matching and webhook rows from `bench/matching-scale.ts --json` and `bench/webhooks.ts
 *   --json` (child processes with their own stacks; "not measured" when a script has no --json);
 * - opt-in `--temporal-postgres`: the table's own stack (queue/join, discovery, auth, memory) runs on
 *   a Temporal server on PostgreSQL instead of the dev server's in-memory SQLite, and the webhook
 *   rows are measured twice, dev server then PostgreSQL, side by side (decision 0220);
 * - `--cluster`: instead of the table, its matching, webhook, join, discovery and memory rows on
 *   the production shape (`npm run cluster`'s `startCluster`), measured by the same code
 *   (bench/cluster.ts).
 *
 * Writes bench/results/<time>.md and .json (git-ignored) and prints the Markdown.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Knex } from 'knex';
import { loadConfig, type Config } from '#lib/config';
import { startThrowawayInfrastructure, type Infrastructure } from '#dev/stack';
import { ensureDatabase } from '#dev/postgres-server';
import { freePort } from '#dev/ports';
import { defaultCacheDir, resolveTemporalCli } from '#dev/temporal-server';
import { createKnex, migrateLatest } from '#db/knex';
import { createRepositories } from '#db/repositories';
import { seed, searchPaths } from './discovery';
import { skills } from '#domain/matchmaking/skills';
import { load, type LoadResult } from './support/load';
import { startTemporalOnPostgres, type TemporalOnPostgres } from './support/temporal-postgres';
import { buildDist, dbUrlFor, loadavg, migratedDatabase, rssMiB, waitFor as waitForEvery } from './support/infra';
import { runCases, runMain, Teardown, type BenchCase } from './support/runner';
import { median, percentile, sum } from './support/stats';
import { imageApiNodeFlags } from '#dev/image-command';
import { TICK_MS, postgresPids, ticks } from './support/cpu';
import { clusterMain } from './cluster';
import { markdown, machineHeader, matchingRows, webhookRows, type Row, type TableHeader } from './support/table';
import {
  joinFirstSeekers,
  joinOver,
  joinRows,
  joinSamples,
  seedSeekers,
  seekersFor,
  type Seeker,
} from './support/joins';

const ROOT = path.join(__dirname, '..');
const quick = process.argv.includes('--quick');
/** Opt-in, never in the default run: Temporal on PostgreSQL (bench/support/temporal-postgres.ts, decision 0220). */
const temporalPostgres = process.argv.includes('--temporal-postgres');
const workerTsx = process.argv.includes('--worker-tsx');
// `--only auth,memory` runs those sections alone (discovery, auth, queue, memory, growth, matching,
// webhooks); without discovery and growth the data set is small, so it takes about a minute.
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1].split(',')) : null;
const has = (section: string) => !only || only.has(section);
const ROUNDS = 3;
const CONNECTIONS = 50;
const STATUS_CONNECTIONS = 10;
const DURATION_S = quick ? 1 : 4;
const WARMUP_S = quick ? 3 : 8;
const EVENTS = has('discovery') ? 1000 : 50;
const JOBS = has('discovery') ? 100_000 : 2_000;
const GROWTH = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
const JOIN_SAMPLES = joinSamples(quick);

const log = (l: string) => console.log(`[bench] ${l}`);

/**
 * A process of ours, one process each so its RSS is its own: `node <nodeFlags> <dist>/….js` when
 * `dist` is given (the production image's way, decisions 0210 and 0231: the API gets the
 * Dockerfile CMD's Node flags), else `node --import tsx <file>` (npm start's).
 */
function startProcess(
  name: string,
  file: string,
  env: Record<string, string>,
  dist?: string,
  nodeFlags: string[] = [],
): ChildProcess {
  const args = dist ? [...nodeFlags, path.join(dist, file.replace(/\.ts$/, '.js'))] : ['--import', 'tsx', file];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
  return child;
}

/** The table's processes start slower than a single bench's (several at once, a larger data set). */
const waitFor = (what: string, check: () => Promise<boolean>) =>
  waitForEvery(what, check, { timeoutMs: 180_000, everyMs: 250 });

function header(temporalCli: string | null) {
  let temporal = 'unknown';
  if (temporalCli) {
    const r = spawnSync(temporalCli, ['--version'], { encoding: 'utf8' });
    temporal = (r.stdout || r.stderr).trim();
  }
  return {
    ...machineHeader(ROOT),
    temporal,
    mode: `${quick ? 'quick' : 'full'}${only ? ` (only ${[...only].join(', ')})` : ''}`,
  };
}

type Pair = { name: string; ours: () => Promise<LoadResult>; ceiling: () => Promise<LoadResult> };

/**
 * Runs ours and its ceiling alternately, ROUNDS times; the median of each figure. Warm-up first:
 * JIT, pools, plans, caches. Ours gets WARMUP_S (a served process is warm; on a loaded machine the
 * API's search path was still speeding up after 1 s of load: 575 → 2,341 → 3,913 req/s over three
 * 2 s runs at load ~10), its ceiling one run (a bare route warms at once).
 */
async function interleaved(pairs: Pair[]): Promise<Map<string, { ours: LoadResult; ceiling: LoadResult }>> {
  const cases: Array<BenchCase<{ ours: LoadResult; ceiling: LoadResult }>> = pairs.map((p) => ({
    name: p.name,
    warmUp: async () => {
      for (let left = WARMUP_S; left > 0; left -= DURATION_S) await p.ours();
      await p.ceiling();
    },
    run: async () => ({ ours: await p.ours(), ceiling: await p.ceiling() }),
  }));
  const runs = await runCases(cases, {
    rounds: ROUNDS,
    warmUpFirst: true,
    onResult: (p, { ours: o, ceiling: c }, r) =>
      log(
        `round ${r + 1} ${p.name}: ${o.rps.toFixed(0)} vs ${c.rps.toFixed(0)} req/s (p99 ${o.p99} ` +
          `vs ${c.p99} ms${o.errors + o.non2xx ? `, ${o.errors + o.non2xx} failed` : ''})`,
      ),
  });
  const med = (xs: LoadResult[]): LoadResult => ({
    rps: median(xs.map((x) => x.rps)),
    p50: median(xs.map((x) => x.p50)),
    p99: median(xs.map((x) => x.p99)),
    requests: sum(xs.map((x) => x.requests)),
    errors: sum(xs.map((x) => x.errors)),
    non2xx: sum(xs.map((x) => x.non2xx)),
    bytesPerRequest: median(xs.map((x) => x.bytesPerRequest)),
  });
  return new Map(
    [...runs].map(([k, v]) => [k, { ours: med(v.map((x) => x.ours)), ceiling: med(v.map((x) => x.ceiling)) }]),
  );
}

/** jobs/search query p50/p99 (repository, 8 concurrent) over the 200 searches, at a given size. */
async function searchGrowth(adminUrl: string, jobs: number): Promise<{ p50: number; p99: number; seedS: number }> {
  const db = `bench_growth_${jobs}`;
  await ensureDatabase(adminUrl, db);
  const knex = createKnex(dbUrlFor(adminUrl, db), 10);
  try {
    await migrateLatest(knex);
    const t = Date.now();
    await seed(knex, { events: Math.max(100, Math.min(EVENTS, jobs / 100)), jobs });
    const seedS = (Date.now() - t) / 1000;
    const repo = createRepositories(knex).jobs;
    const searches = searchPaths(200).map((p) => {
      const q = new URLSearchParams(p.split('?')[1]);
      return {
        // As the route asks: canonical ids of what was typed (`C#` is `csharp`, `Node.js` is `nodejs`).
        skills: skills.idsOf((q.get('skills') ?? '').split(',')),
        remote: (q.get('remote') ?? undefined) as 'remote' | 'hybrid' | 'onsite' | undefined,
        location: q.get('location') ?? undefined,
        salaryMin: q.get('salary_min') ? Number(q.get('salary_min')) : undefined,
        limit: 20,
      };
    });
    for (const s of searches.slice(0, 40)) await repo.search(s); // warm-up: plans, buffers
    const lat: number[] = [];
    let next = 0;
    const until = Date.now() + DURATION_S * 1000 * 2;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (Date.now() < until) {
          const s = searches[next++ % searches.length];
          const t0 = performance.now();
          await repo.search(s);
          lat.push(performance.now() - t0);
        }
      }),
    );
    return { p50: percentile(lat, 50), p99: percentile(lat, 99), seedS };
  } finally {
    await knex.destroy();
  }
}

/** A helper's bench script run as a child with `--json` (and `extra` arguments); null (with why) when it has no such flag. */
function childBench(
  script: string,
  resultsDir: string,
  extra: string[] = [],
): { data: Record<string, unknown> | null; why: string } {
  const file = path.join(ROOT, 'bench', script);
  if (!fs.existsSync(file)) return { data: null, why: `bench/${script} is not on this branch` };
  if (!fs.readFileSync(file, 'utf8').includes("'--json'"))
    return { data: null, why: `bench/${script} has no --json flag on this branch` };
  const out = path.join(resultsDir, `${script.replace(/\.ts$/, '')}-${Date.now()}.json`);
  log(`running bench/${script} --json${quick ? ' --quick' : ''}${extra.map((a) => ` ${a}`).join('')}…`);
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', file, '--json', out, ...(quick ? ['--quick'] : []), ...extra],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (r.status !== 0 || !fs.existsSync(out))
    return { data: null, why: `bench/${script} exited ${r.status ?? r.signal}` };
  return { data: JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown>, why: '' };
}

/** The table's own stack once started: the database, the processes of ours and how to reach them. */
interface Stack {
  infra: ThrowawayInfrastructure;
  dist: string;
  knex: Knex;
  env: Record<string, string>;
  ports: { api: number; apiNoCache: number; ceiling: number };
  api: ChildProcess;
  worker: ChildProcess;
  children: ChildProcess[];
  seekers: Seeker[];
  joinHttp: (s: { token: string }) => Promise<void>;
  temporalAddress: string;
}

const url = (port: number) => `http://127.0.0.1:${port}`;
type ThrowawayInfrastructure = Infrastructure & { dir: string };

/** Opt-in: the table's own stack (queue/join, discovery, memory rows) on a Temporal server on PostgreSQL. */
async function startTemporalPg(base: Config, teardown: Teardown): Promise<TemporalOnPostgres | null> {
  if (!temporalPostgres) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-bench-temporal-pg-'));
  fs.chmodSync(dir, 0o755);
  try {
    const server = await startTemporalOnPostgres({
      dir,
      cacheDir: defaultCacheDir(base.CACHE_DIR),
      namespace: base.TEMPORAL_NAMESPACE,
      log,
    });
    teardown.add(async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    return server;
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** The environment of our processes, on the stack's database and Temporal. */
function processEnv(dbUrl: string, temporalAddress: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    DATABASE_URL: dbUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: 'bench',
    HOST: '127.0.0.1',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    PUBLIC_BASE_URL: 'http://jobfair.bench',
    // One client address drives all the load: lift the per-client limits (the limiter still runs).
    RATE_LIMIT_PUBLIC_PER_MIN: '100000000',
    RATE_LIMIT_READ_PER_MIN: '100000000',
    RATE_LIMIT_WRITE_PER_MIN: '100000000',
    QUEUE_ENTRY_TTL_MS: String(6 * 60 * 60 * 1000),
  };
}

/** Builds the production output, seeds the data set and starts the API twice (short cache on, as deployed; and off) and the worker. */
async function startStack(
  infra: ThrowawayInfrastructure,
  dist: string,
  children: ChildProcess[],
): Promise<Omit<Stack, 'seekers' | 'joinHttp' | 'temporalAddress'>> {
  const tb = Date.now();
  buildDist(dist);
  log(`npm run build:dist (into ${path.relative(ROOT, dist)}) in ${((Date.now() - tb) / 1000).toFixed(1)} s`);
  const { url: dbUrl, knex } = await migratedDatabase(infra.adminDatabaseUrl ?? infra.databaseUrl, 'bench', 10);
  const t = Date.now();
  await seed(knex, { events: EVENTS, jobs: JOBS });
  log(`seeded ${EVENTS} events / ${JOBS} jobs in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const env = processEnv(dbUrl, infra.temporalAddress);
  const ports = { api: await freePort(), apiNoCache: await freePort(), ceiling: await freePort() };
  const imageFlags = imageApiNodeFlags(ROOT);
  const api = startProcess('api', 'apps/api/src/server.ts', { ...env, PORT: String(ports.api) }, dist, imageFlags);
  const apiNoCache = startProcess(
    'api-nocache',
    'apps/api/src/server.ts',
    { ...env, PORT: String(ports.apiNoCache), PUBLIC_CACHE_TTL_MS: '0' },
    dist,
    imageFlags,
  );
  // The worker as the image runs it too: compiled, with the prebuilt workflow bundle (decision
  // 0225); `--worker-tsx`: as `npm start` runs it (tsx, workflows bundled by webpack at start).
  const worker = startProcess('worker', 'apps/worker/src/main.ts', env, workerTsx ? undefined : dist);
  children.push(api, apiNoCache, worker);
  await waitFor('API', async () => (await fetch(`${url(ports.api)}/readyz`)).ok);
  await waitFor('API (no cache)', async () => (await fetch(`${url(ports.apiNoCache)}/healthz`)).ok);
  return { infra, dist, knex, env, ports, api, worker, children };
}

/** npm start's way (tsx), for the same idle figure: started, ready, 20 authenticated reads, measured, stopped. */
async function apiTsxIdleRss(s: Stack): Promise<number> {
  const port = await freePort();
  const apiTsx = startProcess('api-tsx', 'apps/api/src/server.ts', { ...s.env, PORT: String(port) });
  s.children.push(apiTsx);
  await waitFor('API (tsx)', async () => (await fetch(`${url(port)}/readyz`)).ok);
  for (const seeker of s.seekers.slice(0, 20))
    await (
      await fetch(`${url(port)}/api/v1/queue/status`, { headers: { authorization: `Bearer ${seeker.token}` } })
    ).arrayBuffer();
  const rss = rssMiB(apiTsx.pid);
  apiTsx.kill('SIGTERM');
  return rss;
}

interface Scenario {
  key: string;
  name: string;
  paths: string[];
}

async function discoveryScenarios(knex: Knex): Promise<Scenario[]> {
  if (!has('discovery')) return [];
  const slugs: string[] = (await knex('live_events')
    .where({ visibility: 'open_invite', status: 'live' })
    .orderBy('slug')
    .limit(200)
    .pluck('slug')) as string[];
  const search = searchPaths(200).filter((p) => p.includes('skills='));
  return [
    { key: 'live-now', name: 'GET /live-events/live-now', paths: ['/api/v1/live-events/live-now'] },
    { key: 'jobs-search', name: 'GET /jobs/search (skills, 160 distinct)', paths: search },
    { key: 'event', name: 'GET /events/{slug} (200 events)', paths: slugs.map((slug) => `/api/v1/events/${slug}`) },
    { key: 'live-events', name: 'GET /live-events?limit=25', paths: ['/api/v1/live-events?limit=25'] },
  ];
}

/** The ceiling process, answering same-size bodies sampled from our own answers. */
async function startCeiling(s: Stack, scenarios: Scenario[]): Promise<ChildProcess> {
  const bodies: Record<string, unknown> = {};
  for (const sc of scenarios) {
    const sizes = await Promise.all(
      sc.paths.slice(0, 40).map(async (p) => await (await fetch(url(s.ports.apiNoCache) + p)).text()),
    );
    const sorted = sizes.sort((a, b) => a.length - b.length);
    bodies[sc.key] = JSON.parse(sorted[Math.floor(sorted.length / 2)]); // the median-size answer
  }
  const bodiesFile = path.join(s.infra.dir, 'bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
  const ceiling = startProcess('ceiling', 'bench/support/ceiling-server.ts', {
    ...s.env,
    PORT: String(s.ports.ceiling),
    BENCH_BODIES_FILE: bodiesFile,
  });
  s.children.push(ceiling);
  await waitFor('ceiling server', async () => (await fetch(`${url(s.ports.ceiling)}/bare/live-now`)).ok);
  return ceiling;
}

const http =
  (port: number, paths: string[], headers?: Record<string, string>, connections = CONNECTIONS) =>
  () =>
    load({ url: url(port), paths, connections, durationS: DURATION_S, headers });

function discoveryPairs(s: Stack, scenarios: Scenario[]): Pair[] {
  const pairs: Pair[] = scenarios.flatMap((sc) => [
    {
      name: `${sc.name}, cached`,
      ours: http(s.ports.api, sc.paths),
      ceiling: http(s.ports.ceiling, [`/bare/${sc.key}`]),
    },
    {
      name: `${sc.name}, uncached`,
      ours: http(s.ports.apiNoCache, sc.paths),
      ceiling: http(s.ports.ceiling, [`/bare/${sc.key}`]),
    },
  ]);
  // The search uncached once more against a ceiling that also asks PostgreSQL once (SELECT 1):
  // what is left of the gap is the search's own query work, not the design of asking a database.
  // (Absent when `--only` leaves discovery out.)
  const search = scenarios.find((sc) => sc.key === 'jobs-search');
  if (search)
    pairs.push({
      name: `${search.name}, uncached, vs bare route + 1 PostgreSQL round trip`,
      ours: http(s.ports.apiNoCache, search.paths),
      ceiling: http(s.ports.ceiling, ['/bare-db/jobs-search']),
    });
  return pairs;
}

/**
 * Authenticated read: one seeker's token (autocannon sends one header set per run), at
 * STATUS_CONNECTIONS: a status answer is ~8 SQL statements, and 50 connections only queue on the
 * 20-connection pool (both sides alike) instead of measuring the route. Beside req/s, the CPU each
 * request costs — the serving process plus every PostgreSQL process, read from /proc around the
 * same runs: on a loaded shared machine req/s swings with the neighbours (0.76–1.30× in five runs
 * at load 6–12), CPU per request far less.
 */
function statusPair(s: Stack, ceiling: ChildProcess, statusCpu: { ours: number[]; ceiling: number[] }): Pair {
  const statusSeeker = s.seekers[1];
  const withCpu = (pid: number | undefined, into: number[], run: () => Promise<LoadResult>) => async () => {
    const pg = postgresPids(path.join(s.infra.dir, 'pg'));
    const cpu = () => ticks(pid ?? 0) + sum(pg.map((p) => ticks(p)));
    const before = cpu();
    const r = await run();
    into.push(((cpu() - before) * TICK_MS) / Math.max(1, r.requests));
    return r;
  };
  return {
    name: `GET /queue/status (auth + limiter), ${STATUS_CONNECTIONS} connections`,
    ours: withCpu(
      s.api.pid,
      statusCpu.ours,
      http(
        s.ports.api,
        ['/api/v1/queue/status'],
        { authorization: `Bearer ${statusSeeker.token}` },
        STATUS_CONNECTIONS,
      ),
    ),
    ceiling: withCpu(
      ceiling.pid,
      statusCpu.ceiling,
      http(s.ports.ceiling, ['/api/v1/queue/status'], { 'x-bench-user': statusSeeker.id }, STATUS_CONNECTIONS),
    ),
  };
}

function httpRow(name: string, ours: LoadResult, c: LoadResult): Row {
  const status = name.startsWith('GET /queue/status');
  const failed = ours.errors + ours.non2xx;
  return {
    section: status ? 'auth' : 'discovery',
    name,
    unit: 'req/s',
    ours: ours.rps,
    ceiling: c.rps,
    ratio: ours.rps / c.rps,
    oursP50: ours.p50,
    oursP99: ours.p99,
    ceilingP50: c.p50,
    ceilingP99: c.p99,
    target: status ? '≥ 0.83× (overhead ≤ 20 %)' : name.includes('jobs/search') ? '≥ 0.5×, p99 < 20 ms' : undefined,
    note:
      `${(ours.bytesPerRequest / 1024).toFixed(1)} KiB vs ` +
      `${(c.bytesPerRequest / 1024).toFixed(1)} KiB per answer${failed ? `; ${failed} failed` : ''}`,
  };
}

/** The interleaved rounds' CPU figures (the warm-up runs came first). */
function statusCpuRow(name: string, statusCpu: { ours: number[]; ceiling: number[] }): Row {
  const [o, cc] = [median(statusCpu.ours.slice(-ROUNDS)), median(statusCpu.ceiling.slice(-ROUNDS))];
  return {
    section: 'auth',
    name: `${name}: CPU per request, API + PostgreSQL`,
    unit: 'CPU ms/request',
    ours: o,
    ceiling: cc,
    ratio: o / cc,
    target: '≤ 1.2× (overhead ≤ 20 %)',
    note:
      'lower is better; ceiling: the same route without auth and limiter (its process under ' +
      'tsx); PostgreSQL: every process of the cluster (the idle worker included)',
  };
}

/** Discovery and authenticated-read rows: ours and its ceiling over HTTP, interleaved. */
async function httpRows(s: Stack): Promise<{ rows: Row[]; ceiling: ChildProcess }> {
  const scenarios = await discoveryScenarios(s.knex);
  const ceiling = await startCeiling(s, scenarios);
  const pairs = discoveryPairs(s, scenarios);
  const statusCpu = { ours: [] as number[], ceiling: [] as number[] };
  if (has('auth')) pairs.push(statusPair(s, ceiling, statusCpu));
  const rows: Row[] = [];
  for (const [name, { ours, ceiling: c }] of await interleaved(pairs)) {
    rows.push(httpRow(name, ours, c));
    if (name.startsWith('GET /queue/status') && statusCpu.ours.length >= ROUNDS)
      rows.push(statusCpuRow(name, statusCpu));
  }
  return { rows, ceiling };
}

/**
 * After the load, so no row above shares the machine with them: the worker both ways on a task
 * queue of their own (no work reaches them but their own matchmaker's start), one after the
 * other: `node dist/…/main.js` with the prebuilt workflow bundle, as the image runs it (decision
 * 0225), and npm start's tsx, which bundles the workflows with webpack at start. Measured once
 * polling, then after 10 s (both idle).
 */
async function idleWorkersRss(s: Stack, namespace: string): Promise<{ compiled: number; tsx: number }> {
  const out = { compiled: NaN, tsx: NaN };
  const memConnection = await Connection.connect({ address: s.infra.temporalAddress });
  const pollers = async (taskQueue: string) =>
    (
      await memConnection.workflowService.describeTaskQueue({
        namespace,
        taskQueue: { name: taskQueue },
        taskQueueType: 1,
      })
    ).pollers?.length ?? 0;
  for (const kind of ['compiled', 'tsx'] as const) {
    const taskQueue = `bench-memory-${kind}`;
    const w = startProcess(
      `worker-${kind}`,
      'apps/worker/src/main.ts',
      { ...s.env, TEMPORAL_TASK_QUEUE: taskQueue },
      kind === 'compiled' ? s.dist : undefined,
    );
    s.children.push(w);
    await waitFor(`worker (${kind})`, async () => (await pollers(taskQueue)) > 0);
    const t0 = Date.now();
    await waitFor(`worker (${kind}) idle 10 s`, async () => Date.now() - t0 >= 10_000);
    out[kind] = rssMiB(w.pid);
    w.kill('SIGTERM');
    await new Promise<void>((resolve) => (w.exitCode !== null ? resolve() : w.once('exit', () => resolve())));
  }
  await memConnection.close();
  return out;
}

interface MemoryFigures {
  idle: { api: number; worker: number; apiTsx: number; workers: { compiled: number; tsx: number } };
  after: { api: number; worker: number; ceiling: number };
}

function memoryRows({ idle, after }: MemoryFigures): Row[] {
  return [
    {
      section: 'memory',
      name: `API RSS idle (after start and 20 joins), \`node ${imageApiNodeFlags(ROOT)
        .map((f) => `${f} `)
        .join('')}dist/…/server.js\` as the image runs it`,
      unit: 'MiB',
      ours: idle.api,
      ceiling: null,
      ratio: null,
      target: '< 150 MB (143 MiB)',
    },
    {
      section: 'memory',
      name: 'API RSS idle under tsx (`npm start`: after start and 20 authenticated reads)',
      unit: 'MiB',
      ours: idle.apiTsx,
      ceiling: null,
      ratio: null,
      note: "tsx's loader: not in the image",
    },
    {
      section: 'memory',
      name: 'API RSS after load (compiled)',
      unit: 'MiB',
      ours: after.api,
      ceiling: after.ceiling,
      ratio: after.api / after.ceiling,
      note: 'ceiling: the ceiling process under tsx (Fastify + the queue route and services, after the same load)',
    },
    {
      section: 'memory',
      name: 'worker RSS idle (after start and 20 joins), `node dist/…/main.js` with the prebuilt workflow bundle',
      unit: 'MiB',
      ours: idle.worker,
      ceiling: null,
      ratio: null,
    },
    {
      section: 'memory',
      name:
        'worker RSS idle, compiled vs tsx (`npm start`, webpack at start): a worker each on its ' +
        'own task queue, 10 s after polling',
      unit: 'MiB',
      ours: idle.workers.compiled,
      ceiling: idle.workers.tsx,
      ratio: idle.workers.compiled / idle.workers.tsx,
      note: 'ceiling column: the same worker under tsx, measured right after the compiled one',
    },
    { section: 'memory', name: 'worker RSS after load', unit: 'MiB', ours: after.worker, ceiling: null, ratio: null },
  ];
}

/** Growth: the search query as the job count grows (its own databases). */
async function growthRows(adminUrl: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const n of has('growth') ? GROWTH : []) {
    const g = await searchGrowth(adminUrl, n);
    log(
      `search at ${n} jobs: p50 ${g.p50.toFixed(1)} ms, p99 ${g.p99.toFixed(1)} ms (seeded in ${g.seedS.toFixed(0)} s)`,
    );
    rows.push({
      section: 'growth',
      name: `jobs/search query at ${n.toLocaleString('en')} jobs (repository, 8 concurrent)`,
      unit: 'ms p99',
      ours: g.p99,
      ceiling: null,
      ratio: null,
      oursP50: g.p50,
      oursP99: g.p99,
      target: 'index-bound: flat',
    });
  }
  return rows;
}

/** Every row measured on the table's own stack, in the table's order. */
async function stackRows(
  infra: ThrowawayInfrastructure,
  dist: string,
  namespace: string,
  children: ChildProcess[],
): Promise<Row[]> {
  const started = await startStack(infra, dist, children);
  const joins = { rounds: ROUNDS, samples: JOIN_SAMPLES, log };
  const { seekers, holdSlug } = await seedSeekers(started.knex, started.env, seekersFor(joins), log);
  const joinHttp = joinOver(url(started.ports.api), holdSlug);
  const s: Stack = { ...started, seekers, joinHttp, temporalAddress: infra.temporalAddress };
  await joinFirstSeekers(s);
  const idle = {
    api: rssMiB(s.api.pid),
    worker: rssMiB(s.worker.pid),
    apiTsx: NaN,
    workers: { compiled: NaN, tsx: NaN },
  };
  if (has('memory')) idle.apiTsx = await apiTsxIdleRss(s);
  const { rows, ceiling } = await httpRows(s);
  if (has('queue')) rows.push(...(await joinRows(s, joins)));
  const after = { api: rssMiB(s.api.pid), worker: rssMiB(s.worker.pid), ceiling: rssMiB(ceiling.pid) };
  if (has('memory')) idle.workers = await idleWorkersRss(s, namespace);
  if (has('memory')) rows.push(...memoryRows({ idle, after }));
  for (const c of children) c.kill('SIGTERM');
  await s.knex.destroy();
  rows.push(...(await growthRows(infra.adminDatabaseUrl ?? infra.databaseUrl)));
  return rows;
}

/** The matching and webhook rows, from those benches run as children with `--json`. */
function childRows(resultsDir: string): Row[] {
  const rows: Row[] = [];
  if (has('matching')) {
    const m = childBench('matching-scale.ts', resultsDir);
    rows.push(...matchingRows(m.data, m.why));
  }
  if (has('webhooks')) {
    const w = childBench('webhooks.ts', resultsDir);
    rows.push(...webhookRows(w.data, w.why));
    if (temporalPostgres) {
      // Opt-in (decision 0220): the same bench against a Temporal server on PostgreSQL; the first run builds the server.
      const wp = childBench('webhooks.ts', resultsDir, ['--temporal-postgres']);
      rows.push(...webhookRows(wp.data, wp.why, ', Temporal on PostgreSQL'));
    }
  }
  return rows;
}

function writeResults(resultsDir: string, h: TableHeader & { seconds: string }, rows: Row[]): void {
  const md = markdown(h, rows);
  const stamp = h.date.replace(/[:.]/g, '-');
  fs.writeFileSync(path.join(resultsDir, `${stamp}.md`), `${md}\n`);
  fs.writeFileSync(
    path.join(resultsDir, `${stamp}.json`),
    `${JSON.stringify({ header: h, rounds: ROUNDS, connections: CONNECTIONS, durationS: DURATION_S, rows }, null, 2)}\n`,
  );
  console.log(`\n${md}\n`);
  log(`written to bench/results/${stamp}.{md,json} in ${h.seconds} s`);
}

function temporalCliPath(base: Config): string | null {
  try {
    return resolveTemporalCli({
      temporalCli: base.TEMPORAL_CLI,
      cacheDir: defaultCacheDir(base.CACHE_DIR),
      log: () => undefined,
    }).path;
  } catch {
    return null; // reported as unknown
  }
}

async function main() {
  // `--cluster`: the table's rows on the production shape instead (bench/cluster.ts).
  if (process.argv.includes('--cluster')) {
    await clusterMain();
    process.exit(0);
  }
  const t0 = Date.now();
  const loadStart = loadavg();
  const resultsDir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const base = loadConfig({ ...process.env, NODE_ENV: 'test', TEMPORAL_ADDRESS: '', DATABASE_URL: '' });
  const cliPath = temporalCliPath(base);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const teardown = new Teardown();
  // The APIs run as the image runs them: compiled JavaScript under plain node (Dockerfile CMD).
  const dist = path.join(ROOT, 'dist', `bench-${randomUUID().slice(0, 8)}`);
  teardown.add(async () => fs.rmSync(dist, { recursive: true, force: true }));
  const temporalPg = await startTemporalPg(base, teardown);
  const children: ChildProcess[] = [];
  const rows: Row[] = [];
  try {
    const infra = await startThrowawayInfrastructure({
      config: temporalPg ? { ...base, TEMPORAL_ADDRESS: temporalPg.address } : base,
      log: () => undefined,
      prefix: 'jobfair-bench',
    });
    teardown.add(() => infra.stop());
    teardown.add(async () => {
      for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    });
    rows.push(...(await stackRows(infra, dist, base.TEMPORAL_NAMESPACE, children)));
  } finally {
    await teardown.run();
  }
  rows.push(...childRows(resultsDir));
  const hd = header(cliPath);
  if (temporalPg)
    hd.temporal =
      `${temporalPg.version} for the table's own stack; matching and the first webhook rows: ` + `${hd.temporal}`;
  writeResults(
    resultsDir,
    {
      ...hd,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      loadStart,
      loadEnd: loadavg(),
      date: new Date().toISOString(),
      seconds: ((Date.now() - t0) / 1000).toFixed(0),
    },
    rows,
  );
  process.exit(0);
}

runMain(main, module);
