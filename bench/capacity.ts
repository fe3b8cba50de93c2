/**
 * `npm run bench -- capacity [--n 40] [--status-only]`: what one operation costs, the inputs of the
 * capacity model (docs/capacity.md, bench/support/capacity-model.ts). `--status-only` measures only
 * the joins and the status reads, and prints no model (it needs every kind).
 *
 * Starts its own PostgreSQL (with `pg_stat_statements` loaded) and Temporal dev server, the API and
 * the worker compiled, as the image runs them, and then measures, one kind of operation at a time,
 * `--n` operations of that kind on an otherwise quiet stack:
 *
 * - **join**: `POST /queue/join` to a live event with no job the seeker fits (the entry waits);
 * - **leave**: `POST /queue/leave` of those entries;
 * - **match**: a whole interview: join an event with a job the seeker fits, the offer, both people's
 *   accept and entry into the room, the interview ended by the recruiter, `completed`;
 * - **webhook**: `POST /webhooks/:id/test`, one signed delivery answered 200 by a local receiver;
 * - **status**: `GET /queue/status` of a waiting seeker (the read agents poll);
 * - **search**: `GET /jobs/search?skills=…` with the public cache off (every request reaches PostgreSQL).
 *
 * For each: Temporal history events, workflow tasks and activity tasks (counted in the histories of
 * every run in the namespace, before and after), history bytes, SQL statements (pg_stat_statements,
 * the app database only), and CPU milliseconds of the API, the worker, the Temporal server and
 * PostgreSQL (from /proc; the two accepts and room entries of a match run the web application's
 * use-cases in this process, so their CPU is measured here around those calls and counted as the
 * API's). Then bytes per row of the tables that grow, and the model's answer for the target
 * workload. Writes bench/results/capacity-<time>.md and .json (git-ignored).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { Knex } from 'knex';
import { loadConfig } from '#lib/config';
import { SCOPES } from '#lib/scopes';
import { freePort } from '#dev/ports';
import { ensureDatabase, startPostgres } from '#dev/postgres-server';
import { defaultCacheDir, registerSearchAttributes, resolveTemporalCli, startDevServer } from '#dev/temporal-server';
import { createKnex, migrateLatest } from '#db/knex';
import { createServices } from '#apps/api/src/services';
import { buildDist, loadavg, waitFor } from './support/infra';
import { parseBenchArgs, runMain, Teardown } from './support/runner';
import { TICK_MS, childTicks, postgresPids, ticks } from './support/cpu';
import { median } from './support/stats';
import { seedRecruiterTeam } from './support/seed';
import {
  capacityModel,
  formatModel,
  TARGET_WORKLOAD,
  TARGET_WORKLOAD_HINTED,
  type OperationCost,
} from './support/capacity-model';

const ROOT = path.join(__dirname, '..');
const APP_SECRET = 'capacity-secret-capacity-secret-capacity-01';
const NAMESPACE = 'default';
const log = (l: string) => console.log(`[capacity] ${l}`);

const opts = parseBenchArgs(
  process.argv.slice(2),
  'capacity',
  { n: 40, statusOnly: false },
  { '--n': 'n' },
  { '--status-only': 'statusOnly' },
);
/** What `--status-only` measures: the joins make the waiting entries whose status is read. */
const STATUS_ONLY_KINDS = new Set(['join', 'status']);

interface Stack {
  /** The app's own role: the web application's use-cases run here on it, and count. */
  knex: Knex;
  /** A role of its own for this bench's reads (waiting for rows, counting): left out of the statement counts. */
  benchKnex: Knex;
  temporal: Client;
  /** CPU ticks per second of each process with nothing asked of it (measured before the operations). */
  idleTicksPerSecond: CpuTicks;
  base: string;
  pgDataDir: string;
  pids: { api: number; worker: number; temporal: number };
  services: ReturnType<typeof createServices>;
}

/** Totals over every run in the namespace: events by kind and history bytes. Closed runs are read once. */
function historyCounter(client: Client) {
  const closed = new Map<string, HistoryTotals>();
  const count = (events: temporal.api.history.v1.IHistoryEvent[], bytes: number): HistoryTotals => {
    const T = temporal.api.enums.v1.EventType;
    const of = (t: number) => events.filter((e) => e.eventType === t).length;
    return {
      events: events.length,
      workflowTasks: of(T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED),
      activityTasks: of(T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED),
      timers: of(T.EVENT_TYPE_TIMER_STARTED),
      runs: 1,
      bytes,
    };
  };
  return async (): Promise<HistoryTotals> => {
    const total: HistoryTotals = { events: 0, workflowTasks: 0, activityTasks: 0, timers: 0, runs: 0, bytes: 0 };
    for await (const wf of client.workflow.list()) {
      const key = `${wf.workflowId}/${wf.runId}`;
      let t = closed.get(key);
      if (!t) {
        const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
        const bytes = temporal.api.history.v1.History.encode(history).finish().length;
        t = count(history.events ?? [], bytes);
        if (wf.status.name !== 'RUNNING') closed.set(key, t);
      }
      for (const k of Object.keys(total) as Array<keyof HistoryTotals>) total[k] += t[k];
    }
    return total;
  };
}

interface HistoryTotals {
  events: number;
  workflowTasks: number;
  activityTasks: number;
  timers: number;
  runs: number;
  bytes: number;
}

const BENCH_ROLE = 'capacity_bench';

/** Statements the app's processes ran on its database (not this bench's own reads of the statistics). */
async function statements(knex: Knex): Promise<number> {
  const r = await knex.raw(
    `SELECT coalesce(sum(calls), 0)::bigint AS n FROM pg_stat_statements s
       JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = current_database()
        AND s.userid <> (SELECT oid FROM pg_roles WHERE rolname = '${BENCH_ROLE}')`,
  );
  return Number(r.rows[0].n);
}

/** The tables that grow with use: rows each operation adds, and their size per row. */
const TABLES = [
  'queue_entries',
  'matches',
  'match_offers',
  'domain_events',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'email_outbox',
  'idempotency_keys',
] as const;

async function rowCounts(knex: Knex): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = Number((await knex(t).count<{ n: string }[]>('* as n'))[0].n);
  return out;
}

interface CpuTicks {
  api: number;
  worker: number;
  temporal: number;
  postgres: number;
}

function cpuTicks(s: Stack): CpuTicks {
  return {
    api: ticks(s.pids.api),
    worker: ticks(s.pids.worker),
    temporal: ticks(s.pids.temporal),
    // Live backends, and the ones that ended since (the postmaster has waited for them).
    postgres: ((pids) => pids.reduce((a, p) => a + ticks(p), 0) + childTicks(pids[0]))(postgresPids(s.pgDataDir)),
  };
}

/**
 * Runs `work` (n operations) between two quiet points and returns its cost per operation. Quiet =
 * no new history event for `quietMs` (timers of the operations themselves may still be pending).
 */
async function measure(
  s: Stack,
  history: () => Promise<HistoryTotals>,
  name: string,
  n: number,
  work: () => Promise<{ inProcessCpuMs?: number; wallMs: number[] }>,
): Promise<OperationCost | null> {
  if (opts.statusOnly && !STATUS_ONLY_KINDS.has(name)) return null;
  const settle = async () => {
    let last = await history();
    for (;;) {
      await new Promise((r) => setTimeout(r, 1500));
      const now = await history();
      if (now.events === last.events) return now;
      last = now;
    }
  };
  const h0 = await settle();
  const r0 = await rowCounts(s.benchKnex);
  await s.knex.raw('SELECT pg_stat_statements_reset()');
  const c0 = cpuTicks(s);
  const t0 = Date.now();
  const { inProcessCpuMs = 0, wallMs } = await work();
  const h1 = await settle();
  const c1 = cpuTicks(s);
  // What the processes burn anyway (timers, pollers, the server's own housekeeping) is not the operations'.
  const idle = (k: keyof CpuTicks) => s.idleTicksPerSecond[k] * ((Date.now() - t0) / 1000);
  const busy = (k: keyof CpuTicks) => Math.max(0, c1[k] - c0[k] - idle(k)) * TICK_MS;
  const sql = await statements(s.benchKnex);
  const top = (
    await s.benchKnex.raw(
      `SELECT s.calls::int AS calls, left(regexp_replace(s.query, '\\s+', ' ', 'g'), 90) AS query
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = current_database() AND s.userid <> (SELECT oid FROM pg_roles WHERE rolname = '${BENCH_ROLE}')
        ORDER BY s.calls DESC LIMIT 4`,
    )
  ).rows as Array<{ calls: number; query: string }>;
  const r1 = await rowCounts(s.benchKnex);
  const per = (x: number) => x / n;
  const cpu = {
    api: per(busy('api') + inProcessCpuMs),
    worker: per(busy('worker')),
    temporal: per(busy('temporal')),
    postgres: per(busy('postgres')),
  };
  const cost: OperationCost = {
    name,
    n,
    historyEvents: per(h1.events - h0.events),
    workflowTasks: per(h1.workflowTasks - h0.workflowTasks),
    activityTasks: per(h1.activityTasks - h0.activityTasks),
    timers: per(h1.timers - h0.timers),
    workflowRuns: per(h1.runs - h0.runs),
    historyBytes: per(h1.bytes - h0.bytes),
    sqlStatements: per(sql),
    rowsAdded: Object.fromEntries(TABLES.map((t) => [t, per(r1[t] - r0[t])]).filter(([, v]) => v !== 0)),
    cpuMs: cpu,
    wallMsP50: median(wallMs),
  };
  log(
    `${name}: ${cost.historyEvents.toFixed(1)} history events, ${cost.workflowTasks.toFixed(1)} workflow tasks, ` +
      `${cost.sqlStatements.toFixed(1)} SQL statements, CPU ms API ${cpu.api.toFixed(1)} / worker ` +
      `${cpu.worker.toFixed(1)} / Temporal ${cpu.temporal.toFixed(1)} / PostgreSQL ${cpu.postgres.toFixed(1)}; ` +
      `most run: ${top.map((t) => `${(t.calls / n).toFixed(1)}× ${t.query}`).join(' | ')}`,
  );
  return cost;
}

function startProcess(name: string, file: string, env: Record<string, string>, dist: string): ChildProcess {
  const child = spawn(process.execPath, [path.join(dist, file.replace(/\.ts$/, '.js'))], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
  return child;
}

/** A local webhook receiver answering 200 to everything. */
async function receiver(teardown: Teardown): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  teardown.add(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${port}/hook`;
}

async function startStack(dir: string, dist: string, teardown: Teardown): Promise<Stack> {
  const pgDataDir = path.join(dir, 'pg');
  const pg = await startPostgres({
    dataDir: pgDataDir,
    port: await freePort(),
    settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' },
  });
  teardown.add(() => pg.stop());
  await ensureDatabase(pg.url(), 'jobfair');
  const dbUrl = pg.url('jobfair');
  const knex = createKnex(dbUrl, 4);
  teardown.add(() => knex.destroy());
  await migrateLatest(knex);
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await knex.raw(`CREATE ROLE ${BENCH_ROLE} LOGIN PASSWORD '${BENCH_ROLE}'`);
  await knex.raw(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${BENCH_ROLE}`);
  await knex.raw(`GRANT pg_read_all_stats TO ${BENCH_ROLE}`);
  const benchUrl = new URL(dbUrl);
  benchUrl.username = BENCH_ROLE;
  benchUrl.password = BENCH_ROLE;
  const benchKnex = createKnex(benchUrl.toString(), 2);
  teardown.add(() => benchKnex.destroy());

  const cli = resolveTemporalCli({ cacheDir: defaultCacheDir(), log });
  const pidFile = path.join(dir, 'temporal.pid');
  const dev = await startDevServer({
    cli: cli.path,
    port: await freePort(),
    pidFile,
    namespace: NAMESPACE,
    log: () => {},
  });
  teardown.add(() => dev.stop());
  const connection = await Connection.connect({ address: dev.address });
  teardown.add(() => connection.close());
  await registerSearchAttributes(connection, NAMESPACE);
  const temporalClient = new Client({ connection, namespace: NAMESPACE });

  const apiPort = await freePort();
  const base = `http://127.0.0.1:${apiPort}`;
  const env: Record<string, string> = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    DATABASE_URL: dbUrl,
    TEMPORAL_ADDRESS: dev.address,
    APP_SECRET,
    DATA_DIR: path.join(dir, 'data'),
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    RATE_LIMIT_PUBLIC_PER_MIN: '100000000',
    RATE_LIMIT_READ_PER_MIN: '100000000',
    RATE_LIMIT_WRITE_PER_MIN: '100000000',
    BILLING_FREE_MAX_LIVE_EVENTS: '1000',
    // Every search reaches PostgreSQL: the origin's cost, not the cache's.
    PUBLIC_CACHE_TTL_MS: '0',
    MATCH_EXPIRY_REMINDER_MS: '0',
    INTERVIEW_REPORT_WINDOW_MS: '0',
  };
  const worker = startProcess('worker', 'apps/worker/src/main.ts', { ...env, LOG_LEVEL: 'info' }, dist);
  const api = startProcess('api', 'apps/api/src/server.ts', env, dist);
  teardown.add(async () => {
    for (const c of [api, worker]) if (c.exitCode === null) c.kill('SIGTERM');
  });
  let workerOut = '';
  worker.stdout!.on('data', (d: Buffer) => (workerOut += d));
  await waitFor('API', async () => (await fetch(`${base}/readyz`)).ok, { timeoutMs: 120_000 });
  await waitFor('worker', async () => /worker running/.test(workerOut), { timeoutMs: 120_000 });

  const services = createServices({
    knex,
    temporal: temporalClient,
    config: loadConfig({}, env),
    changelogEntries: [],
    appSecret: APP_SECRET,
  });
  return {
    knex,
    benchKnex,
    temporal: temporalClient,
    base,
    pgDataDir,
    pids: { api: api.pid!, worker: worker.pid!, temporal: Number(fs.readFileSync(pidFile, 'utf8').trim()) },
    services,
    idleTicksPerSecond: { api: 0, worker: 0, temporal: 0, postgres: 0 },
  };
}

/** A timed call of the public API; the body as JSON.parse gives it. */
type Call = (token: string, method: string, p: string, body?: unknown) => Promise<{ body: any; ms: number }>;
type Seeker = { id: string; token: string };

/** A call of the public API with a bearer token (an idempotency key on every POST), timed. */
function apiCaller(base: string): Call {
  return async (token, method, p, body) => {
    const started = performance.now();
    const res = await fetch(`${base}/api/v1${p}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return { body: text ? JSON.parse(text) : null, ms: performance.now() - started };
  };
}

/** Who the operations act as, and the two events: the recruiter, waiters (who fit no job) and candidates (who fit). */
interface Actors {
  call: Call;
  recruiterId: string;
  recruiterToken: string;
  waiting: { id: string; slug: string };
  matching: { id: string; slug: string };
  waiters: Seeker[];
  candidates: Seeker[];
}

/** Onboarded seekers with tokens, each knowing `skills`. */
async function seedSeekers(s: Stack, count: number, tag: string, skills: string[]): Promise<Seeker[]> {
  const { accounts } = s.services.deps.repos;
  const out: Seeker[] = [];
  for (let i = 0; i < count; i++) {
    const user = await accounts.insertUser({
      email: `${tag}-${i}@capacity.test`,
      display_name: `Seeker ${tag} ${i}`,
      role: 'seeker',
    });
    await s.services.accounts.profiles.completeOnboarding(user.id, {
      full_name: `Seeker ${tag} ${i}`,
      title: 'Engineer',
      skills,
      experience_years: 5,
    } as never);
    out.push({
      id: user.id,
      token: (await s.services.accounts.tokens.mint(user.id, { name: tag, scopes: SCOPES })).token,
    });
  }
  return out;
}

/** The recruiter, their team and token; the events go live through the API as a recruiter's agent would. */
async function seedActors(s: Stack, n: number): Promise<Actors> {
  const { recruiterId } = await seedRecruiterTeam(s.services.deps.repos.accounts, 'Capacity Inc', {
    email: 'recruiter@capacity.test',
    displayName: 'Capacity recruiter',
  });
  await s.services.accounts.profiles.completeOnboarding(recruiterId, {
    full_name: 'Capacity recruiter',
    title: 'Recruiter',
  } as never);
  const recruiterToken = (await s.services.accounts.tokens.mint(recruiterId, { name: 'capacity', scopes: SCOPES }))
    .token;
  const call = apiCaller(s.base);
  const liveEvent = async (slug: string, slots: number) => {
    const ev = (
      await call(recruiterToken, 'POST', '/live-events', {
        slug,
        company_name: 'Capacity Inc',
        visibility: 'open_invite',
        interview_slots: slots,
      })
    ).body.event;
    await call(recruiterToken, 'POST', '/jobs', {
      live_event_id: ev.id,
      title: 'Backend engineer',
      essential_skills: ['TypeScript'],
    });
    await call(recruiterToken, 'POST', `/live-events/${ev.id}/go-live`);
    return ev as { id: string; slug: string };
  };
  const waiting = await liveEvent('capacity-waiting', 1);
  const matching = await liveEvent('capacity-matching', 4);
  // The waiting event's job asks for TypeScript; these seekers know only COBOL, so nothing is offered.
  const waiters = await seedSeekers(s, n, 'waiter', ['COBOL']);
  const candidates = await seedSeekers(s, n, 'candidate', ['TypeScript', 'PostgreSQL']);
  return { call, recruiterId, recruiterToken, waiting, matching, waiters, candidates };
}

const idleLine = (s: Stack) =>
  Object.entries(s.idleTicksPerSecond)
    .map(([k, v]) => `${k} ${(v * TICK_MS).toFixed(1)}`)
    .join(', ');

/** The idle baseline: 20 s of nothing, once the setup's own work has settled. */
async function measureIdle(s: Stack): Promise<void> {
  await new Promise((r) => setTimeout(r, 5_000));
  const i0 = cpuTicks(s);
  const idleStart = Date.now();
  await new Promise((r) => setTimeout(r, 20_000));
  const i1 = cpuTicks(s);
  const idleSeconds = (Date.now() - idleStart) / 1000;
  for (const k of Object.keys(i0) as Array<keyof CpuTicks>) s.idleTicksPerSecond[k] = (i1[k] - i0[k]) / idleSeconds;
  log(`idle CPU ms per second: ${idleLine(s)}`);
}

/** `GET /jobs/search` with the public cache off, `count` times. */
async function searches(s: Stack, count: number) {
  const wallMs: number[] = [];
  for (let r = 0; r < count; r++) {
    const started = performance.now();
    const res = await fetch(`${s.base}/api/v1/jobs/search?skills=typescript,postgres&limit=20`);
    await res.text();
    if (res.status !== 200) throw new Error(`search: ${res.status}`);
    wallMs.push(performance.now() - started);
  }
  return { wallMs };
}

/** A whole interview per candidate: join, offer, both accept, both in the room, ended, completed; four at a time. */
async function interviews(s: Stack, a: Actors) {
  const wallMs: number[] = [];
  let inProcessCpuMs = 0;
  const inProcess = async <T>(f: () => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const c0 = process.cpuUsage();
      try {
        return await f();
      } catch (err) {
        // The projection of the accept may not have reached the room's read yet: retry.
        if (attempt > 100) throw err;
        await new Promise((r) => setTimeout(r, 50));
      } finally {
        const d = process.cpuUsage(c0);
        inProcessCpuMs += (d.user + d.system) / 1000;
      }
    }
  };
  const { recruiterId } = a;
  const lifecycle = async (c: Seeker) => {
    const started = performance.now();
    await a.call(c.token, 'POST', '/queue/join', { live_event_slug: a.matching.slug });
    let matchId: string | undefined;
    await waitFor(
      'offer',
      async () => {
        const row = await s.benchKnex('matches').where({ seeker_user_id: c.id, status: 'matched' }).first('id');
        matchId = row?.id;
        return !!matchId;
      },
      { timeoutMs: 120_000, everyMs: 100 },
    );
    const m = s.services.matches;
    await inProcess(() => m.accept({ userId: c.id, matchId: matchId! }));
    await inProcess(() => m.accept({ userId: recruiterId, matchId: matchId! }));
    await inProcess(() => m.enterRoom({ userId: c.id, matchId: matchId! }));
    await inProcess(() => m.enterRoom({ userId: recruiterId, matchId: matchId! }));
    await inProcess(() => m.startInterviewClock({ userId: recruiterId, matchId: matchId! }));
    await inProcess(() => m.completeInterview({ userId: recruiterId, matchId: matchId! }));
    await waitFor(
      'completed',
      async () => (await s.benchKnex('matches').where({ id: matchId }).first('status'))?.status === 'completed',
      { timeoutMs: 120_000, everyMs: 100 },
    );
    wallMs.push(performance.now() - started);
  };
  // Four at a time, the event's four slots.
  for (let i = 0; i < a.candidates.length; i += 4) await Promise.all(a.candidates.slice(i, i + 4).map(lifecycle));
  return { wallMs, inProcessCpuMs };
}

/** `n` test events to a subscription of the recruiter's, until all are delivered to the local receiver. */
async function testDeliveries(s: Stack, a: Actors, hookId: string, n: number) {
  const wallMs: number[] = [];
  for (let i = 0; i < n; i++) wallMs.push((await a.call(a.recruiterToken, 'POST', `/webhooks/${hookId}/test`)).ms);
  await waitFor(
    'deliveries',
    async () =>
      Number(
        (
          await s
            .benchKnex('webhook_deliveries')
            .where({ subscription_id: hookId, state: 'delivered' })
            .count<{ n: string }[]>('* as n')
        )[0].n,
      ) >= n,
    { timeoutMs: 120_000, everyMs: 200 },
  );
  return { wallMs };
}

/** Each kind of operation measured in turn (join, status, search, leave, match, webhook); `--status-only` skips some. */
async function measureOperations(s: Stack, a: Actors, n: number, teardown: Teardown): Promise<OperationCost[]> {
  const history = historyCounter(s.temporal);
  const costs: OperationCost[] = [];
  const keep = (c: OperationCost | null) => c && costs.push(c);
  const each = async (ws: Seeker[], f: (w: Seeker) => Promise<{ ms: number }>) => {
    const wallMs: number[] = [];
    for (const w of ws) wallMs.push((await f(w)).ms);
    return { wallMs };
  };
  const { call, waiters } = a;
  keep(
    await measure(s, history, 'join', n, () =>
      each(waiters, (w) => call(w.token, 'POST', '/queue/join', { live_event_slug: a.waiting.slug })),
    ),
  );
  keep(
    await measure(s, history, 'status', n * 5, async () => {
      const wallMs: number[] = [];
      for (let r = 0; r < 5; r++)
        wallMs.push(...(await each(waiters, (w) => call(w.token, 'GET', '/queue/status'))).wallMs);
      return { wallMs };
    }),
  );
  keep(await measure(s, history, 'search', n * 5, () => searches(s, n * 5)));
  keep(await measure(s, history, 'leave', n, () => each(waiters, (w) => call(w.token, 'POST', '/queue/leave'))));
  keep(await measure(s, history, 'match', n, () => interviews(s, a)));
  const hookUrl = await receiver(teardown);
  const hook = (await call(a.recruiterToken, 'POST', '/webhooks', { target_url: hookUrl, events: ['match.matched'] }))
    .body;
  keep(await measure(s, history, 'webhook', n, () => testDeliveries(s, a, hook.id, n)));
  return costs;
}

type RowBytes = Record<string, { rows: number; bytesPerRow: number }>;

/**
 * Bytes per row: the average stored row (pg_column_size) plus its tuple header and line pointer
 * (28 B); indexes and free space are the model's named factor, not measured here.
 */
async function measureRowBytes(knex: Knex): Promise<RowBytes> {
  const rowBytes: RowBytes = {};
  for (const t of TABLES) {
    const r = (
      await knex.raw(`SELECT count(*)::int AS rows, coalesce(avg(pg_column_size(x.*)), 0)::float AS avg FROM ${t} x`)
    ).rows[0] as { rows: number; avg: number };
    if (r.rows > 0) rowBytes[t] = { rows: r.rows, bytesPerRow: Math.round(r.avg + 28) };
  }
  return rowBytes;
}

/** The report: each operation's cost, the tables' rows, and the model's answer (plain and with poll hints). */
function report(
  s: Stack,
  r: { n: number; t0: number; loadStart: string; costs: OperationCost[]; rowBytes: RowBytes },
  model: ReturnType<typeof capacityModel> | null,
  hinted: ReturnType<typeof capacityModel> | null,
): string {
  const { costs, rowBytes } = r;
  return [
    `# Capacity inputs (${new Date().toISOString()})`,
    '',
    `n = ${r.n} per operation; CPU less each process's idle use (ms per second: ${idleLine(s)}); ` +
      `${os.cpus().length} cores; load ${r.loadStart} → ${loadavg()}; ${((Date.now() - r.t0) / 1000).toFixed(0)} s`,
    '',
    '| operation | history events | workflow tasks | activity tasks | timers | history bytes | SQL statements | CPU ms API | worker | Temporal | PostgreSQL | wall p50 ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...costs.map(
      (c) =>
        `| ${c.name} | ${c.historyEvents.toFixed(1)} | ${c.workflowTasks.toFixed(1)} | ${c.activityTasks.toFixed(1)} | ` +
        `${c.timers.toFixed(1)} | ${Math.round(c.historyBytes)} | ${c.sqlStatements.toFixed(1)} | ${c.cpuMs.api.toFixed(1)} | ` +
        `${c.cpuMs.worker.toFixed(1)} | ${c.cpuMs.temporal.toFixed(1)} | ${c.cpuMs.postgres.toFixed(1)} | ${c.wallMsP50.toFixed(0)} |`,
    ),
    '',
    '| table | rows at the end | bytes per row | rows added per operation |',
    '|---|---|---|---|',
    ...Object.entries(rowBytes).map(
      ([t, row]) =>
        `| ${t} | ${row.rows} | ${row.bytesPerRow} | ${costs
          .filter((c) => c.rowsAdded[t])
          .map((c) => `${c.name} ${c.rowsAdded[t].toFixed(2)}`)
          .join(', ')} |`,
    ),
    '',
    model ? formatModel(model) : '(--status-only: no model)',
    ...(hinted
      ? ['', 'With poll_after_seconds honoured (the assumed mix of states: a model input):', '', formatModel(hinted)]
      : []),
  ].join('\n');
}

async function main() {
  const t0 = Date.now();
  const loadStart = loadavg();
  const n = opts.n;
  const teardown = new Teardown();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-capacity-'));
  fs.chmodSync(dir, 0o755);
  teardown.add(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const dist = path.join(ROOT, 'dist', `capacity-${randomUUID().slice(0, 8)}`);
  teardown.add(async () => fs.rmSync(dist, { recursive: true, force: true }));
  try {
    buildDist(dist);
    const s = await startStack(dir, dist, teardown);
    const actors = await seedActors(s, n);
    await measureIdle(s);
    const costs = await measureOperations(s, actors, n, teardown);
    const rowBytes = await measureRowBytes(s.knex);
    const model = opts.statusOnly ? null : capacityModel(costs, rowBytes, TARGET_WORKLOAD);
    // The same, with pollers honouring poll_after_seconds over an assumed mix of states (a model input).
    const hinted = opts.statusOnly ? null : capacityModel(costs, rowBytes, TARGET_WORKLOAD_HINTED);
    const md = report(s, { n, t0, loadStart, costs, rowBytes }, model, hinted);
    const resultsDir = path.join(ROOT, 'bench', 'results');
    fs.mkdirSync(resultsDir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    fs.writeFileSync(path.join(resultsDir, `capacity-${stamp}.md`), md + '\n');
    fs.writeFileSync(
      path.join(resultsDir, `capacity-${stamp}.json`),
      JSON.stringify({ n, loadStart, loadEnd: loadavg(), costs, rowBytes, model, hinted }, null, 2),
    );
    console.log(`\n${md}`);
  } finally {
    await teardown.run();
  }
}

runMain(main, module);
