/**
 * Matchmaking benchmark (the queue join and the matching round), on a throw-away PostgreSQL and Temporal dev server:
 *
 * 1. Join latency, one at a time, as a ratio to a bare workflow start (`client.workflow.start` of a
 *    workflow on a task queue no worker polls: only the server's start path) on the same server in
 *    the same run, p50 / p99: the queue entry's update-with-start alone (answers once the entry's
 *    projection is written), and POST /queue/join through the real app (auth, rate limit, profile
 *    and event checks, the update-with-start, the matchmaker kick, position and wait estimate).
 * 2. Join → match under load: N seekers join concurrently while one event has S interview slots;
 *    a simulated pair of humans accepts every match at once and ends the interview at once (the
 *    same service calls the web pages make), freeing the slot. Reports join→match p50 / p99 / max
 *    (match created_at − the moment the join was sent), total time and matches per second.
 * 3. With `--events E --jobs J`: one matching round at discovery scale (E live events, J jobs, a
 *    full batch of waiting entries, half of them for any event), in its own database: the round as
 *    it runs now (`runMatchingRound`: planning without locks, then short per-event locked holds)
 *    against the previous design measured on the same data in the same run (one transaction
 *    locking every live event and the batch's entries while every entry is scored against every
 *    job; rolled back). For each: time with rows locked, whole round, and how long an edit of a
 *    live event or a queue-entry projection (the writers the locks block) takes meanwhile.
 *    `--round-only` skips phases 1 and 2.
 *
 *   npm run bench -- matchmaking [--seekers 1000] [--slots 50] [--samples 200] [--interval 2000] [--concurrency 50]
 *                                [--events 1000 --jobs 100000 [--round-only]]
 *   (or: npx tsx bench/matchmaking.ts …)
 */
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig, type Config } from '#lib/config';
import { startThrowawayInfrastructure } from '#dev/stack';
import { ensureDatabase } from '#dev/postgres-server';
import { createKnex, migrateLatest } from '#db/knex';
import { buildApp } from '#apps/api/src/app';
import { startWorker } from '#apps/worker/src/worker';
import { matchmakerWorkflowId, matchmakerStatsQuery, MATCHMAKER_BATCH_SIZE } from '#workflows/matchmaking/contract';
import {
  queueEntryWorkflowId,
  joinQueueUpdate,
  QUEUE_ENTRY_WORKFLOW,
  type QueueEntryWorkflow,
} from '#workflows/queue/contract';
import { pool } from './support/pool';
import { seedEvent, seedRecruiterTeam } from './support/seed';
import { dbUrlFor } from './support/infra';
import { parseBenchArgs, runCases, runMain, Teardown } from './support/runner';
import { percentile } from './support/stats';
import type { Knex } from 'knex';
import { createMatchmakingActivities, type RoundTimings } from '#activities/matchmaking/matchmaking-activities';
import { createRepositories } from '#db/repositories';
import { computeMatchScore } from '#domain/matchmaking/match-score';
import { jobForScore, seekerForScore, type JobScoreRow } from '#domain/matchmaking/score-inputs';
import { CITIES, TYPED_SKILLS, typedSkillSql } from './support/fair-data';

interface Options {
  seekers: number;
  slots: number;
  samples: number;
  intervalMs: number;
  concurrency: number;
  /** Phase 3 (round at scale): live events and jobs; 0 = skip. */
  events: number;
  jobs: number;
  roundOnly: boolean;
}

const parseArgs = (argv: string[]): Options =>
  parseBenchArgs<Options>(
    argv,
    'matchmaking',
    { seekers: 1000, slots: 50, samples: 200, intervalMs: 2000, concurrency: 50, events: 0, jobs: 0, roundOnly: false },
    {
      '--seekers': 'seekers',
      '--slots': 'slots',
      '--samples': 'samples',
      '--interval': 'intervalMs',
      '--concurrency': 'concurrency',
      '--events': 'events',
      '--jobs': 'jobs',
    },
    { '--round-only': 'roundOnly' },
  );

const ms = (n: number) => `${n.toFixed(1)} ms`;

type Log = (l: string) => void;
type App = Awaited<ReturnType<typeof buildApp>>;
type Seeker = { id: string; token: string };

/** The bench's stack: its database, the worker, a Temporal client and the app (called with inject). */
interface Stack {
  adminUrl: string;
  config: Config;
  knex: Knex;
  temporal: Client;
  app: App;
}

function benchConfig(dbUrl: string, temporalAddress: string, o: Options): Config {
  return loadConfig(
    {},
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: dbUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_TASK_QUEUE: 'bench',
      PUBLIC_BASE_URL: 'http://jobfair.bench',
      APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
      DATABASE_POOL_MAX: '20',
      MATCHMAKER_INTERVAL_MS: String(o.intervalMs),
      QUEUE_ENTRY_TTL_MS: String(6 * 60 * 60 * 1000),
      RATE_LIMIT_WRITE_PER_MIN: '100000',
      RATE_LIMIT_READ_PER_MIN: '100000',
      // No quality floor: every seeker can take any job at once, as before the floor existed
      // (with it, seekers below the floor wait for a later bracket, minutes by default).
      MATCH_MIN_SCORE: '0',
      MATCH_FLOOR_BRACKETS: '0:0:0',
    },
  );
}

async function startStack(
  infra: { adminDatabaseUrl?: string | null; databaseUrl: string; temporalAddress: string },
  o: Options,
  teardown: Teardown,
  log: Log,
): Promise<Stack> {
  const adminUrl = infra.adminDatabaseUrl ?? infra.databaseUrl;
  await ensureDatabase(adminUrl, 'bench');
  const dbUrl = dbUrlFor(adminUrl, 'bench');
  const config = benchConfig(dbUrl, infra.temporalAddress, o);
  const knex = createKnex(dbUrl, config.DATABASE_POOL_MAX);
  await migrateLatest(knex);
  const connection = await Connection.connect({ address: infra.temporalAddress });
  const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  log('bundling workflows and starting the worker…');
  const worker = await startWorker({ config, knex, address: infra.temporalAddress, shutdownGraceTime: '2 seconds' });
  const app = await buildApp({ config, knex, temporal, logger: false });
  // Closed in this order once the phases are done: app, worker, connection, database.
  teardown.add(() => knex.destroy());
  teardown.add(() => connection.close());
  teardown.add(() => worker.shutdown());
  teardown.add(() => app.close());
  return { adminUrl, config, knex, temporal, app };
}

const SKILLS8 = ['TypeScript', 'PostgreSQL', 'Go', 'Python', 'React', 'Kubernetes', 'Temporal', 'Rust'];

/**
 * One team, a private event with 0 slots (latency phase: nobody is matched), an open-invite event
 * with S slots and 10 jobs (load phase), seekers with tokens: `samples` join through the app,
 * `samples` more by a bare update-with-start, then the load phase's.
 */
async function seedPhases(s: Stack, o: Options, log: Log) {
  const { knex, app } = s;
  const accounts = app.services.deps.repos.accounts;
  const { profiles, tokens } = app.services.accounts;
  const { teamId, recruiterId } = await seedRecruiterTeam(accounts, 'Bench team', {
    email: 'recruiter@bench.local',
    displayName: 'Recruiter',
  });
  const holdEvent = await seedEvent(knex, teamId, {
    slug: 'bench-hold',
    company: 'Hold',
    visibility: 'private',
    status: 'live',
    slots: 0,
  });
  await knex('jobs').insert({
    team_id: teamId,
    live_event_id: holdEvent.id,
    title: 'Hold',
    essential_skills: ['TypeScript'],
  });
  const loadEvent = await seedEvent(knex, teamId, {
    slug: 'bench-load',
    company: 'Load',
    visibility: 'open_invite',
    status: 'draft',
    slots: o.slots,
  });
  const skills = SKILLS8;
  for (let j = 0; j < 10; j++) {
    await knex('jobs').insert({
      team_id: teamId,
      live_event_id: loadEvent.id,
      title: `Job ${j}`,
      essential_skills: [skills[j % 8], skills[(j + 1) % 8]],
      bonus_skills: [skills[(j + 3) % 8]],
      experience_min: j % 6,
      remote_preference: 'remote',
    });
  }
  const total = 2 * o.samples + o.seekers;
  const seekers: Seeker[] = [];
  const tSeed = Date.now();
  await pool(
    Array.from({ length: total }, (_, i) => i),
    10,
    async (i) => {
      const u = await accounts.insertUser({
        email: `seeker-${i}@bench.local`,
        display_name: `Seeker ${i}`,
        role: 'seeker',
      });
      await profiles.completeOnboarding(u.id, {
        full_name: `Seeker ${i}`,
        title: 'Engineer',
        skills: [skills[i % 8], skills[(i * 3) % 8], skills[(i * 5) % 8]],
        experience_years: i % 10,
      });
      const t = await tokens.mint(u.id, { name: `bench ${i}`, scopes: ['queue:read', 'queue:write', 'matches:read'] });
      seekers[i] = { id: u.id, token: t.token };
    },
  );
  log(`seeded ${total} seekers in ${((Date.now() - tSeed) / 1000).toFixed(1)} s`);
  return {
    recruiterId,
    holdEvent,
    loadEvent,
    seekers,
  };
}

type Seeded = Awaited<ReturnType<typeof seedPhases>>;

const joiner = (app: App) => async (token: string, slug?: string) => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/queue/join',
    headers: { authorization: `Bearer ${token}` },
    payload: slug ? { live_event_slug: slug } : undefined,
  });
  if (res.statusCode !== 200) throw new Error(`join failed ${res.statusCode}: ${res.body}`);
};

const elapsedMs = async (fn: () => Promise<unknown>) => {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
};

/** Phase 1: latency, sequential, interleaved so drift affects both the same way. */
async function latencyPhase(s: Stack, d: Seeded, o: Options): Promise<void> {
  const { temporal, config } = s;
  const joinOnce = joiner(s.app);
  const { holdEvent, seekers } = d;
  const bareStart = (id: string) =>
    temporal.workflow.start('benchBareStart', { taskQueue: 'bench-no-worker', workflowId: `${id}-${randomUUID()}` });
  // The queue entry's update-with-start alone (what the join use-case sends), answered once projected.
  const updateWithStart = (u: Seeker) =>
    temporal.workflow.executeUpdateWithStart(joinQueueUpdate, {
      args: [{ agentIdentity: 'bench', viaAgent: true }],
      startWorkflowOperation: new WithStartWorkflowOperation<QueueEntryWorkflow>(QUEUE_ENTRY_WORKFLOW, {
        workflowId: queueEntryWorkflowId(u.id),
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        workflowIdConflictPolicy: 'USE_EXISTING',
        args: [
          {
            queueId: randomUUID(),
            userId: u.id,
            liveEventId: holdEvent.id,
            liveEventSlug: holdEvent.slug,
            agentIdentity: 'bench',
            viaAgent: true,
            enteredAtMs: Date.now(),
            ttlMs: config.QUEUE_ENTRY_TTL_MS,
          },
        ],
      }),
    });
  // Warm-up (connections, the matchmaker's first start, JIT), not measured; sample i uses seeker i.
  const runs = await runCases<number>(
    [
      {
        name: 'bare',
        warmUp: async () => {
          for (let i = 0; i < 5; i++) await bareStart(`bare-warm-${i}`);
        },
        run: (r) => elapsedMs(() => bareStart(`bare-${r + 1}`)),
      },
      { name: 'uws', run: (r) => elapsedMs(() => updateWithStart(seekers[o.samples + r + 1])) },
      {
        name: 'join',
        warmUp: () => joinOnce(seekers[0].token, holdEvent.slug),
        run: (r) => elapsedMs(() => joinOnce(seekers[r + 1].token, holdEvent.slug)),
      },
    ],
    { rounds: Math.max(0, o.samples - 1), warmUpFirst: true },
  );
  const [bare, uws, join] = [runs.get('bare')!, runs.get('uws')!, runs.get('join')!];
  const [b50, b99] = [percentile(bare, 50), percentile(bare, 99)];
  console.log(`\nJoin latency (${join.length} sequential samples of each, interleaved)`);
  console.log(`  bare workflow start                     p50 ${ms(b50)}   p99 ${ms(b99)}`);
  console.log(
    `  update-with-start (join, projected)     p50 ${ms(percentile(uws, 50))}   p99 ` +
      `${ms(percentile(uws, 99))}   ratio p50 ${(percentile(uws, 50) / b50).toFixed(2)}×  p99 ` +
      `${(percentile(uws, 99) / b99).toFixed(2)}×`,
  );
  console.log(
    `  POST /queue/join (whole request)        p50 ${ms(percentile(join, 50))}   p99 ` +
      `${ms(percentile(join, 99))}   ratio p50 ${(percentile(join, 50) / b50).toFixed(2)}×  p99 ` +
      `${(percentile(join, 99) / b99).toFixed(2)}×`,
  );
}

/** The humans of phase 2: accept every new match on both sides and end the interview at once, until every seeker has been matched. */
async function humans(s: Stack, d: Seeded, expected: number, joining: () => boolean): Promise<number> {
  const { knex } = s;
  const matchesService = s.app.services.matches;
  const handled = new Set<string>();
  let humanErrors = 0;
  for (;;) {
    const open = await knex('matches')
      .where({ status: 'matched', live_event_id: d.loadEvent.id })
      .select('id', 'seeker_user_id')
      .limit(200);
    const fresh = open.filter((m: { id: string }) => !handled.has(m.id));
    await pool(fresh, 25, async (m: { id: string; seeker_user_id: string }) => {
      handled.add(m.id);
      try {
        await matchesService.accept({ userId: m.seeker_user_id, matchId: m.id });
        await matchesService.accept({ userId: d.recruiterId, matchId: m.id });
        await matchesService.completeInterview({ userId: d.recruiterId, matchId: m.id });
      } catch (err) {
        humanErrors++;
        handled.delete(m.id);
        if (humanErrors < 5) console.error('human step failed', err);
      }
    });
    const [{ n }] = await knex('matches').where({ live_event_id: d.loadEvent.id }).count<{ n: string }[]>({ n: '*' });
    if (!joining() && Number(n) >= expected) break;
    if (!fresh.length) await new Promise((r) => setTimeout(r, 50));
  }
  return humanErrors;
}

/** Phase 2: load. The event goes live, then N seekers join concurrently; the humans accept and finish at once. */
async function loadPhase(s: Stack, d: Seeded, o: Options): Promise<void> {
  const { knex, temporal, config } = s;
  const joinOnce = joiner(s.app);
  await knex('live_events').where({ id: d.loadEvent.id }).update({ status: 'live', started_at: knex.fn.now() });
  const loadSeekers = d.seekers.slice(2 * o.samples);
  const joinSentAt = new Map<string, number>();
  let joining = true;
  const humanRun = humans(s, d, loadSeekers.length, () => joining);
  const tLoad = Date.now();
  await pool(loadSeekers, o.concurrency, async (seeker) => {
    joinSentAt.set(seeker.id, Date.now());
    await joinOnce(seeker.token);
  });
  joining = false;
  const joinsDone = Date.now();
  const humanErrors = await humanRun;
  const tDone = Date.now();
  const rows = await knex('matches').where({ live_event_id: d.loadEvent.id }).select('seeker_user_id', 'created_at');
  const waits = rows
    .map(
      (r: { seeker_user_id: string; created_at: Date }) =>
        r.created_at.getTime() - (joinSentAt.get(r.seeker_user_id) ?? NaN),
    )
    .filter((x) => Number.isFinite(x));
  const over = await knex.raw(
    `SELECT count(*)::int AS n FROM (SELECT seeker_user_id FROM matches GROUP BY 1 HAVING count(*) > 1) x`,
  );
  const stats = await temporal.workflow
    .getHandle(matchmakerWorkflowId(config.TEMPORAL_TASK_QUEUE))
    .query(matchmakerStatsQuery);
  console.log(
    `\nJoin → match under load (${loadSeekers.length} seekers joining ${o.concurrency} at a ` +
      `time, ${o.slots} slots, MATCHMAKER_INTERVAL_MS=${o.intervalMs}, humans accept and finish ` +
      `at once)`,
  );
  console.log(
    `  all joins answered in ${((joinsDone - tLoad) / 1000).toFixed(1)} s (${(loadSeekers.length / ((joinsDone - tLoad) / 1000)).toFixed(0)} ` +
      `joins/s)`,
  );
  console.log(
    `  matches made          ${rows.length} in ${((tDone - tLoad) / 1000).toFixed(1)} s → ` +
      `${(rows.length / ((tDone - tLoad) / 1000)).toFixed(1)} matches/s`,
  );
  console.log(
    `  join → match          p50 ${(percentile(waits, 50) / 1000).toFixed(2)} s   p99 ` +
      `${(percentile(waits, 99) / 1000).toFixed(2)} s   max ` +
      `${(Math.max(...waits) / 1000).toFixed(2)} s`,
  );
  console.log(
    `  matchmaker rounds     ${stats.rounds} (kicks ${stats.kicks}, runs ${stats.runs}); ` +
      `seekers in two matches: ${over.rows[0].n}; human-step retries: ${humanErrors}`,
  );
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  const log = (l: string) => console.log(`[bench] ${l}`);
  const base = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    TEMPORAL_ADDRESS: process.env.BENCH_TEMPORAL_ADDRESS ?? '',
    DATABASE_URL: '',
  });
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const infra = await startThrowawayInfrastructure({ config: base, log: () => undefined, prefix: 'jobfair-bench' });
  try {
    const teardown = new Teardown();
    const s = await startStack(infra, o, teardown, log);
    log(`infrastructure up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (!o.roundOnly) {
      const d = await seedPhases(s, o, log);
      await latencyPhase(s, d, o);
      await loadPhase(s, d, o);
    }
    if (o.events > 0)
      await roundAtScale({
        adminUrl: s.adminUrl,
        temporal: s.temporal,
        events: o.events,
        jobs: o.jobs || o.events * 100,
        log,
      });
    await teardown.run();
  } finally {
    await infra.stop();
  }
  log(`finished in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(0);
}

/**
 * Every event live with 3 slots (every fifth private); jobs with 3 essential + 2 bonus skills; a
 * full batch of waiting seekers, half for any event, half for one event each.
 */
async function seedRoundData(knex: Knex, a: { events: number; jobs: number }, entries: number): Promise<void> {
  await knex.raw(
    `INSERT INTO teams (id, name) SELECT gen_random_uuid(), 'Round team ' || g FROM generate_series(1, ?) g`,
    [Math.max(1, Math.ceil(a.events / 10))],
  );
  await knex.raw(
    `INSERT INTO live_events (team_id, slug, company_name, visibility, status, interview_slots, started_at)
     SELECT t.id, 'round-' || g, 'Company ' || g, CASE WHEN g % 5 = 4 THEN 'private' ELSE 'open_invite' END, 'live', 3, now()
     FROM generate_series(1, ?) g JOIN LATERAL (SELECT id FROM teams ORDER BY id OFFSET (g % (SELECT count(*) FROM teams)) LIMIT 1) t ON true`,
    [a.events],
  );
  await knex.raw(
    `INSERT INTO jobs (team_id, live_event_id, title, essential_skills, bonus_skills, experience_min, salary_min, salary_max, location, remote_preference)
     SELECT e.team_id, e.id, 'Job ' || j,
       ARRAY[${typedSkillSql('power(random(), 2)')}, ${typedSkillSql('power(random(), 2)')}, ${typedSkillSql('random()')}],
       ARRAY[${typedSkillSql('power(random(), 2)')}, ${typedSkillSql('random()')}],
       floor(random() * 10)::int, CASE WHEN random() < 0.15 THEN NULL ELSE 30000 + floor(random() * 90)::int * 1000 END, NULL,
       (?::text[])[1 + floor(random() * ?)::int], (ARRAY['remote','hybrid','onsite'])[1 + floor(random() * 3)::int]
     FROM live_events e CROSS JOIN generate_series(1, ?) j`,
    [...Array(5).fill(TYPED_SKILLS), CITIES, CITIES.length, Math.ceil(a.jobs / a.events)],
  );
  await knex.raw(
    `INSERT INTO users (email, display_name, role) SELECT 'round-seeker-' || g || ` +
      `'@bench.local', 'Seeker ' || g, 'seeker' FROM generate_series(1, ?) g`,
    [entries],
  );
  await knex.raw(
    `INSERT INTO profiles (user_id, full_name, skills, experience_years, location, remote_preference)
     SELECT u.id, u.display_name,
       ARRAY[${typedSkillSql('power(random(), 2)')}, ${typedSkillSql('power(random(), 2)')}, ${typedSkillSql('power(random(), 2)')}, ${typedSkillSql('random()')}],
       floor(random() * 12)::int, (?::text[])[1 + floor(random() * ?)::int], (ARRAY['onsite','hybrid','fully_remote'])[1 + floor(random() * 3)::int]
     FROM users u WHERE u.role = 'seeker'`,
    [...Array(4).fill(TYPED_SKILLS), CITIES, CITIES.length],
  );
  await knex.raw(
    `INSERT INTO queue_entries (id, user_id, status, live_event_id, live_event_slug, entered_at)
     SELECT gen_random_uuid(), u.id, 'waiting', e.id, e.slug, now() - (u.rn || ' seconds')::interval
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM users WHERE role = 'seeker') u
     LEFT JOIN LATERAL (SELECT id, slug FROM live_events WHERE u.rn % 2 = 1 ORDER BY id OFFSET (u.rn % ?) LIMIT 1) e ON true`,
    [a.events],
  );
  await knex.raw('ANALYZE');
}

/**
 * Event edits and entry projections, one at a time on their own connection, while `during` runs
 * — in a worker thread, so the round's own CPU work in this thread does not delay them.
 */
async function withWriters<T>(
  w0: { dbUrl: string; eventIds: string[]; entryIds: string[] },
  during: () => Promise<T>,
): Promise<{ result: T; ms: number; writes: number[] }> {
  const w = new Worker(WRITER, { eval: true, workerData: w0 });
  const done = new Promise<number[]>((resolve, reject) => {
    w.once('message', (m: { writes?: number[] }) => (m.writes ? resolve(m.writes) : undefined));
    w.once('error', reject);
  });
  await new Promise<void>((resolve) => w.once('online', () => setTimeout(resolve, 300)));
  const t0 = performance.now();
  try {
    const result = await during();
    return { result, ms: performance.now() - t0, writes: await (w.postMessage('stop'), done) };
  } finally {
    await w.terminate();
  }
}

/**
 * The activity itself, its round timings and each holdSlots call (one locked transaction) timed.
 * Its offers go to entries with no workflow here, so they are refused and the data stays the same
 * for the next run.
 */
function timedActivities(knex: Knex, temporal: Client) {
  const timings: RoundTimings[] = [];
  const holds: number[] = [];
  const repos = createRepositories(knex);
  const repo = repos.matchmaking;
  const activities = createMatchmakingActivities({
    knex,
    accountsRepository: repos.accounts,
    client: temporal,
    // No quality floor: the figures stay comparable with the runs before it (a floor only prunes the search).
    config: {
      TEMPORAL_TASK_QUEUE: 'bench-round',
      MATCHMAKER_INTERVAL_MS: 2000,
      MATCH_ACCEPT_WINDOW_MS: 60_000,
      INTERVIEW_LENGTH_MS: 60_000,
      MATCH_NO_SHOW_GRACE_MS: 0,
      MATCH_MIN_SCORE: 0,
      MATCH_FLOOR_BRACKETS: [{ afterMs: 0, relax: 0, essential: false }],
    },
    matchmakingRepository: {
      ...repo,
      holdSlots: async (eventId, offers) => {
        const t0 = performance.now();
        try {
          return await repo.holdSlots(eventId, offers);
        } finally {
          holds.push(performance.now() - t0);
        }
      },
    },
    log: { info: (obj) => timings.push((obj as { timings: RoundTimings }).timings), warn: () => undefined },
  });
  return { activities, timings, holds };
}

interface RoundFigures {
  events: number;
  openJobs: number;
  entries: number;
  timings: RoundTimings[];
  holds: number[];
  now: Array<{ ms: number; writes: number[]; offered: number }>;
  before: { ms: number; writes: number[]; result: { entries: number; pairs: number; scored: number } };
}

function printRoundAtScale(f: RoundFigures): void {
  const { timings, holds, now, before } = f;
  const med = (xs: number[]) => percentile(xs, 50);
  const lockedNow = med(timings.map((x) => x.holdMs));
  const planNow = med(timings.map((x) => x.planMs));
  const roundNow = med(now.map((x) => x.ms));
  const writesNow = now.flatMap((x) => x.writes);
  console.log(
    `\nOne matching round at scale (${f.events} live events, ${f.openJobs} open jobs, ` +
      `${f.entries} waiting entries: half any event; median of 3 rounds vs the previous design ` +
      `once, same run)`,
  );
  console.log(
    `  now:      plan (no locks) ${ms(planNow)}, hold slots ${ms(lockedNow)} (${holds.length / 3} ` +
      `short transactions, one event each, 4 at a time: p50 ${ms(percentile(holds, 50))}, ` +
      `longest ${ms(Math.max(...holds))}), offers ${ms(med(timings.map((x) => x.offerMs)))}; ` +
      `whole round ${ms(roundNow)}; offers held ${now[0].offered}`,
  );
  console.log(
    `  previous: one transaction holding every live event and ${before.result.entries} entries ` +
      `for ${ms(before.ms)} (${before.result.pairs} pairs planned, ` +
      `${(before.result.scored / 1e6).toFixed(1)} M scores; each entry's list cut to its best ` +
      `${KEPT} after scoring, or the heap runs out)`,
  );
  console.log(
    `  longest time a row stays locked   previous / now = ` +
      `${(before.ms / Math.max(...holds)).toFixed(0)}×   (${ms(before.ms)} / ` +
      `${ms(Math.max(...holds))})`,
  );
  console.log(
    `  time any row is locked            previous / now = ${(before.ms / lockedNow).toFixed(0)}× ` +
      `  (${ms(before.ms)} / ${ms(lockedNow)}: the whole hold phase)`,
  );
  console.log(
    `  planning until offers are held    previous / now = ` +
      `${(before.ms / (planNow + lockedNow)).toFixed(1)}×   (${ms(before.ms)} / ` +
      `${ms(planNow + lockedNow)})`,
  );
  console.log(
    `  event edit / entry projection meanwhile: now p50 ${ms(percentile(writesNow, 50))} max ` +
      `${ms(Math.max(...writesNow))} (${writesNow.length} writes); previous p50 ` +
      `${ms(percentile(before.writes, 50))} max ${ms(Math.max(...before.writes))} (${before.writes.length} ` +
      `writes); max ratio ${(Math.max(...before.writes) / Math.max(...writesNow)).toFixed(0)}×`,
  );
}

/**
 * Phase 3: one matching round at scale, now and as previously designed, on the same data, with a
 * writer measuring how long event edits and entry projections wait meanwhile.
 */
async function roundAtScale(a: {
  adminUrl: string;
  temporal: Client;
  events: number;
  jobs: number;
  log: (l: string) => void;
}): Promise<void> {
  await ensureDatabase(a.adminUrl, 'bench_round');
  const dbUrl = dbUrlFor(a.adminUrl, 'bench_round');
  const knex = createKnex(dbUrl, 12);
  try {
    await migrateLatest(knex);
    const entries = MATCHMAKER_BATCH_SIZE;
    const t = Date.now();
    await seedRoundData(knex, a, entries);
    const [{ n: openJobs }] = await knex('jobs').where({ status: 'open' }).count<Array<{ n: number }>>({ n: '*' });
    a.log(
      `round phase: seeded ${a.events} live events, ${openJobs} open jobs, ${entries} waiting ` +
        `entries in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
    const eventIds: string[] = (await knex('live_events').select('id')).map((r: { id: string }) => r.id);
    const entryIds: string[] = (await knex('queue_entries').select('id')).map((r: { id: string }) => r.id);
    const writerData = { dbUrl, eventIds, entryIds };
    const { activities, timings, holds } = timedActivities(knex, a.temporal);
    const now: RoundFigures['now'] = [];
    for (let run = 0; run < 3; run++) {
      const r = await withWriters(writerData, () => activities.runMatchingRound({ batchSize: entries }));
      now.push({ ms: r.ms, writes: r.writes, offered: r.result.offered });
    }
    // Before: the previous design's transaction on the same data, rolled back.
    const before = await withWriters(writerData, () => previousDesignRound(knex, entries));
    printRoundAtScale({ events: a.events, openJobs, entries, timings, holds, now, before });
  } finally {
    await knex.destroy();
  }
}

/**
 * The round as the matchmaker ran it before the candidate search (kept here as the baseline): one
 * transaction locks every live event and a batch of waiting entries, loads every open job, scores
 * every entry against every job it may take and plans; rolled back instead of writing offers.
 */
async function previousDesignRound(
  knex: Knex,
  batchSize: number,
): Promise<{ entries: number; pairs: number; scored: number }> {
  const out = { entries: 0, pairs: 0, scored: 0 };
  await knex
    .transaction(async (trx) => {
      const events: Array<{ id: string; visibility: string; interview_slots: number }> = await trx('live_events')
        .where({ status: 'live' })
        .orderBy('id')
        .forNoKeyUpdate()
        .skipLocked()
        .select('id', 'visibility', 'interview_slots');
      const held = new Map<string, number>(
        (
          await trx('match_offers')
            .whereIn('status', ['offering', 'started'])
            .groupBy('live_event_id')
            .select('live_event_id', trx.raw('count(*)::int as n'))
        ).map((r: { live_event_id: string; n: number }) => [r.live_event_id, r.n]),
      );
      const free = new Map(events.map((e) => [e.id, Math.max(0, e.interview_slots - (held.get(e.id) ?? 0))]));
      const withRoom = events.filter((e) => (free.get(e.id) ?? 0) > 0);
      const openInvite = new Set(withRoom.filter((e) => e.visibility === 'open_invite').map((e) => e.id));
      const jobs: Array<JobScoreRow & { id: string; live_event_id: string }> = await trx('jobs')
        .whereIn(
          'live_event_id',
          withRoom.map((e) => e.id),
        )
        .andWhere({ status: 'open' })
        .select(
          'id',
          'team_id',
          'live_event_id',
          'title',
          'essential_skills',
          'bonus_skills',
          'experience_min',
          'salary_min',
          'salary_max',
          'location',
          'remote_preference',
        );
      const entries: Array<{
        id: string;
        live_event_id: string | null;
        entered_at: Date;
        skills: string[];
        experience_years: number;
        location: string | null;
        remote_preference: string | null;
      }> = await trx('queue_entries as q')
        .join('profiles as p', 'p.user_id', 'q.user_id')
        .where('q.status', 'waiting')
        .orderBy([{ column: 'q.entered_at' }, { column: 'q.id' }])
        .limit(batchSize)
        .forUpdate('q')
        .skipLocked()
        .select(
          'q.id',
          'q.live_event_id',
          'q.entered_at',
          'p.skills',
          'p.experience_years',
          'p.location',
          'p.remote_preference',
        );
      out.entries = entries.length;
      // planMatches as it was: every eligible job scored for every entry, sorted, served by band then age.
      const ranked = entries
        .map((e) => {
          const seeker = seekerForScore(e);
          const candidates = jobs
            .filter((j) => (e.live_event_id ? j.live_event_id === e.live_event_id : openInvite.has(j.live_event_id)))
            .map((j) => {
              out.scored++;
              return {
                job: j,
                score: computeMatchScore(seeker, jobForScore(j)),
              };
            })
            .sort(
              (x, y) =>
                y.score.score - x.score.score ||
                (free.get(y.job.live_event_id) ?? 0) - (free.get(x.job.live_event_id) ?? 0) ||
                x.job.id.localeCompare(y.job.id),
            )
            // The original kept every scored pair until the plan was made: at 100 000 jobs that
            // exhausts a 4 GB heap. Same work, less memory: keep the best KEPT per entry.
            .slice(0, KEPT);
          return { e, candidates, band: candidates.length ? Math.floor(candidates[0].score.score / 20) : -1 };
        })
        .filter((r) => r.candidates.length)
        .sort(
          (x, y) =>
            y.band - x.band || x.e.entered_at.getTime() - y.e.entered_at.getTime() || x.e.id.localeCompare(y.e.id),
        );
      for (const r of ranked) {
        const pick = r.candidates.find((c) => (free.get(c.job.live_event_id) ?? 0) > 0);
        if (!pick) continue;
        free.set(pick.job.live_event_id, (free.get(pick.job.live_event_id) ?? 0) - 1);
        out.pairs++;
      }
      throw new RolledBack();
    })
    .catch((err) => {
      if (!(err instanceof RolledBack)) throw err;
    });
  return out;
}

class RolledBack extends Error {}
const KEPT = 200;

/** The writer thread (plain JS): alternately edits a live event and projects a queue entry, timing each statement. */
const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const { Client } = require('pg');
(async () => {
  const db = new Client({ connectionString: workerData.dbUrl });
  await db.connect();
  let running = true;
  parentPort.on('message', () => { running = false; });
  const writes = [];
  for (let i = 0; running; i++) {
    const t0 = performance.now();
    if (i % 2) await db.query('UPDATE live_events SET updated_at = now() WHERE id = $1', [workerData.eventIds[i % workerData.eventIds.length]]);
    else await db.query('UPDATE queue_entries SET updated_at = now() WHERE id = $1', [workerData.entryIds[i % workerData.entryIds.length]]);
    writes.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  await db.end();
  parentPort.postMessage({ writes });
})();
`;

runMain(main);
