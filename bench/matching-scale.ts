/**
 * How matching scales (round time against the queue's length; slot freed → next offer), each part on its own throw-away PostgreSQL and Temporal
 * dev server:
 *
 * 1. **Round time** (`rounds`): for each job count J (`--jobs`) J/100 live open-invite events of
 *    100 open jobs and 3 interview slots each — every event has room, the worst case for the
 *    candidate search: every open job is a candidate; for each waiting-entry count W (`--waiting`)
 *    W seekers wait (half for one event, half for any event), oldest first. One `runMatchingRound`
 *    (the production activity, default floor) is timed `--repeat` times per cell, after `--warmup`
 *    untimed rounds (default 3; a worker runs rounds back to back, so its first rounds after start —
 *    job cache fill, code not yet optimised by V8 — are not what a slot freeing meets; decision 0237): plan (reads + candidate search, no locks), hold (the locked part), offer
 *    (the Temporal calls; here every offer is refused — the entries have no workflow — so the data
 *    stays the same for the next repeat), and the whole round. Its ceiling (`ceilingMs`): the bare
 *    I/O the round's offers need in the same run — one Temporal round-trip per offer (as many at a
 *    time as the round sends them) and one SQL round-trip.
 * 2. **Slot frees → offer** (`slotToOfferMs`): the real worker and matchmaker workflow (default
 *    MATCHMAKER_INTERVAL_MS, floor off), 10 open-invite events with 1 slot and 20 jobs each, 60
 *    seekers waiting for any event through the real join. Each sample: after a random pause of
 *    0–2 batch windows (so the slot frees at any moment of the matchmaker's cycle), a recruiter
 *    declines one open match (the slot frees when the decline answers); measured until the next
 *    match of that event exists (its row is written when the seeker's entry takes the offer).
 *    Also reports matchmaker kicks per join (signals the joins cost the matchmaker).
 *
 *   npx tsx bench/matching-scale.ts [--quick] [--json <file>] [--waiting 100,1000,10000] [--jobs 100000] [--repeat 3] [--warmup 3] [--samples 30] [--no-slot] [--no-rounds] [--explain]
 *
 * `--explain` also prints EXPLAIN ANALYZE of the round's read of its first page of waiting entries
 * at each waiting count (the one read whose input grows with the queue).
 *   npm run bench -- matching-scale …   (the same)
 *
 * `--json <file>` writes the bench contract's shape (the contract bench/suite.ts reads):
 * `{ slotToOfferMs: { p50, p95, samples }, rounds: [{ waiting, jobs, roundMs, ceilingMs, ceilingNote }], notes }`.
 * `--quick`: 100 and 1,000 waiting with 10,000 jobs, 8 slot samples (under ~60 s on an idle machine).
 */
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { WorkflowNotFoundError } from '@temporalio/common';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import type { Knex } from 'knex';
import { loadConfig, type Config } from '#lib/config';
import { startThrowawayInfrastructure } from '#dev/stack';
import { ensureDatabase } from '#dev/postgres-server';
import { createKnex, migrateLatest } from '#db/knex';
import { createRepositories } from '#db/repositories';
import { createMatchmakingActivities, type RoundTimings } from '#activities/matchmaking/matchmaking-activities';
import { MATCHMAKER_BATCH_SIZE, MATCHMAKER_ROUND_MAX_OFFERS } from '#workflows/matchmaking/contract';
import { buildApp } from '#apps/api/src/app';
import { startWorker } from '#apps/worker/src/worker';
import { pool } from './support/pool';
import { median, round1 } from './support/stats';
import { dbUrlFor } from './support/infra';
import { runCases, runMain } from './support/runner';
import { SLOT_MATCH_ENV, VOCABULARY, measureSlotToOffer, type SlotResult } from './support/slot-to-offer';

const argv = process.argv.slice(2);
const has = (name: string) => argv.includes(name);
const value = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const listArg = (name: string, def: number[]): number[] => {
  const raw = value(name);
  if (raw === undefined) return def;
  const v = raw.split(',').map(Number);
  if (!v.length || v.some((n) => !Number.isInteger(n) || n <= 0))
    throw new Error(`${name} needs comma-separated positive integers`);
  return v;
};
const known = new Set([
  '--quick',
  '--json',
  '--waiting',
  '--jobs',
  '--repeat',
  '--warmup',
  '--samples',
  '--no-slot',
  '--no-rounds',
  '--explain',
  'matching-scale',
]);
for (let i = 0; i < argv.length; i++) {
  if (!known.has(argv[i]))
    throw new Error(`unknown argument ${argv[i]}; use ${[...known].filter((k) => k.startsWith('--')).join(', ')}`);
  if (['--json', '--waiting', '--jobs', '--repeat', '--warmup', '--samples'].includes(argv[i])) i++;
}

const QUICK = has('--quick');
const JSON_OUT = value('--json');
const WAITING = listArg('--waiting', QUICK ? [100, 1_000] : [100, 1_000, 10_000]);
const JOBS = listArg('--jobs', QUICK ? [10_000] : [100_000]);
const REPEAT = listArg('--repeat', [3])[0];
const WARMUP = value('--warmup') === undefined ? 3 : Number(value('--warmup'));
if (!Number.isInteger(WARMUP) || WARMUP < 1) throw new Error('--warmup needs a positive integer');
const SAMPLES = listArg('--samples', [QUICK ? 8 : 30])[0];
/** Offers in flight at once in a round (OFFER_CONCURRENCY of the activity: the round's offer bound). */
const OFFER_CONCURRENCY = MATCHMAKER_ROUND_MAX_OFFERS;

const CITIES = ['Berlin', 'London', 'Paris', 'Amsterdam', 'Lisbon', 'Madrid', 'Warsaw', 'Prague', 'Vienna', 'Zurich'];
const log = (l: string) => console.error(`[bench] ${l}`);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

interface RoundRow {
  waiting: number;
  jobs: number;
  roundMs: number;
  ceilingMs: number | null;
  ceilingNote: string;
  planMs: number;
  searchMs: number;
  holdMs: number;
  offerMs: number;
  considered: number;
  offered: number;
  /** CPU time of this process (the activity's own work: planning, search, clients) during the round: less sensitive to a loaded machine than wall time. */
  cpuMs: number;
  /** `--explain`: execution time of the first page of waiting entries (the round's only read that could grow with the queue) and its plan's top nodes. */
  explain?: { executionMs: number; plan: string };
}

/** Part 1: one round at J jobs and W waiting entries, for every J and W. */
async function rounds(infra: { adminUrl: string; temporalAddress: string }, base: Config): Promise<RoundRow[]> {
  const out: RoundRow[] = [];
  const connection = await Connection.connect({ address: infra.temporalAddress });
  const temporal = new Client({ connection });
  try {
    for (const jobs of JOBS) out.push(...(await roundsAtJobs(infra.adminUrl, temporal, base, jobs)));
  } finally {
    await connection.close();
  }
  return out;
}

/** J/100 live events of 100 jobs in their own database; then each waiting count in turn. */
async function roundsAtJobs(adminUrl: string, temporal: Client, base: Config, jobs: number): Promise<RoundRow[]> {
  const db = `bench_scale_${jobs}`;
  await ensureDatabase(adminUrl, db);
  const knex = createKnex(dbUrlFor(adminUrl, db), 12);
  try {
    await migrateLatest(knex);
    const events = Math.max(1, Math.round(jobs / 100));
    const t = Date.now();
    await seedEvents(knex, events);
    log(`${jobs} jobs: seeded ${events} events in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const repos = createRepositories(knex);
    const out: RoundRow[] = [];
    for (const w of WAITING) {
      await seedWaiting(knex, w, events);
      const row = await roundCell(knex, repos, temporal, base, jobs, w);
      out.push(row);
      if (row.explain)
        log(
          `jobs ${jobs} waiting ${w}: first page of waiting entries ${row.explain.executionMs} ms\n${row.explain.plan}`,
        );
      log(
        `jobs ${jobs} waiting ${w}: round ${row.roundMs} ms (plan ${row.planMs} of which search ` +
          `${row.searchMs}, hold ${row.holdMs}, offer ${row.offerMs}; considered ${row.considered}, ` +
          `offered ${row.offered}; CPU ${row.cpuMs} ms); ceiling ${row.ceilingMs} ms; load ${load()}`,
      );
    }
    return out;
  } finally {
    await knex.destroy();
  }
}

/** The production activity, its round timings collected from its log. */
function roundActivities(
  knex: Knex,
  repos: ReturnType<typeof createRepositories>,
  temporal: Client,
  base: Config,
  timings: RoundTimings[],
) {
  return createMatchmakingActivities({
    knex,
    client: temporal,
    accountsRepository: repos.accounts,
    matchmakingRepository: repos.matchmaking,
    config: { ...base, TEMPORAL_TASK_QUEUE: 'bench-scale' },
    log: {
      info: (o: object) => 'timings' in o && timings.push((o as { timings: RoundTimings }).timings),
      warn: () => undefined,
    },
  });
}

/** The ceiling: the bare I/O of as many offers (one Temporal round-trip each, as many at a time as the round) and one SQL round-trip. */
async function offersCeiling(knex: Knex, temporal: Client, offered: number): Promise<number> {
  const t0 = performance.now();
  await knex.raw('SELECT 1');
  await pool(
    Array.from({ length: offered }, (_, i) => i),
    OFFER_CONCURRENCY,
    async (i) => {
      try {
        await temporal.workflow.getHandle(`bench-absent-${i}`).describe();
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    },
  );
  return performance.now() - t0;
}

/** One cell: `--warmup` untimed rounds, `--repeat` timed ones (wall and CPU), then as many ceiling runs. */
async function roundCell(
  knex: Knex,
  repos: ReturnType<typeof createRepositories>,
  temporal: Client,
  base: Config,
  jobs: number,
  w: number,
): Promise<RoundRow> {
  const timings: RoundTimings[] = [];
  const activities = roundActivities(knex, repos, temporal, base, timings);
  let res = { considered: 0, offered: 0 };
  const round = async () => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    res = await activities.runMatchingRound({ batchSize: MATCHMAKER_BATCH_SIZE });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    return { ms, cpuMs: (c.user + c.system) / 1000 };
  };
  const warmUp = async () => {
    for (let r = 0; r < WARMUP; r++) await activities.runMatchingRound({ batchSize: MATCHMAKER_BATCH_SIZE });
    timings.length = 0;
  };
  const timed = (await runCases([{ name: 'round', warmUp, run: round }], { rounds: REPEAT })).get('round')!;
  const ceilings = (
    await runCases([{ name: 'ceiling', run: () => offersCeiling(knex, temporal, res.offered) }], { rounds: REPEAT })
  ).get('ceiling')!;
  const explain = has('--explain') ? await explainWaitingPage(knex, repos.matchmaking) : undefined;
  const f = (k: keyof RoundTimings) => (timings.length ? median(timings.map((x) => x[k])) : NaN);
  return {
    waiting: w,
    jobs,
    roundMs: round1(median(timed.map((x) => x.ms))),
    ceilingMs: round1(median(ceilings)),
    ceilingNote:
      `bare I/O of the round's ${res.offered} offers: one Temporal round-trip each (${OFFER_CONCURRENCY} ` +
      `at a time) + one SQL round-trip`,
    planMs: round1(f('planMs')),
    searchMs: round1(f('searchMs')),
    holdMs: round1(f('holdMs')),
    offerMs: round1(f('offerMs')),
    considered: res.considered,
    offered: res.offered,
    cpuMs: round1(median(timed.map((x) => x.cpuMs))),
    ...(explain ? { explain } : {}),
  };
}

/**
 * `--explain`: EXPLAIN ANALYZE of the round's two reads over `queue_entries` — its first page of
 * waiting entries (every live event with room, any-event entries allowed, oldest first) and the
 * stragglers of ended events — each the statement the repository itself sends, so the plans are
 * the production ones.
 */
async function explainWaitingPage(
  knex: Knex,
  repo: ReturnType<typeof createRepositories>['matchmaking'],
): Promise<{ executionMs: number; plan: string }> {
  const explainOf = async (call: () => Promise<unknown>) => {
    // The statement as knex reports it (native `$n` placeholders, in order).
    let captured: { sql: string; bindings: readonly Knex.Value[] } | null = null;
    const onQuery = (q: { sql: string; bindings: readonly Knex.Value[] }) => {
      if (/from "queue_entries"/.test(q.sql)) captured = q;
    };
    knex.on('query', onQuery);
    try {
      await call();
    } finally {
      knex.off('query', onQuery);
    }
    if (!captured) throw new Error('the queue_entries query was not seen');
    const { sql, bindings } = captured as { sql: string; bindings: readonly Knex.Value[] };
    const { rows } = await knex.raw<{ rows: Array<{ 'QUERY PLAN': string }> }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${sql.replace(/\$\d+/g, '?')}`,
      bindings,
    );
    const lines = rows.map((r) => r['QUERY PLAN']);
    const exec = lines.find((l) => l.startsWith('Execution Time'));
    return {
      ms: exec ? Number(/([\d.]+) ms/.exec(exec)?.[1]) : NaN,
      lines: lines.filter((l) => /->|^Limit|Execution|Planning Time/.test(l)).slice(0, 14),
    };
  };
  const { withRoom } = await repo.listEventsWithRoom();
  const page = await explainOf(() =>
    repo.listWaitingEntries({ eventIds: withRoom.map((e) => e.id), anyEventAllowed: true, limit: 64 }),
  );
  const ended = await explainOf(() => repo.listWaitingEntriesOfEndedEvents(200));
  const plan = [
    'first page of waiting entries:',
    ...page.lines,
    `stragglers of ended events (${ended.ms} ms):`,
    ...ended.lines,
  ]
    .map((l) => `    ${l}`)
    .join('\n');
  return { executionMs: page.ms, plan };
}

async function seedEvents(knex: Knex, events: number): Promise<void> {
  await knex.raw(
    `INSERT INTO teams (id, name) SELECT gen_random_uuid(), 'Scale team ' || g FROM generate_series(1, ?) g`,
    [Math.max(1, Math.ceil(events / 10))],
  );
  await knex.raw(
    `INSERT INTO live_events (team_id, slug, company_name, visibility, status, interview_slots, started_at)
     SELECT (SELECT id FROM teams ORDER BY id OFFSET (g % (SELECT count(*) FROM teams)) LIMIT 1), 'scale-' || g, 'Company ' || g, 'open_invite', 'live', 3, now()
       FROM generate_series(1, ?) g`,
    [events],
  );
  await knex.raw(
    `INSERT INTO jobs (team_id, live_event_id, title, essential_skills, bonus_skills, experience_min, location, remote_preference)
     SELECT e.team_id, e.id, 'Job ' || j,
       ARRAY[(?::text[])[1 + floor(power(random(), 2) * 200)::int], (?::text[])[1 + floor(random() * 200)::int]],
       ARRAY[(?::text[])[1 + floor(random() * 200)::int]],
       floor(random() * 8)::int, (?::text[])[1 + floor(random() * 10)::int], (ARRAY['remote','hybrid','onsite'])[1 + floor(random() * 3)::int]
       FROM live_events e CROSS JOIN generate_series(1, 100) j`,
    [VOCABULARY, VOCABULARY, VOCABULARY, CITIES],
  );
}

async function seedWaiting(knex: Knex, w: number, events: number): Promise<void> {
  await knex.raw('TRUNCATE match_offers, queue_entries CASCADE');
  await knex('profiles').del();
  await knex('users').where({ role: 'seeker' }).del();
  await knex.raw(
    `INSERT INTO users (email, display_name, role) SELECT 'scale-' || g || '@bench.local', ` +
      `'Seeker ' || g, 'seeker' FROM generate_series(1, ?) g`,
    [w],
  );
  await knex.raw(
    `INSERT INTO profiles (user_id, full_name, skills, experience_years, location, remote_preference)
     SELECT u.id, u.display_name, ARRAY[(?::text[])[1 + floor(power(random(), 2) * 200)::int], (?::text[])[1 + floor(power(random(), 2) * 200)::int], (?::text[])[1 + floor(random() * 200)::int]],
            floor(random() * 12)::int, (?::text[])[1 + floor(random() * 10)::int], (ARRAY['onsite','hybrid','fully_remote'])[1 + floor(random() * 3)::int]
       FROM users u WHERE u.role = 'seeker'`,
    [VOCABULARY, VOCABULARY, VOCABULARY, CITIES],
  );
  await knex.raw(
    `INSERT INTO queue_entries (id, user_id, status, live_event_id, live_event_slug, entered_at)
     SELECT gen_random_uuid(), u.id, 'waiting', e.id, e.slug, now() - (u.rn || ' seconds')::interval
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM users WHERE role = 'seeker') u
       LEFT JOIN LATERAL (SELECT id, slug FROM live_events WHERE u.rn % 2 = 1 ORDER BY id OFFSET (u.rn % ?) LIMIT 1) e ON true`,
    [events],
  );
  await knex.raw('ANALYZE');
}

/** Part 2: slot frees → next match, on an in-process worker of the dev server (bench/support/slot-to-offer.ts). */
async function slotToOffer(infra: { adminUrl: string; temporalAddress: string }): Promise<SlotResult> {
  await ensureDatabase(infra.adminUrl, 'bench_slot');
  const dbUrl = dbUrlFor(infra.adminUrl, 'bench_slot');
  const config = slotConfig(dbUrl, infra.temporalAddress);
  const knex = createKnex(dbUrl, config.DATABASE_POOL_MAX);
  await migrateLatest(knex);
  const connection = await Connection.connect({ address: infra.temporalAddress });
  const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const worker = await startWorker({ config, knex, address: infra.temporalAddress, shutdownGraceTime: '2 seconds' });
  const app = await buildApp({ config, knex, temporal, logger: false });
  try {
    return await measureSlotToOffer({ config, knex, temporal, app }, { samples: SAMPLES, log });
  } finally {
    await app.close();
    await worker.shutdown();
    await connection.close();
    await knex.destroy();
  }
}

function slotConfig(dbUrl: string, temporalAddress: string): Config {
  return loadConfig(
    {},
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: dbUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_TASK_QUEUE: 'bench-slot',
      PUBLIC_BASE_URL: 'http://jobfair.bench',
      APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
      DATABASE_POOL_MAX: '20',
      QUEUE_ENTRY_TTL_MS: String(6 * 60 * 60 * 1000),
      RATE_LIMIT_WRITE_PER_MIN: '100000',
      RATE_LIMIT_READ_PER_MIN: '100000',
      ...SLOT_MATCH_ENV,
    },
  );
}

/** Both parts on one throw-away stack (`--no-rounds` / `--no-slot` leave one out). */
async function measureParts(base: Config): Promise<{ roundRows: RoundRow[]; slot: SlotResult }> {
  let roundRows: RoundRow[] = [];
  let slot: SlotResult = { p50: NaN, p95: NaN, samples: 0, notes: [] };
  const infra = await startThrowawayInfrastructure({
    config: base,
    log: () => undefined,
    prefix: 'jobfair-bench-scale',
  });
  try {
    const i = { adminUrl: infra.adminDatabaseUrl ?? infra.databaseUrl, temporalAddress: infra.temporalAddress };
    if (!has('--no-rounds')) roundRows = await rounds(i, base);
    if (!has('--no-slot')) slot = await slotToOffer(i);
  } finally {
    await infra.stop();
  }
  return { roundRows, slot };
}

function printTable(roundRows: RoundRow[], slot: SlotResult, notes: string[]): void {
  console.log(
    `\nOne matching round (median of ${REPEAT} after ${WARMUP} warm-up rounds; every event has ` +
      `room; load average ${load()}, ${os.cpus().length} CPUs)`,
  );
  console.log('| jobs | waiting | considered | offered | plan ms | hold ms | offer ms | round ms | ceiling ms |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of roundRows)
    console.log(
      `| ${r.jobs.toLocaleString('en')} | ${r.waiting.toLocaleString('en')} | ${r.considered} | ` +
        `${r.offered} | ${r.planMs} | ${r.holdMs} | ${r.offerMs} | ${r.roundMs} | ${r.ceilingMs} |`,
    );
  if (slot.samples)
    console.log(`\nSlot frees → next match: p50 ${slot.p50} ms, p95 ${slot.p95} ms (${slot.samples} samples)`);
  for (const n of notes) console.log(`- ${n}`);
}

/** `--json`: the contract bench/suite.ts reads. */
function writeJson(file: string, roundRows: RoundRow[], slot: SlotResult, notes: string[]): void {
  const doc = {
    slotToOfferMs: { p50: slot.p50, p95: slot.p95, samples: slot.samples },
    rounds: roundRows.map((r) => ({
      waiting: r.waiting,
      jobs: r.jobs,
      roundMs: r.roundMs,
      ceilingMs: r.ceilingMs,
      ceilingNote: r.ceilingNote,
    })),
    notes,
  };
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
}

async function main() {
  const t0 = Date.now();
  const base = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    TEMPORAL_ADDRESS: process.env.BENCH_TEMPORAL_ADDRESS ?? '',
    DATABASE_URL: '',
  });
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const notes: string[] = [`load average at start ${load()} (${os.cpus().length} CPUs)`];
  const { roundRows, slot } = await measureParts(base);
  notes.push(...slot.notes);
  for (const r of roundRows)
    notes.push(
      `round at ${r.jobs} jobs / ${r.waiting} waiting: plan ${r.planMs} ms (candidate search ` +
        `${r.searchMs} ms), hold ${r.holdMs} ms, offer ${r.offerMs} ms; ${r.considered} entries ` +
        `considered, ${r.offered} offers; CPU of the round's process ${r.cpuMs} ms`,
    );
  notes.push(`load average at end ${load()}; ${((Date.now() - t0) / 1000).toFixed(0)} s in all`);
  printTable(roundRows, slot, notes);
  if (JSON_OUT) writeJson(JSON_OUT, roundRows, slot, notes);
  process.exit(0);
}

runMain(main);
