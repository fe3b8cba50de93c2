/**
 * Discovery benchmark: throughput of the public discovery routes of the real app over a seeded
 * data set (default 1 000 events / 100 000 jobs), as a ratio to a bare Fastify route measured on
 * the same machine in the same run.
 *
 *   npm run bench -- discovery [--events 1000] [--jobs 100000] [--duration 5] [--connections 32]
 *   (or: npx tsx bench/discovery.ts …)
 *
 * PostgreSQL: a throw-away embedded server in a temp dir (or, with BENCH_ADMIN_DATABASE_URL, a
 * fresh database on that server, dropped afterwards). Temporal is not needed: the discovery
 * routes never touch it (the app's client connects lazily). The load generator runs in a worker
 * thread (its own event loop) with keep-alive connections; the servers run in the main thread.
 * BENCH_ONLY=<text> runs only the scenarios whose name contains it (a profile of one route:
 * `BENCH_ONLY='search, 200 distinct queries, cache on' node --cpu-prof --import tsx bench/discovery.ts`).
 * BENCH_EXPLAIN=1 prints the plan of each search probe.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { Client as PgClient } from 'pg';
import { buildApp } from '#apps/api/src/app';
import { loadConfig } from '#lib/config';
import { createKnex, migrateLatest } from '#db/knex';
import { startPostgres, ensureDatabase } from '#dev/postgres-server';
import { freePort } from '#dev/ports';
import type { JobSearchParams } from '#db/events/jobs-repository';
import { createRepositories } from '#db/repositories';
import { CITIES, SPELLINGS_PER_SKILL, TYPED_SKILLS, typedSkillSql } from './support/fair-data';
import { dbUrlFor } from './support/infra';
import { parseBenchArgs, runCases, runMain, Teardown, type BenchCase } from './support/runner';

interface Options {
  events: number;
  jobs: number;
  durationS: number;
  connections: number;
}

const parseArgs = (argv: string[]): Options =>
  parseBenchArgs<Options>(
    argv,
    'discovery',
    { events: 1000, jobs: 100_000, durationS: 5, connections: 32 },
    { '--events': 'events', '--jobs': 'jobs', '--duration': 'durationS', '--connections': 'connections' },
  );

const TITLES = [
  'Backend Engineer',
  'Frontend Engineer',
  'Full-stack Engineer',
  'Data Engineer',
  'SRE',
  'Platform Engineer',
  'Mobile Engineer',
  'ML Engineer',
  'Engineering Manager',
  'Product Designer',
  'QA Engineer',
  'Security Engineer',
  'DevOps Engineer',
  'Data Scientist',
  'Solutions Architect',
  'Staff Engineer',
  'Tech Lead',
  'Developer Advocate',
  'Analytics Engineer',
  'Embedded Engineer',
];

/** Seeds with set-based SQL (seconds, not minutes): teams, events in every status, jobs, seekers, queue entries, matches. */
export async function seed(knex: Knex, o: Pick<Options, 'events' | 'jobs'>): Promise<void> {
  const teams = Math.max(1, Math.ceil(o.events / 10));
  const perEvent = Math.ceil(o.jobs / o.events);
  await knex.raw(
    `INSERT INTO teams (id, name) SELECT gen_random_uuid(), 'Bench team ' || g FROM generate_series(1, ?) g`,
    [teams],
  );
  // Status by event number: 60 % live, 10 % paused, 10 % draft, 20 % ended; every fifth event private.
  await knex.raw(
    `INSERT INTO live_events (team_id, slug, company_name, headline, accent_color, visibility, status, started_at, ends_at, ended_at, created_at)
     SELECT t.id, 'bench-' || g, 'Company ' || g, 'Hiring at company ' || g, '#1f6feb',
            CASE WHEN g % 5 = 4 THEN 'private' ELSE 'open_invite' END,
            CASE WHEN g % 10 < 6 THEN 'live' WHEN g % 10 = 6 THEN 'paused' WHEN g % 10 = 7 THEN 'draft' ELSE 'ended' END,
            CASE WHEN g % 10 <> 7 THEN now() - (g || ' minutes')::interval END,
            now() + interval '1 day',
            CASE WHEN g % 10 >= 8 THEN now() END,
            now() - (g || ' seconds')::interval
     FROM generate_series(1, ?) g
     JOIN LATERAL (SELECT id FROM teams ORDER BY id OFFSET (g % ?) LIMIT 1) t ON true`,
    [o.events, teams],
  );
  // Jobs: 3 essential + 2 bonus skills drawn from a skewed vocabulary (common skills are common),
  // written as people type them (`postgres`, `k8s`, `golang`: fair-data's TYPED_SKILLS);
  // other attributes independent of each other and of the creation time (as in real data).
  await knex.raw(
    `INSERT INTO jobs (team_id, live_event_id, title, essential_skills, bonus_skills, experience_min, salary_min, salary_max, location, remote_preference, status, created_at)
     SELECT r.team_id, r.event_id, r.title, r.essential, r.bonus, r.experience, r.smin, CASE WHEN r.smin IS NULL THEN NULL ELSE r.smin + r.spread END, r.location, r.remote, r.status, r.created_at
     FROM (
       -- Volatile expressions in a plain select list are drawn once per produced row.
       SELECT e.team_id, e.id AS event_id,
         (?::text[])[1 + floor(random() * ?)::int] AS title,
         ARRAY[${typedSkillSql('power(random(), 2)')}, ${typedSkillSql('power(random(), 2)')}, ${typedSkillSql('random()')}] AS essential,
         ARRAY[${typedSkillSql('power(random(), 2)')}, ${typedSkillSql('random()')}] AS bonus,
         floor(random() * 10)::int AS experience,
         CASE WHEN random() < 0.15 THEN NULL ELSE 30000 + floor(random() * 90)::int * 1000 END AS smin,
         20000 + floor(random() * 80)::int * 1000 AS spread,
         (?::text[])[1 + floor(random() * ?)::int] AS location,
         (ARRAY['remote','hybrid','onsite'])[1 + floor(random() * 3)::int] AS remote,
         CASE WHEN random() < 0.05 THEN 'closed' ELSE 'open' END AS status,
         now() - random() * interval '30 days' AS created_at
       FROM live_events e CROSS JOIN generate_series(1, ?) AS j(n)
     ) r`,
    [TITLES, TITLES.length, ...Array(5).fill(TYPED_SKILLS), CITIES, CITIES.length, perEvent],
  );
  const seekers = Math.max(100, Math.round(o.jobs / 20));
  await knex.raw(
    `INSERT INTO users (email, display_name, role) SELECT 'bench-seeker-' || g || ` +
      `'@bench.local', 'Seeker ' || g, 'seeker' FROM generate_series(1, ?) g`,
    [seekers],
  );
  await knex.raw(
    `INSERT INTO queue_entries (id, user_id, status, live_event_id, live_event_slug, entered_at)
     SELECT gen_random_uuid(), u.id, 'waiting', e.id, e.slug, now()
     FROM (SELECT id, row_number() OVER () AS rn FROM users WHERE role = 'seeker') u
     JOIN (SELECT id, slug, row_number() OVER (ORDER BY id) AS rn FROM live_events WHERE status IN ('live','paused')) e
       ON e.rn = 1 + (u.rn % (SELECT count(*) FROM live_events WHERE status IN ('live','paused')))`,
  );
  await knex.raw(
    `INSERT INTO matches (id, status, seeker_user_id, queue_entry_id, job_id, team_id, live_event_id, created_at)
     SELECT gen_random_uuid(), 'matched', q.user_id, q.id, j.id, j.team_id, j.live_event_id, now()
     FROM queue_entries q
     JOIN LATERAL (SELECT id, team_id, live_event_id FROM jobs WHERE live_event_id = q.live_event_id LIMIT 1) j ON true
     WHERE random() < 0.3`,
  );
  // VACUUM too: the visibility map lets the search's index-only scans skip the table (autovacuum does it in production).
  await knex.raw('VACUUM ANALYZE');
}

interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

/** The load generator: a worker thread (plain JS, no loader needed) driving keep-alive connections. */
const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, paths, connections, durationMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const lat = [];
let errors = 0;
const one = (p) => new Promise((resolve) => {
  const t0 = performance.now();
  const req = http.get({ host: '127.0.0.1', port, path: p, agent }, (res) => {
    res.resume();
    res.on('end', () => { if (res.statusCode !== 200) errors++; lat.push(performance.now() - t0); resolve(); });
  });
  req.on('error', () => { errors++; resolve(); });
});
(async () => {
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(Array.from({ length: connections }, async (_, i) => {
    let k = i * 7919;
    while (performance.now() < end) await one(paths[k++ % paths.length]);
  }));
  const elapsed = (performance.now() - started) / 1000;
  lat.sort((a, b) => a - b);
  const q = (x) => lat.length ? lat[Math.min(lat.length - 1, Math.floor(lat.length * x))] : 0;
  agent.destroy();
  parentPort.postMessage({ requests: lat.length, errors, rps: lat.length / elapsed, p50: q(0.5), p99: q(0.99) });
})();
`;

function load(port: number, paths: string[], o: Options, durationMs: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(LOAD_WORKER, {
      eval: true,
      workerData: { port, paths, connections: o.connections, durationMs },
    });
    w.once('message', (m) => resolve(m as LoadResult));
    w.once('error', reject);
  });
}

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as { port: number }).port;
}

/** A spread of realistic searches: 1–3 common skills, sometimes with remote/location/salary filters. */
export function searchPaths(n: number): string[] {
  const pick = <T>(a: readonly T[], i: number) => a[i % a.length];
  return Array.from({ length: n }, (_, i) => {
    const q = new URLSearchParams();
    // The common skills, written as people type them (`k8s`, `postgres`): the route resolves them.
    const typed = (n: number) => TYPED_SKILLS[SPELLINGS_PER_SKILL * (n % 40) + (i % SPELLINGS_PER_SKILL)];
    const skills = Array.from({ length: 1 + (i % 3) }, (_, k) => typed(i * 3 + k * 11)).join(',');
    if (i % 5 !== 4) q.set('skills', skills);
    if (i % 3 === 0) q.set('remote', pick(['remote', 'hybrid', 'onsite'], i));
    if (i % 4 === 0) q.set('location', pick(CITIES, i).slice(0, 4).toLowerCase());
    if (i % 6 === 0) q.set('salary_min', String(60000 + (i % 10) * 5000));
    return `/api/v1/jobs/search?${q.toString()}`;
  });
}

type Log = (l: string) => void;

/** PostgreSQL: a throw-away server in a temp dir, or a fresh database on BENCH_ADMIN_DATABASE_URL; dropped at teardown. */
async function benchDatabase(teardown: Teardown): Promise<{ dbUrl: string; knex: Knex }> {
  let adminUrl = process.env.BENCH_ADMIN_DATABASE_URL;
  if (!adminUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-bench-'));
    fs.chmodSync(dir, 0o755);
    const pg = await startPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort() });
    teardown.add(async () => {
      await pg.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    adminUrl = pg.url();
  }
  const dbName = `jobfair_bench_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, dbName);
  const admin = adminUrl;
  teardown.add(async () => {
    const c = new PgClient({ connectionString: admin });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).finally(() => c.end());
  });
  const dbUrl = dbUrlFor(adminUrl, dbName);
  const knex = createKnex(dbUrl, 20);
  teardown.add(async () => knex.destroy());
  await migrateLatest(knex);
  return { dbUrl, knex };
}

interface Counts {
  events: string;
  jobs: string;
  public_events: string;
  searchable_jobs: string;
}

async function seedAndCount(knex: Knex, o: Options, log: Log): Promise<Counts> {
  const ts = Date.now();
  await seed(knex, o);
  const counts = await knex.raw(
    `SELECT (SELECT count(*) FROM live_events) AS events, (SELECT count(*) FROM jobs) AS jobs,
            (SELECT count(*) FROM live_events WHERE visibility = 'open_invite' AND status IN ('live','paused')) AS public_events,
            (SELECT count(*) FROM jobs j JOIN live_events e ON e.id = j.live_event_id WHERE j.status = 'open' AND e.status = 'live' AND e.visibility = 'open_invite') AS searchable_jobs`,
  );
  const c = counts.rows[0] as Counts;
  log(
    `seeded ${c.events} events (${c.public_events} public) and ${c.jobs} jobs (${c.searchable_jobs} ` +
      `searchable) in ${((Date.now() - ts) / 1000).toFixed(1)} s`,
  );
  return c;
}

/** The search query alone (time inside PostgreSQL plus the driver), for the record. */
async function probeSearches(knex: Knex, log: Log): Promise<void> {
  const jobsRepo = createRepositories(knex).jobs;
  const probes: Array<[string, JobSearchParams]> = [
    ['skills=typescript,postgresql', { skills: ['typescript', 'postgresql'], limit: 20 }],
    ['skills=skill-150 (rare)', { skills: ['skill-150'], limit: 20 }],
    ['no filter', { skills: [], limit: 20 }],
    ['location=berl&remote=hybrid', { skills: [], location: 'berl', remote: 'hybrid', limit: 20 }],
    ['skills=python&salary_min=150000', { skills: ['python'], salaryMin: 150000, limit: 20 }],
  ];
  for (const [label, p] of probes) {
    await jobsRepo.search(p);
    const started = process.hrtime.bigint();
    for (let i = 0; i < 20; i++) await jobsRepo.search(p);
    log(
      `search ${label}: ${(Number(process.hrtime.bigint() - started) / 20 / 1e6).toFixed(2)} ms ` +
        `per query (repository, 20 runs)`,
    );
    if (process.env.BENCH_EXPLAIN) {
      const { sql, bindings } = jobsRepo.searchQuery(p, await jobsRepo.planSearch(p)).toSQL();
      const plan = await knex.raw(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, bindings as never);
      console.log(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
    }
  }
}

/** The app with the public cache off and on, and a bare Fastify route (the ceiling), each listening. */
async function startServers(
  dbUrl: string,
  knex: Knex,
  teardown: Teardown,
): Promise<{ uncached: number; cached: number; bare: number }> {
  const base = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: dbUrl,
    DATABASE_POOL_MAX: '20',
    TEMPORAL_ADDRESS: '127.0.0.1:1',
    APP_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_BASE_URL: 'http://bench.local',
    RATE_LIMIT_PUBLIC_PER_MIN: '100000000',
  }; // one client IP drives the load: lift the per-IP limit
  const uncached = await buildApp({
    config: loadConfig({}, { ...base, PUBLIC_CACHE_TTL_MS: '0' }),
    knex,
    logger: false,
  });
  const cached = await buildApp({
    config: loadConfig({}, { ...base, PUBLIC_CACHE_TTL_MS: '5000' }),
    knex,
    logger: false,
  });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ ok: true, generated_at: new Date().toISOString() }));
  for (const app of [uncached, cached, bare]) teardown.add(async () => app.close());
  return { uncached: await listen(uncached), cached: await listen(cached), bare: await listen(bare) };
}

/** The scenarios, the baseline first; BENCH_ONLY=<substring> keeps those whose name contains it (and the baseline). */
async function scenarios(
  knex: Knex,
  ports: { uncached: number; cached: number; bare: number },
  o: Options,
): Promise<Array<BenchCase<LoadResult>>> {
  const slugs: Array<{ slug: string }> = await knex('live_events')
    .where({ visibility: 'open_invite' })
    .whereIn('status', ['live', 'paused'])
    .select('slug')
    .limit(200);
  const all: Array<{ name: string; port: number; paths: string[] }> = [
    { name: 'bare Fastify route (baseline)', port: ports.bare, paths: ['/bare'] },
    { name: 'GET /jobs/search, 200 distinct queries, cache off', port: ports.uncached, paths: searchPaths(200) },
    { name: 'GET /jobs/search, 200 distinct queries, cache on', port: ports.cached, paths: searchPaths(200) },
    {
      name: 'GET /events/{slug}, 200 events, cache off',
      port: ports.uncached,
      paths: slugs.map((s) => `/api/v1/events/${s.slug}`),
    },
    { name: 'GET /live-events?limit=25, cache off', port: ports.uncached, paths: ['/api/v1/live-events?limit=25'] },
    { name: 'GET /live-events/live-now, cache off', port: ports.uncached, paths: ['/api/v1/live-events/live-now'] },
    { name: 'GET /live-events/live-now, cache on', port: ports.cached, paths: ['/api/v1/live-events/live-now'] },
  ];
  const only = process.env.BENCH_ONLY;
  return all
    .filter((x, i) => i === 0 || !only || x.name.includes(only))
    .map((s) => ({
      name: s.name,
      warmUp: () => load(s.port, s.paths, o, 1000), // JIT, pools, caches
      run: () => load(s.port, s.paths, o, o.durationS * 1000),
    }));
}

function printTable(results: Array<{ name: string; r: LoadResult }>, c: Counts, o: Options): void {
  const baseline = results[0].r.rps;
  console.log('');
  console.log(
    `Discovery throughput at ${c.events} events / ${c.jobs} jobs — ${o.connections} ` +
      `connections, ${o.durationS} s per scenario, ${os.cpus().length} CPUs, Node ` +
      `${process.version}`,
  );
  console.log('');
  console.log('| scenario | req/s | ratio to bare route | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const { name, r } of results) {
    console.log(
      `| ${name} | ${r.rps.toFixed(0)} | ${(r.rps / baseline).toFixed(3)} | ${r.p50.toFixed(1)} ` +
        `| ${r.p99.toFixed(1)} | ${r.errors} |`,
    );
  }
  console.log('');
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  const log = (l: string) => console.log(`[bench] ${l}`);
  const teardown = new Teardown();
  try {
    const { dbUrl, knex } = await benchDatabase(teardown);
    const c = await seedAndCount(knex, o, log);
    await probeSearches(knex, log);
    const ports = await startServers(dbUrl, knex, teardown);
    const runs = await runCases(await scenarios(knex, ports, o), {
      rounds: 1,
      onResult: (s, r) =>
        log(
          `${s.name}: ${r.rps.toFixed(0)} req/s (p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ` +
            `ms, ${r.errors} errors)`,
        ),
    });
    const results = [...runs].map(([name, [r]]) => ({ name, r }));
    printTable(results, c, o);
    log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (results.some(({ r }) => r.errors > 0)) process.exitCode = 1;
  } finally {
    await teardown.run((err) => console.error('[bench] cleanup:', err));
  }
}

// Run when invoked (bench/suite.ts imports the seed and the searches from here).
runMain(main, module);
