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
 *   rows are measured twice, dev server then PostgreSQL, side by side (decision 0220).
 *
 * Writes bench/results/<time>.md and .json (git-ignored) and prints the Markdown.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker as TemporalWorker } from '@temporalio/worker';
import type { Knex } from 'knex';
import { loadConfig } from '../lib/config';
import { startThrowawayInfrastructure } from '../dev/stack';
import { ensureDatabase } from '../dev/postgres-server';
import { freePort } from '../dev/ports';
import { defaultCacheDir, resolveTemporalCli } from '../dev/temporal-server';
import { createKnex, migrateLatest } from '../db/knex';
import { createRepositories } from '../db/repositories';
import { buildApp } from '../apps/api/src/app';
import { seed, searchPaths } from './discovery';
import { load, type LoadResult } from './support/load';
import { bareJoinUpdate, type bareJoinWorkflow } from './support/bare-workflows';
import { startTemporalOnPostgres, type TemporalOnPostgres } from './support/temporal-postgres';
import { buildDist, loadavg, rssMiB, waitFor as waitForEvery } from './support/infra';
import { median, percentile, sum } from './support/stats';
import { imageApiNodeFlags } from './support/image-command';
import { TICK_MS, postgresPids, ticks } from './support/cpu';

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
const JOIN_SAMPLES = { one: quick ? 12 : 40, twenty: quick ? 40 : 120 };

const log = (l: string) => console.log(`[bench] ${l}`);

export interface Row {
  section: string;
  name: string;
  unit: string;
  ours: number | null;
  ceiling: number | null;
  /** ours ÷ ceiling (throughput: higher is better; latency and memory: lower is better). */
  ratio: number | null;
  oursP50?: number;
  oursP99?: number;
  ceilingP50?: number;
  ceilingP99?: number;
  target?: string;
  note?: string;
}

/**
 * A process of ours, one process each so its RSS is its own: `node <nodeFlags> <dist>/….js` when
 * `dist` is given (the production image's way, decisions 0210 and 0231: the API gets the
 * Dockerfile CMD's Node flags), else `node --import tsx <file>` (npm start's).
 */
function startProcess(name: string, file: string, env: Record<string, string>, dist?: string, nodeFlags: string[] = []): ChildProcess {
  const args = dist ? [...nodeFlags, path.join(dist, file.replace(/\.ts$/, '.js'))] : ['--import', 'tsx', file];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
  return child;
}

/** The table's processes start slower than a single bench's (several at once, a larger data set). */
const waitFor = (what: string, check: () => Promise<boolean>) => waitForEvery(what, check, { timeoutMs: 180_000, everyMs: 250 });

function header(temporalCli: string | null) {
  const cpus = os.cpus();
  let temporal = 'unknown';
  if (temporalCli) {
    const r = spawnSync(temporalCli, ['--version'], { encoding: 'utf8' });
    temporal = (r.stdout || r.stderr).trim();
  }
  const git = (args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  };
  return {
    machine: `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    temporal,
    commit: `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain', '--untracked-files=no']) ? ' (with uncommitted changes)' : ''}`,
    mode: `${quick ? 'quick' : 'full'}${only ? ` (only ${[...only].join(', ')})` : ''}`,
  };
}

/** Runs ours and its ceiling alternately, ROUNDS times; the median of each figure. */
async function interleaved(
  pairs: Array<{ name: string; ours: () => Promise<LoadResult>; ceiling: () => Promise<LoadResult> }>,
): Promise<Map<string, { ours: LoadResult; ceiling: LoadResult }>> {
  const runs = new Map<string, { ours: LoadResult[]; ceiling: LoadResult[] }>(pairs.map((p) => [p.name, { ours: [], ceiling: [] }]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const p of pairs) {
      const o = await p.ours();
      const c = await p.ceiling();
      runs.get(p.name)!.ours.push(o);
      runs.get(p.name)!.ceiling.push(c);
      log(`round ${r + 1} ${p.name}: ${o.rps.toFixed(0)} vs ${c.rps.toFixed(0)} req/s (p99 ${o.p99} vs ${c.p99} ms${o.errors + o.non2xx ? `, ${o.errors + o.non2xx} failed` : ''})`);
    }
  }
  const med = (xs: LoadResult[]): LoadResult => ({
    rps: median(xs.map((x) => x.rps)),
    p50: median(xs.map((x) => x.p50)),
    p99: median(xs.map((x) => x.p99)),
    requests: sum(xs.map((x) => x.requests)),
    errors: sum(xs.map((x) => x.errors)),
    non2xx: sum(xs.map((x) => x.non2xx)),
    bytesPerRequest: median(xs.map((x) => x.bytesPerRequest)),
  });
  return new Map([...runs].map(([k, v]) => [k, { ours: med(v.ours), ceiling: med(v.ceiling) }]));
}

/** jobs/search query p50/p99 (repository, 8 concurrent) over the 200 searches, at a given size. */
async function searchGrowth(adminUrl: string, jobs: number): Promise<{ p50: number; p99: number; seedS: number }> {
  const db = `bench_growth_${jobs}`;
  await ensureDatabase(adminUrl, db);
  const knex = createKnex(adminUrl.replace(/\/[^/?]+(\?|$)/, `/${db}$1`), 10);
  try {
    await migrateLatest(knex);
    const t = Date.now();
    await seed(knex, { events: Math.max(100, Math.min(EVENTS, jobs / 100)), jobs });
    const seedS = (Date.now() - t) / 1000;
    const repo = createRepositories(knex).jobs;
    const searches = searchPaths(200).map((p) => {
      const q = new URLSearchParams(p.split('?')[1]);
      return {
        skills: (q.get('skills') ?? '').split(',').filter(Boolean).map((s) => s.toLowerCase()),
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
function childBench(script: string, resultsDir: string, extra: string[] = []): { data: Record<string, unknown> | null; why: string } {
  const file = path.join(ROOT, 'bench', script);
  if (!fs.existsSync(file)) return { data: null, why: `bench/${script} is not on this branch` };
  if (!fs.readFileSync(file, 'utf8').includes("'--json'")) return { data: null, why: `bench/${script} has no --json flag on this branch` };
  const out = path.join(resultsDir, `${script.replace(/\.ts$/, '')}-${Date.now()}.json`);
  log(`running bench/${script} --json${quick ? ' --quick' : ''}${extra.map((a) => ` ${a}`).join('')}…`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file, '--json', out, ...(quick ? ['--quick'] : []), ...extra], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0 || !fs.existsSync(out)) return { data: null, why: `bench/${script} exited ${r.status ?? r.signal}` };
  return { data: JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown>, why: '' };
}

function matchingRows(d: Record<string, unknown> | null, why: string): Row[] {
  if (!d) return [{ section: 'matching', name: 'slot freed → offer; round time vs waiting entries', unit: '', ours: null, ceiling: null, ratio: null, note: `not measured: ${why}` }];
  const s = d.slotToOfferMs as { p50: number; p95: number; samples: number };
  const rows: Row[] = [
    { section: 'matching', name: `slot freed → offer (${s.samples} samples)`, unit: 'ms p95', ours: s.p95, ceiling: null, ratio: null, oursP50: s.p50, target: 'p95 ≤ 2,000 ms', note: `p50 ${s.p50.toFixed(0)} ms` },
  ];
  for (const r of d.rounds as Array<{ waiting: number; jobs: number; roundMs: number; ceilingMs: number | null; ceilingNote: string }>) {
    rows.push({
      section: 'matching',
      name: `round, ${r.waiting.toLocaleString('en')} waiting / ${r.jobs.toLocaleString('en')} jobs`,
      unit: 'ms',
      ours: r.roundMs,
      ceiling: r.ceilingMs,
      ratio: r.ceilingMs ? r.roundMs / r.ceilingMs : null,
      target: r.waiting === 1000 ? '≤ 200 ms' : undefined,
      note: r.ceilingNote,
    });
  }
  return rows;
}

/** `on`: which Temporal the rows ran against, appended to each row's name (the opt-in PostgreSQL run; blank for the dev server). */
function webhookRows(d: Record<string, unknown> | null, why: string, on = ''): Row[] {
  if (!d) return [{ section: 'webhooks', name: `deliveries/s; commit → first attempt${on}`, unit: '', ours: null, ceiling: null, ratio: null, note: `not measured: ${why}` }];
  const n = (k: string) => d[k] as number;
  const first = d.firstAttemptMs as { p50: number; p99: number };
  const fan = `${n('events')} events × ${n('subscriptions')} subscriptions`;
  const integrity = `${n('lost')} lost, ${n('duplicated')} duplicated, ${n('badSignatures')} bad signatures`;
  return [
    { section: 'webhooks', name: `deliveries/s (${fan}) vs bare one-activity workflow${on}`, unit: 'deliveries/s', ours: n('deliveriesPerSec'), ceiling: n('bareWorkflowPerSec'), ratio: n('deliveriesPerSec') / n('bareWorkflowPerSec'), note: integrity },
    { section: 'webhooks', name: `deliveries/s vs raw signed POSTs from one process${on}`, unit: 'deliveries/s', ours: n('deliveriesPerSec'), ceiling: n('rawSignedPostsPerSec'), ratio: n('deliveriesPerSec') / n('rawSignedPostsPerSec'), target: '≥ 0.05×' },
    { section: 'webhooks', name: `commit → first attempt${on}`, unit: 'ms p99', ours: first.p99, ceiling: null, ratio: null, oursP50: first.p50, oursP99: first.p99, target: 'p50 ≤ 1 s, p99 ≤ 5 s' },
  ];
}

const fmt = (x: number | null | undefined, digits = 0) => (x === null || x === undefined || Number.isNaN(x) ? '—' : x.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits }));

export function markdown(h: Record<string, string>, rows: Row[]): string {
  const lines = [
    `Machine: ${h.machine} · Node ${h.node} · Temporal: ${h.temporal} · commit ${h.commit} · ${h.mode} mode`,
    `Load average (1/5/15 min): start ${h.loadStart}, end ${h.loadEnd} · ${h.date} · ${ROUNDS} interleaved rounds, median; HTTP: ${CONNECTIONS} connections`,
    '',
    '| section | row | unit | ours | ceiling | ratio | ours p50 / p99 ms | ceiling p50 / p99 ms | target | note |',
    '|---|---|---|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    const lat = (a?: number, b?: number) => (a === undefined && b === undefined ? '' : `${fmt(a, 1)} / ${fmt(b, 1)}`);
    lines.push(
      `| ${r.section} | ${r.name} | ${r.unit} | ${fmt(r.ours, r.ours !== null && r.ours < 10 ? 2 : 0)} | ${fmt(r.ceiling, r.ceiling !== null && r.ceiling < 10 ? 2 : 0)} | ${r.ratio === null ? '—' : `${r.ratio.toFixed(2)}×`} | ${lat(r.oursP50, r.oursP99)} | ${lat(r.ceilingP50, r.ceilingP99)} | ${r.target ?? ''} | ${r.note ?? ''} |`,
    );
  }
  return lines.join('\n');
}

async function main() {
  const t0 = Date.now();
  const loadStart = loadavg();
  const resultsDir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const base = loadConfig({ ...process.env, NODE_ENV: 'test', TEMPORAL_ADDRESS: '', DATABASE_URL: '' });
  let cliPath: string | null = null;
  try {
    cliPath = resolveTemporalCli({ temporalCli: base.TEMPORAL_CLI, cacheDir: defaultCacheDir(base.CACHE_DIR), log: () => undefined }).path;
  } catch {
    /* reported as unknown */
  }
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  // Opt-in: the table's own stack (queue/join, discovery, memory rows) on a Temporal server on PostgreSQL.
  let temporalPg: { dir: string; server: TemporalOnPostgres } | null = null;
  if (temporalPostgres) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-bench-temporal-pg-'));
    fs.chmodSync(dir, 0o755);
    try {
      temporalPg = { dir, server: await startTemporalOnPostgres({ dir, cacheDir: defaultCacheDir(base.CACHE_DIR), namespace: base.TEMPORAL_NAMESPACE, log }) };
    } catch (e) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }
  const stopTemporalPg = async () => {
    if (!temporalPg) return;
    await temporalPg.server.stop();
    fs.rmSync(temporalPg.dir, { recursive: true, force: true });
  };
  const infra = await startThrowawayInfrastructure({ config: temporalPg ? { ...base, TEMPORAL_ADDRESS: temporalPg.server.address } : base, log: () => undefined, prefix: 'jobfair-bench' }).catch(async (e: unknown) => {
    await stopTemporalPg();
    throw e;
  });
  const children: ChildProcess[] = [];
  const rows: Row[] = [];
  // The APIs run as the image runs them: compiled JavaScript under plain node (Dockerfile CMD).
  const dist = path.join(ROOT, 'dist', `bench-${randomUUID().slice(0, 8)}`);
  try {
    const tb = Date.now();
    buildDist(dist);
    log(`npm run build:dist (into ${path.relative(ROOT, dist)}) in ${((Date.now() - tb) / 1000).toFixed(1)} s`);
    const adminUrl = infra.adminDatabaseUrl ?? infra.databaseUrl;
    await ensureDatabase(adminUrl, 'bench');
    const dbUrl = adminUrl.replace(/\/[^/?]+(\?|$)/, '/bench$1');
    const knex: Knex = createKnex(dbUrl, 10);
    await migrateLatest(knex);
    let t = Date.now();
    await seed(knex, { events: EVENTS, jobs: JOBS });
    log(`seeded ${EVENTS} events / ${JOBS} jobs in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    // The processes: the API twice (short cache on, as deployed; and off), the worker, the ceilings.
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      DATABASE_URL: dbUrl,
      DATABASE_POOL_MAX: '20',
      TEMPORAL_ADDRESS: infra.temporalAddress,
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
    const ports = { api: await freePort(), apiNoCache: await freePort(), ceiling: await freePort() };
    const imageFlags = imageApiNodeFlags(ROOT);
    const api = startProcess('api', 'apps/api/src/server.ts', { ...env, PORT: String(ports.api) }, dist, imageFlags);
    const apiNoCache = startProcess('api-nocache', 'apps/api/src/server.ts', { ...env, PORT: String(ports.apiNoCache), PUBLIC_CACHE_TTL_MS: '0' }, dist, imageFlags);
    // The worker as the image runs it too: compiled, with the prebuilt workflow bundle (decision
    // 0225); `--worker-tsx`: as `npm start` runs it (tsx, workflows bundled by webpack at start).
    const worker = startProcess('worker', 'apps/worker/src/main.ts', env, workerTsx ? undefined : dist);
    children.push(api, apiNoCache, worker);
    const url = (port: number) => `http://127.0.0.1:${port}`;
    await waitFor('API', async () => (await fetch(`${url(ports.api)}/readyz`)).ok);
    await waitFor('API (no cache)', async () => (await fetch(`${url(ports.apiNoCache)}/healthz`)).ok);

    // Seekers with tokens, waiting in a private event with no interview slots (no match moves
    // them; the status answer still computes position, outlook and estimate over real rows).
    const seedApp = await buildApp({ config: loadConfig({}, { ...env, PORT: '0' }), knex, logger: false });
    const accounts = seedApp.services.deps.repos.accounts;
    const team = await accounts.insertTeam('Bench hold team');
    const [hold] = await knex('live_events').insert({ team_id: team.id, slug: 'bench-hold', company_name: 'Hold', visibility: 'private', status: 'live', interview_slots: 0, started_at: knex.fn.now() }).returning(['id', 'slug']);
    await knex.raw(
      `INSERT INTO jobs (team_id, live_event_id, title, essential_skills, bonus_skills, experience_min, remote_preference)
       SELECT ?, ?, 'Hold job ' || g, ARRAY['TypeScript','PostgreSQL'], ARRAY['Go'], g % 5, 'remote' FROM generate_series(1, 20) g`,
      [team.id, hold.id],
    );
    const seekerCount = 20 + ROUNDS * (JOIN_SAMPLES.one + JOIN_SAMPLES.twenty) + 10;
    const seekers: Array<{ id: string; token: string }> = [];
    t = Date.now();
    for (let i = 0; i < seekerCount; i++) {
      const u = await accounts.insertUser({ email: `suite-seeker-${i}@bench.local`, display_name: `Seeker ${i}`, role: 'seeker' });
      await seedApp.services.accounts.profiles.completeOnboarding(u.id, { full_name: `Seeker ${i}`, title: 'Engineer', skills: ['TypeScript', i % 2 ? 'Go' : 'Python'], experience_years: i % 10 });
      const tok = await seedApp.services.accounts.tokens.mint(u.id, { name: `bench ${i}`, scopes: ['queue:read', 'queue:write'] });
      seekers.push({ id: u.id, token: tok.token });
    }
    await seedApp.close();
    log(`${seekerCount} seekers with tokens in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    const joinHttp = async (s: { token: string }) => {
      const res = await fetch(`${url(ports.api)}/api/v1/queue/join`, { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ live_event_slug: hold.slug }) });
      if (res.status !== 200) throw new Error(`join ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    // The first 20 seekers wait (the status rows poll them); this also warms the worker up.
    await waitFor('worker', async () => {
      await joinHttp(seekers[0]);
      return true;
    });
    for (const s of seekers.slice(1, 20)) await joinHttp(s);
    const idle = { api: rssMiB(api.pid), worker: rssMiB(worker.pid), apiTsx: NaN, workers: { compiled: NaN, tsx: NaN } };
    if (has('memory')) {
      // npm start's way (tsx), for the same idle figure: started, ready, 20 authenticated reads, measured, stopped.
      const port = await freePort();
      const apiTsx = startProcess('api-tsx', 'apps/api/src/server.ts', { ...env, PORT: String(port) });
      children.push(apiTsx);
      await waitFor('API (tsx)', async () => (await fetch(`${url(port)}/readyz`)).ok);
      for (const s of seekers.slice(0, 20)) await (await fetch(`${url(port)}/api/v1/queue/status`, { headers: { authorization: `Bearer ${s.token}` } })).arrayBuffer();
      idle.apiTsx = rssMiB(apiTsx.pid);
      apiTsx.kill('SIGTERM');
    }

    // Ceilings: same-size bodies sampled from our own answers.
    const slugs: string[] = (await knex('live_events').where({ visibility: 'open_invite', status: 'live' }).orderBy('slug').limit(200).pluck('slug')) as string[];
    const search = searchPaths(200).filter((p) => p.includes('skills='));
    const scenarios = (has('discovery') ? [
      { key: 'live-now', name: 'GET /live-events/live-now', paths: ['/api/v1/live-events/live-now'] },
      { key: 'jobs-search', name: 'GET /jobs/search (skills, 160 distinct)', paths: search },
      { key: 'event', name: 'GET /events/{slug} (200 events)', paths: slugs.map((s) => `/api/v1/events/${s}`) },
      { key: 'live-events', name: 'GET /live-events?limit=25', paths: ['/api/v1/live-events?limit=25'] },
    ] : []);
    const bodies: Record<string, unknown> = {};
    for (const s of scenarios) {
      const sizes = await Promise.all(s.paths.slice(0, 40).map(async (p) => (await (await fetch(url(ports.apiNoCache) + p)).text())));
      const sorted = sizes.sort((a, b) => a.length - b.length);
      bodies[s.key] = JSON.parse(sorted[Math.floor(sorted.length / 2)]); // the median-size answer
    }
    const bodiesFile = path.join(infra.dir, 'bodies.json');
    fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
    const ceiling = startProcess('ceiling', 'bench/support/ceiling-server.ts', { ...env, PORT: String(ports.ceiling), BENCH_BODIES_FILE: bodiesFile });
    children.push(ceiling);
    await waitFor('ceiling server', async () => (await fetch(`${url(ports.ceiling)}/bare/live-now`)).ok);

    const http = (port: number, paths: string[], headers?: Record<string, string>, connections = CONNECTIONS) => () => load({ url: url(port), paths, connections, durationS: DURATION_S, headers });
    const pairs = scenarios.flatMap((s) => [
      { name: `${s.name}, cached`, ours: http(ports.api, s.paths), ceiling: http(ports.ceiling, [`/bare/${s.key}`]) },
      { name: `${s.name}, uncached`, ours: http(ports.apiNoCache, s.paths), ceiling: http(ports.ceiling, [`/bare/${s.key}`]) },
    ]);
    // The search uncached once more against a ceiling that also asks PostgreSQL once (SELECT 1):
    // what is left of the gap is the search's own query work, not the design of asking a database.
    // (Absent when `--only` leaves discovery out.)
    const search_ = scenarios.find((s) => s.key === 'jobs-search');
    if (search_) pairs.push({ name: `${search_.name}, uncached, vs bare route + 1 PostgreSQL round trip`, ours: http(ports.apiNoCache, search_.paths), ceiling: http(ports.ceiling, ['/bare-db/jobs-search']) });
    // Authenticated read: one seeker's token (autocannon sends one header set per run), at
    // STATUS_CONNECTIONS: a status answer is ~8 SQL statements, and 50 connections only queue on
    // the 20-connection pool (both sides alike) instead of measuring the route.
    const statusSeeker = seekers[1];
    // Beside req/s, the CPU each request costs — the serving process plus every PostgreSQL process,
    // read from /proc around the same runs: on a loaded shared machine req/s swings with the
    // neighbours (0.76–1.30× in five runs at load 6–12), CPU per request far less.
    const statusCpu = { ours: [] as number[], ceiling: [] as number[] };
    const withCpu = (pid: number | undefined, into: number[], run: () => Promise<LoadResult>) => async () => {
      const pg = postgresPids(path.join(infra.dir, 'pg'));
      const cpu = () => ticks(pid ?? 0) + pg.reduce((s, p) => s + ticks(p), 0);
      const before = cpu();
      const r = await run();
      into.push(((cpu() - before) * TICK_MS) / Math.max(1, r.requests));
      return r;
    };
    if (has('auth')) pairs.push({
      name: `GET /queue/status (auth + limiter), ${STATUS_CONNECTIONS} connections`,
      ours: withCpu(api.pid, statusCpu.ours, http(ports.api, ['/api/v1/queue/status'], { authorization: `Bearer ${statusSeeker.token}` }, STATUS_CONNECTIONS)),
      ceiling: withCpu(ceiling.pid, statusCpu.ceiling, http(ports.ceiling, ['/api/v1/queue/status'], { 'x-bench-user': statusSeeker.id }, STATUS_CONNECTIONS)),
    });
    // Warm-up: JIT, pools, plans, caches. Ours gets WARMUP_S (a served process is warm; on a loaded
    // machine the API's search path was still speeding up after 1 s of load: 575 → 2,341 → 3,913
    // req/s over three 2 s runs at load ~10), its ceiling one run (a bare route warms at once).
    for (const p of pairs) {
      for (let left = WARMUP_S; left > 0; left -= DURATION_S) await p.ours();
      await p.ceiling();
    }
    const http_ = await interleaved(pairs);
    for (const [name, { ours, ceiling: c }] of http_) {
      const status = name.startsWith('GET /queue/status');
      const failed = ours.errors + ours.non2xx;
      rows.push({
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
        note: `${(ours.bytesPerRequest / 1024).toFixed(1)} KiB vs ${(c.bytesPerRequest / 1024).toFixed(1)} KiB per answer${failed ? `; ${failed} failed` : ''}`,
      });
      if (status && statusCpu.ours.length >= ROUNDS) {
        // The interleaved rounds' figures (the warm-up runs came first).
        const [o, cc] = [median(statusCpu.ours.slice(-ROUNDS)), median(statusCpu.ceiling.slice(-ROUNDS))];
        rows.push({
          section: 'auth',
          name: `${name}: CPU per request, API + PostgreSQL`,
          unit: 'CPU ms/request',
          ours: o,
          ceiling: cc,
          ratio: o / cc,
          target: '≤ 1.2× (overhead ≤ 20 %)',
          note: 'lower is better; ceiling: the same route without auth and limiter (its process under tsx); PostgreSQL: every process of the cluster (the idle worker included)',
        });
      }
    }

    // Joins: ours through HTTP vs a bare update-with-start, interleaved round by round.
    if (has('queue')) {
    const connection = await Connection.connect({ address: infra.temporalAddress });
    const client = new Client({ connection });
    const bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('./support/bare-workflows'), logger: { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error } });
    const bareWorker = await TemporalWorker.create({ connection: await (await import('@temporalio/worker')).NativeConnection.connect({ address: infra.temporalAddress }), taskQueue: 'bench-bare', workflowBundle: { code: bundle.code } });
    const bareRun = bareWorker.run();
    const bareJoin = async () => {
      await client.workflow.executeUpdateWithStart(bareJoinUpdate, {
        args: [{ agentIdentity: 'bench' }],
        startWorkflowOperation: new WithStartWorkflowOperation<typeof bareJoinWorkflow>('bareJoinWorkflow', { workflowId: `bare-join-${randomUUID()}`, taskQueue: 'bench-bare', workflowIdConflictPolicy: 'USE_EXISTING' }),
      });
    };
    await bareJoin();
    let nextSeeker = 20;
    const timed = async (n: number, concurrency: number, fn: () => Promise<void>) => {
      const lat: number[] = [];
      let left = n;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (left-- > 0) {
            const t1 = performance.now();
            await fn();
            lat.push(performance.now() - t1);
          }
        }),
      );
      return lat;
    };
    const joinRuns: Record<string, { ours: number[][]; bare: number[][] }> = { '1': { ours: [], bare: [] }, '20': { ours: [], bare: [] } };
    for (let r = 0; r < ROUNDS; r++) {
      for (const [c, n] of [[1, JOIN_SAMPLES.one], [20, JOIN_SAMPLES.twenty]] as const) {
        const ours = await timed(n, c, () => joinHttp(seekers[nextSeeker++]));
        const bare = await timed(n, c, bareJoin);
        joinRuns[String(c)].ours.push(ours);
        joinRuns[String(c)].bare.push(bare);
        log(`round ${r + 1} join ×${c}: p50 ${percentile(ours, 50).toFixed(0)} / p99 ${percentile(ours, 99).toFixed(0)} ms vs bare ${percentile(bare, 50).toFixed(0)} / ${percentile(bare, 99).toFixed(0)} ms`);
      }
    }
    for (const c of ['1', '20']) {
      const { ours, bare } = joinRuns[c];
      const [o50, o99, b50, b99] = [median(ours.map((x) => percentile(x, 50))), median(ours.map((x) => percentile(x, 99))), median(bare.map((x) => percentile(x, 50))), median(bare.map((x) => percentile(x, 99)))];
      rows.push({ section: 'queue', name: `POST /queue/join, ${c} concurrent seeker${c === '1' ? '' : 's'} vs bare update-with-start`, unit: 'ms p99', ours: o99, ceiling: b99, ratio: o99 / b99, oursP50: o50, oursP99: o99, ceilingP50: b50, ceilingP99: b99, target: '≤ 2× (p99)', note: `p50 ratio ${(o50 / b50).toFixed(2)}×; ${ours[0].length} joins per round` });
    }
    bareWorker.shutdown();
    await bareRun;
    await connection.close();
    }

    const after = { api: rssMiB(api.pid), worker: rssMiB(worker.pid), ceiling: rssMiB(ceiling.pid) };
    if (has('memory')) {
      // After the load, so no row above shares the machine with them: the worker both ways on a
      // task queue of their own (no work reaches them but their own matchmaker's start), one after
      // the other: `node dist/…/main.js` with the prebuilt workflow
      // bundle, as the image runs it (decision 0225), and npm start's tsx, which bundles the
      // workflows with webpack at start. Measured once polling, then after 10 s (both idle).
      const memConnection = await Connection.connect({ address: infra.temporalAddress });
      const pollers = async (taskQueue: string) =>
        (await memConnection.workflowService.describeTaskQueue({ namespace: base.TEMPORAL_NAMESPACE, taskQueue: { name: taskQueue }, taskQueueType: 1 })).pollers?.length ?? 0;
      for (const kind of ['compiled', 'tsx'] as const) {
        const taskQueue = `bench-memory-${kind}`;
        const w = startProcess(`worker-${kind}`, 'apps/worker/src/main.ts', { ...env, TEMPORAL_TASK_QUEUE: taskQueue }, kind === 'compiled' ? dist : undefined);
        children.push(w);
        await waitFor(`worker (${kind})`, async () => (await pollers(taskQueue)) > 0);
        const t0 = Date.now();
        await waitFor(`worker (${kind}) idle 10 s`, async () => Date.now() - t0 >= 10_000);
        idle.workers[kind] = rssMiB(w.pid);
        w.kill('SIGTERM');
        await new Promise<void>((resolve) => (w.exitCode !== null ? resolve() : w.once('exit', () => resolve())));
      }
      await memConnection.close();
    }
    if (has('memory')) rows.push(
      { section: 'memory', name: `API RSS idle (after start and 20 joins), \`node ${imageApiNodeFlags(ROOT).map((f) => `${f} `).join('')}dist/…/server.js\` as the image runs it`, unit: 'MiB', ours: idle.api, ceiling: null, ratio: null, target: '< 150 MB (143 MiB)' },
      { section: 'memory', name: 'API RSS idle under tsx (`npm start`: after start and 20 authenticated reads)', unit: 'MiB', ours: idle.apiTsx, ceiling: null, ratio: null, note: "tsx's loader: not in the image" },
      { section: 'memory', name: 'API RSS after load (compiled)', unit: 'MiB', ours: after.api, ceiling: after.ceiling, ratio: after.api / after.ceiling, note: 'ceiling: the ceiling process under tsx (Fastify + the queue route and services, after the same load)' },
      { section: 'memory', name: 'worker RSS idle (after start and 20 joins), `node dist/…/main.js` with the prebuilt workflow bundle', unit: 'MiB', ours: idle.worker, ceiling: null, ratio: null },
      { section: 'memory', name: 'worker RSS idle, compiled vs tsx (`npm start`, webpack at start): a worker each on its own task queue, 10 s after polling', unit: 'MiB', ours: idle.workers.compiled, ceiling: idle.workers.tsx, ratio: idle.workers.compiled / idle.workers.tsx, note: 'ceiling column: the same worker under tsx, measured right after the compiled one' },
      { section: 'memory', name: 'worker RSS after load', unit: 'MiB', ours: after.worker, ceiling: null, ratio: null },
    );
    for (const c of children) c.kill('SIGTERM');
    await knex.destroy();

    // Growth: the search query as the job count grows (its own databases).
    for (const n of has('growth') ? GROWTH : []) {
      const g = await searchGrowth(adminUrl, n);
      log(`search at ${n} jobs: p50 ${g.p50.toFixed(1)} ms, p99 ${g.p99.toFixed(1)} ms (seeded in ${g.seedS.toFixed(0)} s)`);
      rows.push({ section: 'growth', name: `jobs/search query at ${n.toLocaleString('en')} jobs (repository, 8 concurrent)`, unit: 'ms p99', ours: g.p99, ceiling: null, ratio: null, oursP50: g.p50, oursP99: g.p99, target: 'index-bound: flat' });
    }
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await infra.stop();
    await stopTemporalPg();
    fs.rmSync(dist, { recursive: true, force: true });
  }

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

  const hd = header(cliPath);
  if (temporalPg) hd.temporal = `${temporalPg.server.version} for the table's own stack; matching and the first webhook rows: ${hd.temporal}`;
  const h = { ...hd, loadStart, loadEnd: loadavg(), date: new Date().toISOString(), seconds: ((Date.now() - t0) / 1000).toFixed(0) };
  const md = markdown(h, rows);
  const stamp = h.date.replace(/[:.]/g, '-');
  fs.writeFileSync(path.join(resultsDir, `${stamp}.md`), `${md}\n`);
  fs.writeFileSync(path.join(resultsDir, `${stamp}.json`), `${JSON.stringify({ header: h, rounds: ROUNDS, connections: CONNECTIONS, durationS: DURATION_S, rows }, null, 2)}\n`);
  console.log(`\n${md}\n`);
  log(`written to bench/results/${stamp}.{md,json} in ${h.seconds} s`);
  process.exit(0);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
