/**
 * The fair-day simulator: a whole event day on the real stack, scored against the offline optimum.
 *
 *   npm run bench -- fair-day [--seed 26] [--recruiters 4] [--day-minutes 180] [--ms-per-minute 1000]
 *                             [--demands 3,0.5] [--planners greedy,assignment,greedy/accept8]
 *                             [--trace <prefix>] [--dump <prefix>]
 *
 * Per demand (seekers per interview the day allows: 3 = seekers outnumber slots 3:1, 0.5 = slots
 * outnumber seekers 2:1) one seeded day (bench/support/fair-day-model.ts): recruiters with their
 * capacity (the event's interview slots), interview length and jobs; seekers with skills typed as
 * people type them (labels, aliases, lower case; Zipf-distributed over skill-vocabulary.json)
 * arriving as a Poisson process with a morning peak. The day runs once per planner
 * (MATCHMAKING_PLANNER) in its own database and task queue, side by side on the same clock (so
 * each meets the same machine load), on one PostgreSQL and Temporal dev server: the real worker (matchmaker, queue-entry and match workflows), the real app (seekers join
 * with POST /api/v1/queue/join), and simulated humans who answer each match through the matches
 * service the web pages call: accept or decline (with a reason) after a reaction time, ignore it
 * (it expires), not come to the room (a no-show), end the interview after the recruiter's length.
 * Every decision is a function of the seed and the (seeker, job) pair, so every planner meets the
 * same people. Time is compressed by configuration only: one simulated minute is `--ms-per-minute`
 * ms, and every duration (entry TTL, acceptance window, no-show grace, floor brackets, interview
 * length, the matchmaker's window, floored at 100 ms) is set in those units.
 *
 * The offline optimum knows every arrival and decision in hindsight and is solved by HiGHS (a
 * b-matching, fair-day-model.ts). Prints one table per demand and writes it to
 * bench/results/fair-day-<time>.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, Runtime, bundleWorkflowCode } from '@temporalio/worker';
import type { Knex } from 'knex';
import { loadConfig, type Config } from '#lib/config';
import { startThrowawayInfrastructure } from '#dev/stack';
import { buildApp } from '#apps/api/src/app';
import { startWorker, WORKFLOWS_PATH } from '#apps/worker/src/worker';
import type { ProfileRemotePreference } from '#db/accounts/profiles-repository';
import { matchmakerStatsQuery, matchmakerWorkflowId } from '#workflows/matchmaking/contract';
import { migratedDatabase } from './support/infra';
import { pool } from './support/pool';
import { runMain, Teardown } from './support/runner';
import { seedEvent, seedRecruiterTeam } from './support/seed';
import { percentile } from './support/stats';
import {
  decide,
  eligibleJobs,
  generateDay,
  openEligibleJobs,
  slotTime,
  slotAccounting,
  offlineOptimum,
  onlineReference,
  expectedOptimum,
  type Day,
  type DayShape,
  type Optimum,
  type SlotAccount,
  type OnlineReference,
  type SlotMatch,
  type EntryTimes,
  SLOT_BUCKETS,
} from './support/fair-day-model';
import { simulateDay, type SimResult } from './support/fair-day-sim';

type Planner = Config['MATCHMAKING_PLANNER'];
const PLANNERS: readonly Planner[] = ['greedy', 'assignment'];

/**
 * One day's run: a planner, and optionally an event setting changed for it. `greedy` is today's
 * default; `greedy/accept5` is greedy with a 5-minute acceptance window instead of the day's 15
 * (a setting, MATCH_ACCEPT_WINDOW_MS, not a planner).
 */
interface Variant {
  label: string;
  planner: Planner;
  acceptWindowMin: number;
}

function parseVariant(label: string): Variant {
  const [planner, ...mods] = label.split('/');
  if (!PLANNERS.includes(planner as Planner))
    throw new Error(`unknown planner ${planner}; use ${PLANNERS.join(', ')} (optionally /accept<minutes>)`);
  const v: Variant = { label, planner: planner as Planner, acceptWindowMin: ACCEPT_WINDOW_MIN };
  for (const mod of mods) {
    const accept = /^accept(\d+(?:\.\d+)?)$/.exec(mod);
    if (!accept || !(Number(accept[1]) > 0)) throw new Error(`unknown run modifier /${mod}; use /accept<minutes>`);
    v.acceptWindowMin = Number(accept[1]);
  }
  return v;
}

interface Options {
  seed: number;
  recruiters: number;
  dayMinutes: number;
  msPerMinute: number;
  demands: number[];
  planners: Variant[];
  /** Diagnosis: every simulated minute, each event's room and why each waiting entry has no offer (JSON lines). */
  trace: string | null;
  /** Diagnosis: each run's record (matches, offers, entries, in simulated minutes) as JSON, to re-read offline. */
  dump: string | null;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    seed: 26,
    recruiters: 4,
    dayMinutes: 180,
    msPerMinute: 1000,
    demands: [3, 0.5],
    planners: ['greedy', 'assignment'].map(parseVariant),
    trace: null,
    dump: null,
  };
  const ints: Record<string, 'seed' | 'recruiters' | 'dayMinutes' | 'msPerMinute'> = {
    '--seed': 'seed',
    '--recruiters': 'recruiters',
    '--day-minutes': 'dayMinutes',
    '--ms-per-minute': 'msPerMinute',
  };
  for (let i = 0; i < argv.length; i++) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (k === 'fair-day') continue;
    if (v === undefined) throw new Error(`${k} needs a value`);
    i++;
    if (Object.hasOwn(ints, k)) {
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`${k} needs a positive integer`);
      o[ints[k]] = n;
    } else if (k === '--demands') {
      o.demands = v.split(',').map(Number);
      if (o.demands.some((d) => !(d > 0))) throw new Error('--demands needs positive numbers, e.g. 3,0.5');
    } else if (k === '--trace') {
      o.trace = v;
    } else if (k === '--dump') {
      o.dump = v;
    } else if (k === '--planners') {
      o.planners = v.split(',').map(parseVariant);
    } else {
      throw new Error(
        `unknown argument ${k}; use ${[...Object.keys(ints), '--demands', '--planners', '--trace', '--dump'].join(', ')}`,
      );
    }
  }
  return o;
}

const log = (l: string) => console.log(`[fair-day] ${l}`);

/** The floor and brackets of the day (the defaults of MATCH_MIN_SCORE and MATCH_FLOOR_BRACKETS, in simulated minutes). */
function shapeOf(o: Options, demand: number): DayShape {
  return {
    seed: o.seed,
    dayMinutes: o.dayMinutes,
    recruiters: o.recruiters,
    demand,
    ttlMinutes: 120,
    floor: { minScore: 50, requireEssential: true },
    brackets: [
      { afterMs: 0, relax: 0, essential: true },
      { afterMs: 5 * 60_000, relax: 15, essential: true },
      { afterMs: 15 * 60_000, relax: 30, essential: false },
    ],
  };
}

const ACCEPT_WINDOW_MIN = 15;
const NO_SHOW_GRACE_MIN = 10;
/** The room's own limit; the simulated recruiter ends each interview after their length, before it. */
const INTERVIEW_LIMIT_MIN = 60;

function dayConfig(dbUrl: string, address: string, taskQueue: string, o: Options, shape: DayShape, run: Variant) {
  const min = (m: number) => String(Math.max(1, Math.round(m * o.msPerMinute)));
  const brackets = shape.brackets
    .map((b) => `${Math.round((b.afterMs / 60_000) * o.msPerMinute)}:${b.relax}:${b.essential ? 1 : 0}`)
    .join(',');
  return loadConfig(
    {},
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: dbUrl,
      TEMPORAL_ADDRESS: address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      PUBLIC_BASE_URL: 'http://jobfair.bench',
      APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
      DATABASE_POOL_MAX: '20',
      RATE_LIMIT_WRITE_PER_MIN: '1000000',
      RATE_LIMIT_READ_PER_MIN: '1000000',
      MATCHMAKING_PLANNER: run.planner,
      // Two seconds of a real day, floored at 100 ms (faster rounds would only measure the CPU).
      MATCHMAKER_INTERVAL_MS: String(Math.max(100, Math.round((2000 / 60_000) * o.msPerMinute))),
      QUEUE_ENTRY_TTL_MS: min(shape.ttlMinutes),
      MATCH_ACCEPT_WINDOW_MS: min(run.acceptWindowMin),
      MATCH_EXPIRY_REMINDER_MS: '0',
      MATCH_NO_SHOW_GRACE_MS: min(NO_SHOW_GRACE_MIN),
      INTERVIEW_LENGTH_MS: min(INTERVIEW_LIMIT_MIN),
      INTERVIEW_REPORT_WINDOW_MS: '0',
      MATCH_MIN_SCORE: String(shape.floor.minScore),
      MATCH_FLOOR_BRACKETS: brackets,
    },
  );
}

/** What one run of the day recorded, in simulated minutes from the opening. */
interface RunRecord {
  planner: string;
  joins: Map<number, number>;
  matches: MatchRow[];
  entries: Array<{ seeker: number; status: string; end_reason: string | null; joined: number; ended: number | null }>;
  humanErrors: number;
  races: number;
  lateJoins: number[];
  /** How long each human step (accept, decline, room, clock) took to answer, in simulated minutes. */
  stepLatency: number[];
  dayEndMs: number;
  t0: number;
}

interface MatchRow {
  id: string;
  seeker: number;
  job: number;
  recruiter: number;
  status: string;
  match_score: number;
  score_breakdown: {
    essential_skills: { matched: string[] };
    floor?: { bracket: number; min_score: number; essential_required: boolean };
  };
  decline_reason_code: string | null;
  declined_by_role: string | null;
  no_show_missing: string | null;
  created: number;
  interviewStarted: number | null;
  /** When the match left `matched` (accepted, declined, expired) and ended after acceptance (completed, no-show). */
  accepted: number | null;
  declined: number | null;
  expired: number | null;
  completed: number | null;
  noShow: number | null;
  /** The matchmaker's offer behind the match: when it took the slot, and when it gave it back (null: still held). */
  offered: number;
  released: number | null;
}

async function runDay(
  infra: { adminUrl: string; address: string },
  day: Day,
  o: Options,
  variant: Variant,
  run: number,
  workflowBundle: { code: string },
): Promise<RunRecord> {
  const teardown = new Teardown();
  const db = `fairday_${run}`;
  const taskQueue = `fair-day-${run}-${Date.now()}`;
  const { url, knex } = await migratedDatabase(infra.adminUrl, db, 20);
  teardown.add(() => knex.destroy());
  const config = dayConfig(url, infra.address, taskQueue, o, day.shape, variant);
  const connection = await Connection.connect({ address: infra.address });
  teardown.add(() => connection.close());
  const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const worker = await startWorker({
    config,
    knex,
    address: infra.address,
    workflowBundle,
    shutdownGraceTime: '1 second',
  });
  teardown.add(() => worker.shutdown());
  const app = await buildApp({ config, knex, temporal, logger: false });
  teardown.add(() => app.close());
  try {
    const people = await seedPeople(knex, app, day);
    await startLine();
    return await simulate(knex, app, day, o, variant.label, people, () =>
      temporal.workflow
        .getHandle(matchmakerWorkflowId(taskQueue))
        .query(matchmakerStatsQuery)
        .catch(() => null),
    );
  } finally {
    await teardown.run(() => undefined);
  }
}

type App = Awaited<ReturnType<typeof buildApp>>;

/** The days run side by side open together: each waits here until every run of its demand is seeded. */
let barrier: { waiting: number; expected: number; open: () => void; opened: Promise<void> } | undefined;
function startLine(): Promise<void> {
  const b = barrier!;
  if (++b.waiting === b.expected) b.open();
  return b.opened;
}
function newBarrier(expected: number) {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  barrier = { waiting: 0, expected, open, opened };
}

interface People {
  seekerUser: string[];
  seekerToken: string[];
  seekerOf: Map<string, number>;
  recruiterUser: string[];
  eventSlug: string[];
  jobId: string[];
  jobOf: Map<string, number>;
}

/** One team, recruiter and live open-invite event per recruiter; its jobs as typed; seekers with profiles and tokens. */
async function seedPeople(knex: Knex, app: App, day: Day): Promise<People> {
  const accounts = app.services.deps.repos.accounts;
  const { profiles, tokens } = app.services.accounts;
  const p: People = {
    seekerUser: [],
    seekerToken: [],
    seekerOf: new Map(),
    recruiterUser: [],
    eventSlug: [],
    jobId: [],
    jobOf: new Map(),
  };
  for (const rec of day.recruiters) {
    const { teamId, recruiterId } = await seedRecruiterTeam(accounts, `Fair team ${rec.idx}`, {
      email: `recruiter-${rec.idx}@fair.local`,
      displayName: `Recruiter ${rec.idx}`,
    });
    const event = await seedEvent(knex, teamId, {
      slug: `fair-${rec.idx}`,
      company: `Company ${rec.idx}`,
      visibility: 'open_invite',
      status: 'live',
      slots: rec.capacity,
      startedNow: true,
    });
    p.recruiterUser[rec.idx] = recruiterId;
    p.eventSlug[rec.idx] = event.slug;
    for (const j of rec.jobs) {
      const [row] = await knex('jobs')
        .insert({
          team_id: teamId,
          live_event_id: event.id,
          title: j.title,
          essential_skills: j.job.essentialSkills,
          bonus_skills: j.job.bonusSkills,
          experience_min: j.job.experienceMin,
          salary_min: j.job.salaryMin,
          salary_max: j.job.salaryMax,
          location: j.job.location,
          remote_preference: j.job.remotePreference,
        })
        .returning('id');
      p.jobId[j.idx] = row.id;
      p.jobOf.set(row.id, j.idx);
    }
  }
  await pool(day.seekers, 10, async (s) => {
    const u = await accounts.insertUser({
      email: `seeker-${s.idx}@fair.local`,
      display_name: `Seeker ${s.idx}`,
      role: 'seeker',
    });
    await profiles.completeOnboarding(u.id, {
      full_name: `Seeker ${s.idx}`,
      title: 'Engineer',
      skills: s.seeker.skills,
      experience_years: s.seeker.experienceYears,
      location: s.seeker.location,
      remote_preference: s.seeker.remotePreference as ProfileRemotePreference | null,
      salary_expectation: s.seeker.salaryExpectationMin ?? null,
    });
    const t = await tokens.mint(u.id, { name: 'fair day', scopes: ['queue:read', 'queue:write', 'matches:read'] });
    p.seekerUser[s.idx] = u.id;
    p.seekerToken[s.idx] = t.token;
    p.seekerOf.set(u.id, s.idx);
  });
  return p;
}

const sleepUntil = (t: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, t - Date.now())));

/** The day's clock: its start, its closing time, and how many ms a simulated minute lasts. */
interface DayClock {
  t0: number;
  dayEndMs: number;
  m: number;
}

/** What the simulated humans did, counted as the day runs; `closed` once the day is over. */
type Tally = Pick<RunRecord, 'joins' | 'humanErrors' | 'races' | 'lateJoins' | 'stepLatency'> & { closed: boolean };

type NewMatch = { id: string; seeker_user_id: string; job_id: string; created_at: Date };

/** Seekers join at their arrival times (until closing time), through the API as their agents would. */
function joinAtArrival(app: App, day: Day, p: People, clock: DayClock, tally: Tally): Promise<void> {
  const { t0, dayEndMs, m } = clock;
  return pool(day.seekers, 50, async (s) => {
    await sleepUntil(t0 + s.arriveMinute * m);
    if (Date.now() >= dayEndMs) return;
    tally.joins.set(s.idx, (Date.now() - t0) / m);
    // How late the simulator's clock runs (a loaded machine delays timers): a figure beside the table's.
    tally.lateJoins.push((Date.now() - (t0 + s.arriveMinute * m)) / m);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/queue/join',
      headers: { authorization: `Bearer ${p.seekerToken[s.idx]}` },
      payload: s.recruiter === null ? {} : { live_event_slug: p.eventSlug[s.recruiter] },
    });
    if (res.statusCode !== 200) {
      tally.humanErrors++;
      console.error(`[fair-day] join failed ${res.statusCode}: ${res.body}`);
    }
  });
}

/** A human step, timed; a 409 is one of the day's races, anything else an error. Nothing once the day is over. */
function humanStep(tally: Tally, m: number) {
  return async (fn: () => Promise<unknown>) => {
    if (tally.closed) return;
    const asked = Date.now();
    try {
      await fn();
      tally.stepLatency.push((Date.now() - asked) / m);
    } catch (err) {
      // 409s are the day's races (a match expired while a human thought); anything else is an error.
      if ((err as { status?: number }).status === 409) tally.races++;
      else {
        tally.humanErrors++;
        if (tally.humanErrors <= 3) console.error('[fair-day] human step failed:', (err as Error).message);
      }
    }
  };
}

/** The two humans of a new match answer it as the seed decided: accept or decline, come to the room, interview. */
function matchAnswerer(app: App, day: Day, p: People, m: number, tally: Tally) {
  const matches = app.services.matches;
  const soft = humanStep(tally, m);
  return async (row: NewMatch) => {
    const s = p.seekerOf.get(row.seeker_user_id)!;
    const j = p.jobOf.get(row.job_id)!;
    const rec = day.jobs[j].recruiter;
    const d = decide(day, s, j);
    const seekerUser = p.seekerUser[s];
    const recruiterUser = p.recruiterUser[rec];
    const created = row.created_at.getTime();
    const steps = [
      { who: 'seeker' as const, at: created + d.seekerAfter * m, act: d.seeker },
      { who: 'recruiter' as const, at: created + d.recruiterAfter * m, act: d.recruiter },
    ].sort((a, b) => a.at - b.at);
    for (const step of steps) {
      await sleepUntil(step.at);
      const userId = step.who === 'seeker' ? seekerUser : recruiterUser;
      if (step.act === 'ignore') continue;
      if (step.act === 'decline') {
        await soft(() =>
          matches.decline({
            userId,
            matchId: row.id,
            reason: `simulated: ${d.declineCode}`,
            reasonCode: d.declineCode,
          }),
        );
        return;
      }
      await soft(() => matches.accept({ userId, matchId: row.id }));
    }
    if (d.seeker !== 'accept' || d.recruiter !== 'accept') return;
    // Both accepted: they come to the room half a minute later (the one who does not come, never).
    await sleepUntil(Date.now() + 0.5 * m);
    if (d.noShow !== 'seeker') await soft(() => matches.enterRoom({ userId: seekerUser, matchId: row.id }));
    if (d.noShow !== 'recruiter') await soft(() => matches.enterRoom({ userId: recruiterUser, matchId: row.id }));
    if (d.noShow) return;
    // The interview runs its length from the moment both are in the room, not from when the
    // clock call answered (on a loaded machine that answer alone can take a simulated minute).
    const inRoom = Date.now();
    await soft(() => matches.startInterviewClock({ userId: recruiterUser, matchId: row.id }));
    await sleepUntil(inRoom + day.recruiters[rec].interviewMinutes * m);
    await soft(() => matches.completeInterview({ userId: recruiterUser, matchId: row.id }));
  };
}

/** Until closing time: each new match handed to its humans, a progress line every 15 s. */
async function watchMatches(
  knex: Knex,
  clock: DayClock,
  label: { planner: string; dayMinutes: number },
  answer: (row: NewMatch) => Promise<void>,
): Promise<Array<Promise<void>>> {
  const { t0, dayEndMs, m } = clock;
  const handled = new Set<string>();
  const humans: Array<Promise<void>> = [];
  let lastLog = Date.now();
  while (Date.now() < dayEndMs) {
    const fresh = await knex('matches')
      .whereNotIn('id', [...handled])
      .select('id', 'seeker_user_id', 'job_id', 'created_at');
    for (const row of fresh) {
      handled.add(row.id);
      humans.push(answer(row));
    }
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      log(
        `  ${label.planner}: minute ${Math.round((Date.now() - t0) / m)} of ${label.dayMinutes}, ${handled.size} matches`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return humans;
}

/** The record at closing time, read back from the database: the matches, the offers, the queue entries. */
async function readRecord(knex: Knex) {
  const rows = await knex('matches').select(
    'id',
    'seeker_user_id',
    'job_id',
    'status',
    'match_score',
    'score_breakdown',
    'decline_reason_code',
    'declined_by_role',
    'no_show_missing',
    'created_at',
    'interview_started_at',
    'accepted_at',
    'declined_at',
    'expired_at',
    'completed_at',
    'no_show_at',
  );
  const entries = await knex('queue_entries').select('user_id', 'status', 'end_reason', 'entered_at', 'ended_at');
  const offers = new Map<string, { created_at: Date; updated_at: Date; status: string }>(
    (await knex('match_offers').select('id', 'created_at', 'updated_at', 'status')).map(
      (o: { id: string; created_at: Date; updated_at: Date; status: string }) => [o.id, o],
    ),
  );
  return { rows, entries, offers };
}

/** The record in simulated minutes since the day's start, by seeker, job and recruiter index. */
function toRecord(
  day: Day,
  p: People,
  t0: number,
  m: number,
  { rows, entries, offers }: Awaited<ReturnType<typeof readRecord>>,
): Pick<RunRecord, 'matches' | 'entries'> {
  const toMin = (d: Date | null) => (d ? (d.getTime() - t0) / m : null);
  return {
    matches: rows.map((r) => ({
      id: r.id,
      seeker: p.seekerOf.get(r.seeker_user_id)!,
      job: p.jobOf.get(r.job_id)!,
      recruiter: day.jobs[p.jobOf.get(r.job_id)!].recruiter,
      status: r.status,
      match_score: Number(r.match_score),
      score_breakdown: r.score_breakdown,
      decline_reason_code: r.decline_reason_code,
      declined_by_role: r.declined_by_role,
      no_show_missing: r.no_show_missing,
      created: toMin(r.created_at)!,
      interviewStarted: toMin(r.interview_started_at),
      accepted: toMin(r.accepted_at),
      declined: toMin(r.declined_at),
      expired: toMin(r.expired_at),
      completed: toMin(r.completed_at),
      noShow: toMin(r.no_show_at),
      offered: toMin(offers.get(r.id)?.created_at ?? r.created_at)!,
      released: offers.get(r.id)?.status === 'closed' ? toMin(offers.get(r.id)!.updated_at) : null,
    })),
    entries: entries.map(
      (e: { user_id: string; status: string; end_reason: string | null; entered_at: Date; ended_at: Date | null }) => ({
        seeker: p.seekerOf.get(e.user_id)!,
        status: e.status,
        end_reason: e.end_reason,
        joined: toMin(e.entered_at)!,
        ended: toMin(e.ended_at),
      }),
    ),
  };
}

/**
 * The day: seekers join at their arrival times; every new match is answered by its two humans as
 * the seed decided. At closing time the record is read back from the database.
 */
async function simulate(
  knex: Knex,
  app: App,
  day: Day,
  o: Options,
  planner: string,
  p: People,
  matchmakerStats: () => Promise<unknown>,
): Promise<RunRecord> {
  const m = o.msPerMinute;
  const t0 = Date.now() + 500;
  const clock: DayClock = { t0, dayEndMs: t0 + day.shape.dayMinutes * m, m };
  const tally: Tally = { joins: new Map(), humanErrors: 0, races: 0, lateJoins: [], stepLatency: [], closed: false };
  const joining = joinAtArrival(app, day, p, clock, tally);
  const tracing = o.trace
    ? trace(knex, app, p, `${o.trace}-${planner.replace('/', '-')}-${day.shape.demand}.jsonl`, clock, matchmakerStats)
    : null;
  const answer = matchAnswerer(app, day, p, m, tally);
  const humans = await watchMatches(knex, clock, { planner, dayMinutes: day.shape.dayMinutes }, answer);
  await joining;
  // At closing time the humans stop acting (the run's database and worker are about to close).
  tally.closed = true;
  const record = await readRecord(knex);
  await tracing;
  // Humans still thinking wake up to `closed` and do nothing.
  void Promise.allSettled(humans);
  const { closed: _closed, ...counts } = tally;
  return { planner, ...counts, t0, dayEndMs: clock.dayEndMs, ...toRecord(day, p, t0, m, record) };
}

/**
 * `--trace <prefix>`: every simulated minute, per event its room as the round counts it (free,
 * slots free, offers held by match status) and, per waiting entry, the wait explanation's blocker
 * (the code `ops why` and the queue status answer with): where the idle slot time goes.
 */
async function trace(
  knex: Knex,
  app: App,
  p: People,
  file: string,
  { t0, dayEndMs, m }: { t0: number; dayEndMs: number; m: number },
  matchmakerStats: () => Promise<unknown>,
): Promise<void> {
  const out = fs.createWriteStream(file);
  const repo = app.services.deps.repos.matchmaking;
  const eventIdx = new Map<string, number>();
  for (const row of await knex('live_events').select('id', 'slug')) eventIdx.set(row.id, p.eventSlug.indexOf(row.slug));
  for (let k = 1; t0 + k * m < dayEndMs; k++) {
    await sleepUntil(t0 + k * m);
    // Samples slower than a minute follow each other at once; none after closing time.
    if (Date.now() >= dayEndMs) break;
    const minute = (Date.now() - t0) / m;
    const { rooms } = await repo.listEventsWithRoom();
    const held = await knex('match_offers as o')
      .leftJoin('matches as mt', 'mt.id', 'o.id')
      .whereIn('o.status', ['offering', 'started'])
      .select('o.live_event_id', 'o.status as offer', 'mt.status as match', 'o.created_at', 'mt.interview_started_at');
    const events = rooms.map((r) => ({
      rec: eventIdx.get(r.id),
      free: r.free,
      slotsFree: r.slots_free,
      held: held
        .filter((h) => h.live_event_id === r.id)
        .map((h) => `${h.offer}/${h.match ?? '-'}`)
        .sort(),
    }));
    const waiting = await knex('queue_entries').where({ status: 'waiting' }).select('*');
    const entries = [];
    for (const e of waiting) {
      const { explanation: x } = await app.services.matchmaking.wait.explain(e);
      entries.push({
        s: p.seekerOf.get(e.user_id),
        waited: (Date.now() - new Date(e.entered_at).getTime()) / m,
        scope: e.live_event_id ? eventIdx.get(e.live_event_id) : null,
        blocker: x.blocker,
        passing: x.passingJobIds.map((id: string) => p.jobOf.get(id)),
        excluded: x.excludedJobs,
        eligible: x.eligibleJobs,
        bracket: x.bracket,
      });
    }
    const matchmaker = await matchmakerStats();
    out.write(`${JSON.stringify({ minute: Math.round(minute * 10) / 10, matchmaker, events, entries })}\n`);
  }
  out.end();
}

// ---- the table ----

const f1 = (n: number) => (Number.isFinite(n) ? (Math.abs(n) < 0.05 ? 0 : n).toFixed(1) : '—');
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '—');
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(0)} %` : '—');
const pq = (xs: number[]) => (xs.length ? `${f1(percentile(xs, 50))} / ${f1(percentile(xs, 95))}` : '—');
const spread = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const sd = Math.sqrt(s.reduce((a, b) => a + (b - mean) ** 2, 0) / s.length);
  return `${s[0]} / ${s[Math.floor(s.length / 2)]} / ${s[s.length - 1]} (sd ${f1(sd)})`;
};

/**
 * How soon a slot freed by a decline or an expiry is offered again: for each such match before
 * closing, the next match created at the same event at or after it ended. A gap of about one
 * round (MATCHMAKER_INTERVAL_MS: 100 ms, 0.05 simulated minutes at 2000 ms a minute) means the
 * decline's `slot_freed` kick reached the matchmaker; a gap of the idle poll (10 rounds, at
 * least 1 s: 0.5 minutes at 2000 ms) means it did not; longer, nobody waiting passed the floor
 * there. `withEntry`: the gaps of at most ten minutes, a proxy for someone waiting.
 */
export function nextOfferAfterFreed(
  matches: ReadonlyArray<Pick<MatchRow, 'recruiter' | 'created' | 'declined' | 'expired'>>,
  dayMinutes: number,
): { freed: number; latencies: number[]; withEntry: number[] } {
  const latencies: number[] = [];
  const withEntry: number[] = [];
  let freed = 0;
  for (const x of matches) {
    const end = x.declined ?? x.expired;
    if (end === null || end >= dayMinutes) continue;
    freed++;
    const next = matches
      .filter((y) => y.recruiter === x.recruiter && y.created >= end - 1e-9)
      .reduce((a, y) => Math.min(a, y.created), Infinity);
    if (!Number.isFinite(next)) continue;
    latencies.push(next - end);
    if (next - end <= 10) withEntry.push(next - end);
  }
  return { freed, latencies, withEntry };
}

export interface Column {
  name: string;
  cells: Record<string, string>;
}

const ROWS = [
  'interviews held',
  'interviews per recruiter-hour',
  'interviews ÷ optimum',
  'total match score',
  'mean match score',
  'total score ÷ optimum',
  'interviews ÷ online reference⁴',
  'total score ÷ online reference⁴',
  'interviews / total score ÷ the online share of this optimum⁴',
  'first offer p50 / p95 (min)¹',
  'interview p50 / p95 (min)¹',
  'eligible seekers offered / interviewed¹',
  'expired with an eligible job never offered (with any eligible job)¹',
  'offers: accepted / declined / expired / no-show',
  'declines by reason',
  'offers by floor bracket: n (mean score)',
  'offers below the floor or without an essential skill',
  'interviews per recruiter min / median / max',
  'slot time: interviewing / deciding / to the room / free²',
  'free slot time per recruiter (min)²',
  'decline or expiry → next offer at that event p50 / p95 (min)³',
  'human steps refused (409: a race) / failed',
  'joins late p50 / p95 (min, machine load)',
  'human step answered in p50 / p95 (min, machine load)',
] as const;

/**
 * The online reference of a day (fair-day-model.ts): the smaller of two upper bounds on what a
 * planner that offers before learning the answers can expect, the LP (onlineReference) and the
 * hindsight optimum's own expectation over the answers (expectedOptimum). Both are expectations.
 */
export interface Reference {
  interviews: number;
  totalScore: number;
  lp: OnlineReference;
  expected: { interviews: number; totalScore: number };
  /** The LP with no slot time past closing (every interview ends by then): a sensitivity, not a bound. */
  lpInDay: OnlineReference;
}

async function referenceOf(day: Day): Promise<Reference> {
  const lp = await onlineReference(day);
  const expected = await expectedOptimum(day, REFERENCE_DRAWS);
  const lpInDay = await onlineReference(day, undefined, 0);
  return {
    lpInDay,
    interviews: Math.min(lp.interviews, expected.interviews),
    totalScore: Math.min(lp.totalScore, expected.totalScore),
    lp,
    expected,
  };
}

/** Answers drawn again for the hindsight optimum's expectation. */
const REFERENCE_DRAWS = 10;

function referenceColumn(day: Day, ref: Reference): Column {
  const hours = (day.recruiters.length * day.shape.dayMinutes) / 60;
  return {
    name: 'online reference (expected)',
    cells: {
      'interviews held': `${f1(ref.interviews)} (LP ${f1(ref.lp.interviews)}; optimum in expectation ${f1(ref.expected.interviews)}; LP with nothing past closing ${f1(ref.lpInDay.interviews)})`,
      'interviews per recruiter-hour': f2(ref.interviews / hours),
      'interviews ÷ optimum': `${f2(ref.interviews / ref.expected.interviews)} (of the optimum in expectation)`,
      'total match score': `${f1(ref.totalScore)} (LP ${f1(ref.lp.totalScore)}; optimum in expectation ${f1(ref.expected.totalScore)})`,
      'total score ÷ optimum': `${f2(ref.totalScore / ref.expected.totalScore)} (of the optimum in expectation)`,
      'interviews ÷ online reference⁴': '1.00',
      'total score ÷ online reference⁴': '1.00',
      'interviews / total score ÷ the online share of this optimum⁴': `share ${f2(ref.interviews / ref.expected.interviews)} / ${f2(ref.totalScore / ref.expected.totalScore)}`,
      'offers: accepted / declined / expired / no-show': `${f1(ref.lp.offers)} offers in the LP's max-score plan`,
      'slot time: interviewing / deciding / to the room / free²': `answers hold ${pct(ref.lp.holdShare, 1)} in the LP's plan`,
    },
  };
}

/** Redraws of the answers for the model's greedy day without the stack. */
const IDEAL_DRAWS = 20;

/**
 * The same day played by the greedy plan in the model, with no machine in between (fair-day-sim.ts):
 * this draw of the answers, and the mean over IDEAL_DRAWS redraws (the same redraws as the
 * optimum's expectation's first ones). What a real run holds below this draw is the stack's; what
 * this one holds below the reference is the policy's or the reference's looseness.
 */
interface Ideal {
  draw: SimResult;
  mean: { interviews: number; totalScore: number };
}

function idealOf(day: Day): Ideal {
  let interviews = 0;
  let totalScore = 0;
  for (let k = 1; k <= IDEAL_DRAWS; k++) {
    const answers: Day = { ...day, shape: { ...day.shape, seed: day.shape.seed * 1000 + k } };
    const r = simulateDay(day, { answers });
    interviews += r.interviews;
    totalScore += r.totalScore;
  }
  return {
    draw: simulateDay(day),
    mean: { interviews: interviews / IDEAL_DRAWS, totalScore: totalScore / IDEAL_DRAWS },
  };
}

function idealColumn(day: Day, opt: Optimum, ref: Reference, ideal: Ideal): Column {
  const hours = (day.recruiters.length * day.shape.dayMinutes) / 60;
  const x = ideal.draw;
  return {
    name: 'greedy without the stack (model)⁵',
    cells: {
      'interviews held': `${x.interviews} (mean of ${IDEAL_DRAWS} draws ${f1(ideal.mean.interviews)})`,
      'interviews per recruiter-hour': f2(x.interviews / hours),
      'interviews ÷ optimum': `${f2(x.interviews / opt.interviews)} (mean ÷ optimum in expectation ${f2(ideal.mean.interviews / ref.expected.interviews)})`,
      'total match score': `${f1(x.totalScore)} (mean ${f1(ideal.mean.totalScore)})`,
      'mean match score': f1(x.totalScore / Math.max(1, x.interviews)),
      'total score ÷ optimum': f2(x.totalScore / opt.totalScore),
      'interviews ÷ online reference⁴': `${f2(x.interviews / ref.interviews)} (mean ${f2(ideal.mean.interviews / ref.interviews)})`,
      'total score ÷ online reference⁴': `${f2(x.totalScore / ref.totalScore)} (mean ${f2(ideal.mean.totalScore / ref.totalScore)})`,
      'interviews / total score ÷ the online share of this optimum⁴': `${f2(x.interviews / (opt.interviews * (ref.interviews / ref.expected.interviews)))} / ${f2(x.totalScore / (opt.totalScore * (ref.totalScore / ref.expected.totalScore)))}`,
      'offers: accepted / declined / expired / no-show': `${x.offers} offers`,
      'interviews per recruiter min / median / max': spread(x.perRecruiter),
    },
  };
}

function optimumColumn(day: Day, opt: Optimum, ref: Reference): Column {
  const hours = (day.recruiters.length * day.shape.dayMinutes) / 60;
  return {
    name: 'offline optimum',
    cells: {
      'interviews held': `${opt.interviews} (max-score plan: ${opt.scoreSolution.length})`,
      'interviews per recruiter-hour': f2(opt.interviews / hours),
      'interviews ÷ optimum': '1.00',
      'total match score': f1(opt.totalScore),
      'mean match score': f1(opt.totalScore / Math.max(1, opt.scoreSolution.length)),
      'total score ÷ optimum': '1.00',
      'interviews ÷ online reference⁴': f2(opt.interviews / ref.interviews),
      'total score ÷ online reference⁴': f2(opt.totalScore / ref.totalScore),
      'interviews per recruiter min / median / max': spread(opt.perRecruiter),
    },
  };
}

function runColumn(day: Day, opt: Optimum, ref: Reference, r: RunRecord, eligible: boolean[]): Column {
  const hours = (day.recruiters.length * day.shape.dayMinutes) / 60;
  const held = r.matches.filter((x) => x.interviewStarted !== null && x.interviewStarted <= day.shape.dayMinutes);
  const total = held.reduce((a, x) => a + x.match_score, 0);
  const bySeeker = new Map<number, MatchRow[]>();
  for (const x of r.matches) bySeeker.set(x.seeker, [...(bySeeker.get(x.seeker) ?? []), x]);
  const firstOffer: number[] = [];
  const toInterview: number[] = [];
  let offered = 0;
  let interviewed = 0;
  for (const [s, join] of r.joins) {
    if (!eligible[s]) continue;
    const ms = bySeeker.get(s) ?? [];
    if (ms.length) {
      offered++;
      firstOffer.push(Math.min(...ms.map((x) => x.created)) - join);
    }
    const started = ms.filter((x) => x.interviewStarted !== null).map((x) => x.interviewStarted!);
    if (started.length) {
      interviewed++;
      toInterview.push(Math.min(...started) - join);
    }
  }
  const eligibleJoined = [...r.joins.keys()].filter((s) => eligible[s]).length;
  // Seekers whose entry expired while an eligible job was still open to them: one never offered
  // (a declined or expired pair is never offered again, so it does not count).
  const expiredEligible = r.entries.filter(
    (e) =>
      e.status === 'expired' &&
      eligible[e.seeker] &&
      openEligibleJobs(day, e.seeker, new Set((bySeeker.get(e.seeker) ?? []).map((x) => x.job))).length > 0,
  ).length;
  // Before, the row counted every expired seeker with an eligible job, its pairs declined or not.
  const expiredAnyEligible = r.entries.filter((e) => e.status === 'expired' && eligible[e.seeker]).length;
  const settled = r.matches.filter((x) => x.status !== 'matched');
  const accepted = settled.filter((x) => ['accepted', 'completed', 'no_show'].includes(x.status)).length;
  const declined = settled.filter((x) => x.status === 'declined').length;
  const expired = settled.filter((x) => x.status === 'expired').length;
  const noShow = settled.filter((x) => x.status === 'no_show').length;
  const reasons = new Map<string, number>();
  for (const x of r.matches.filter((y) => y.status === 'declined'))
    reasons.set(x.decline_reason_code ?? 'none', (reasons.get(x.decline_reason_code ?? 'none') ?? 0) + 1);
  const brackets = new Map<number, number[]>();
  let broken = 0;
  for (const x of r.matches) {
    const fl = x.score_breakdown.floor;
    if (!fl) continue;
    brackets.set(fl.bracket, [...(brackets.get(fl.bracket) ?? []), x.match_score]);
    const listed = day.jobs[x.job].job.essentialSkills.length;
    if (
      x.match_score < fl.min_score ||
      (fl.essential_required && listed > 0 && x.score_breakdown.essential_skills.matched.length === 0)
    )
      broken++;
  }
  const perRecruiter = day.recruiters.map((rec) => held.filter((x) => x.recruiter === rec.idx).length);
  const freed = nextOfferAfterFreed(r.matches, day.shape.dayMinutes);
  const slots = slotTime(day, r.matches);
  const slotTotal = slots.reduce((a, x) => a + x.total, 0);
  const share = (k: 'interviewing' | 'deciding' | 'toRoom' | 'free') =>
    pct(
      slots.reduce((a, x) => a + x[k], 0),
      slotTotal,
    );
  return {
    name: r.planner,
    cells: {
      'interviews held': String(held.length),
      'interviews per recruiter-hour': f2(held.length / hours),
      'interviews ÷ optimum': f2(held.length / opt.interviews),
      'total match score': f1(total),
      'mean match score': f1(total / Math.max(1, held.length)),
      'total score ÷ optimum': f2(total / opt.totalScore),
      'interviews ÷ online reference⁴': f2(held.length / ref.interviews),
      'total score ÷ online reference⁴': f2(total / ref.totalScore),
      'interviews / total score ÷ the online share of this optimum⁴': `${f2(held.length / (opt.interviews * (ref.interviews / ref.expected.interviews)))} / ${f2(total / (opt.totalScore * (ref.totalScore / ref.expected.totalScore)))}`,
      'first offer p50 / p95 (min)¹': pq(firstOffer),
      'interview p50 / p95 (min)¹': pq(toInterview),
      'eligible seekers offered / interviewed¹': `${offered} / ${interviewed} of ${eligibleJoined}`,
      'expired with an eligible job never offered (with any eligible job)¹': `${expiredEligible} (${expiredAnyEligible})`,
      'offers: accepted / declined / expired / no-show': `${pct(accepted, settled.length)} / ${pct(declined, settled.length)} / ${pct(expired, settled.length)} / ${pct(noShow, settled.length)} of ${settled.length}`,
      'declines by reason': [...reasons]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
      'offers by floor bracket: n (mean score)': [...brackets]
        .sort((a, b) => a[0] - b[0])
        .map(([b, xs]) => `${b}: ${xs.length} (${f1(xs.reduce((a, c) => a + c, 0) / xs.length)})`)
        .join('; '),
      'offers below the floor or without an essential skill': String(broken),
      'interviews per recruiter min / median / max': spread(perRecruiter),
      'slot time: interviewing / deciding / to the room / free²': `${share('interviewing')} / ${share('deciding')} / ${share('toRoom')} / ${share('free')}`,
      'free slot time per recruiter (min)²': slots.map((x) => f1(x.free).replace(/\.0$/, '')).join(' / '),
      'decline or expiry → next offer at that event p50 / p95 (min)³': `${pq(freed.latencies)} (${freed.latencies.length} of ${freed.freed}; ${freed.withEntry.length ? `with an entry waiting ${pq(freed.withEntry)}` : 'none with an entry waiting'})`,
      'human steps refused (409: a race) / failed': `${r.races} / ${r.humanErrors}`,
      'joins late p50 / p95 (min, machine load)': pq(r.lateJoins),
      'human step answered in p50 / p95 (min, machine load)': pq(r.stepLatency),
    },
  };
}

/** The slot accounting's rows (fair-day-model.ts, SLOT_BUCKETS), grouped for the report. */
const SLOT_ROWS: Array<[string, Array<keyof SlotAccount>]> = [
  ['interviewing', ['interviewing']],
  ['answers, both accept: until the first yes', ['acceptedFirstYes']],
  ["answers, both accept: the seeker said yes, waiting for the recruiter's", ['acceptedWaitRecruiter']],
  ["answers, both accept: the recruiter said yes, waiting for the seeker's", ['acceptedWaitSeeker']],
  ['answers: declined', ['declined']],
  ['answers: ignored, held until the window expired', ['expired']],
  ['accepted, walking to the room', ['toRoom']],
  ["no-show's grace", ['noShowGrace']],
  ['offer made, match not started / match ended, slot not released yet', ['offerStarting', 'endedNotReleased']],
  ['idle, a seeker in line could take it: within a minute / longer⁶', ['idleEligibleLatency', 'idleEligibleLonger']],
  ['idle, the seeker who could take it held by another offer', ['idleSeekerHeld']],
  ["idle, a seeker's pair here passes the floor only later", ['idleFloorLater']],
  ["idle, the seekers' passing pairs here all offered already", ['idlePairsTried']],
  ['idle, nobody in line eligible here', ['idleNobody']],
  ["idle in the day's last minute (no interview could start before closing)", ['afterLastStart']],
];

/**
 * Where every recruiter slot's time went (slotAccounting), per run, beside where the online
 * reference's max-interviews plan spends it. Shares of Σ capacity × day length; the reference may
 * use up to one interview length past closing on each slot, so its column can pass 100 %.
 */
export function slotTable(
  day: Day,
  ref: Reference,
  records: ReadonlyArray<{ planner: string; matches: SlotMatch[]; entries: EntryTimes[] }>,
): string {
  const slotDay = day.recruiters.reduce((a, r) => a + r.capacity * day.shape.dayMinutes, 0);
  const accounts = records.map((r) => slotAccounting(day, r.matches, r.entries));
  const sum = (accs: SlotAccount[], keys: Array<keyof SlotAccount>) =>
    accs.reduce((a, acc) => a + keys.reduce((b, k) => b + acc[k], 0), 0);
  const cell = (m: number) => `${pct(m, slotDay)} (${f1(m).replace(/\.0$/, '')})`;
  const u = ref.lp.slotUse;
  const lpCells: Record<string, string> = {
    interviewing: cell(u.interviewing),
    'answers, both accept: until the first yes': `${cell(u.accepted)}, with the waits and the walk`,
    'answers: declined': cell(u.declined),
    'answers: ignored, held until the window expired': cell(u.expired),
    "no-show's grace": cell(u.noShow),
  };
  const budgetLeft = u.budget - u.interviewing - u.accepted - u.declined - u.expired - u.noShow;
  const head = `| slot time, % of ${f1(slotDay).replace(/\.0$/, '')} slot-minutes (minutes) | online reference LP⁷ | ${records.map((r) => r.planner).join(' | ')} |`;
  const sep = `|---|---|${records.map(() => '---').join('|')}|`;
  const body = SLOT_ROWS.map(([label, keys]) => {
    const runs = accounts.map((accs) =>
      keys.length === 2 && keys[0] === 'idleEligibleLatency'
        ? `${cell(sum(accs, [keys[0]]))} / ${cell(sum(accs, [keys[1]]))}`
        : cell(sum(accs, keys)),
    );
    return `| ${label} | ${lpCells[label] ?? '—'} | ${runs.join(' | ')} |`;
  });
  const pastClosing = records.map((r) =>
    r.matches.reduce((a, x) => {
      if (x.interviewStarted === null || x.interviewStarted > day.shape.dayMinutes) return a;
      const length =
        x.completed !== null ? x.completed - x.interviewStarted : day.recruiters[x.recruiter].interviewMinutes;
      return a + Math.max(0, x.interviewStarted + length - day.shape.dayMinutes);
    }, 0),
  );
  const interviews = `| interviews per recruiter (the reference: expected) | ${u.perRecruiter.map((x) => f1(x.interviews)).join(' / ')} | ${records
    .map((r) =>
      day.recruiters
        .map(
          (rec) =>
            r.matches.filter(
              (x) =>
                x.recruiter === rec.idx && x.interviewStarted !== null && x.interviewStarted <= day.shape.dayMinutes,
            ).length,
        )
        .join(' / '),
    )
    .join(' | ')} |`;
  const past = `| interview minutes past closing (started before it) | in the row above | ${pastClosing.map((m) => f1(m)).join(' | ')} |`;
  const perRecruiter = `| interviewing / idle per recruiter (minutes; the reference: interviews and holds) | ${u.perRecruiter.map((x) => f1(x.used)).join(' / ')} | ${accounts
    .map((accs) =>
      accs
        .map((a) => {
          const idle = SLOT_BUCKETS.filter((b) => b.startsWith('idle') || b === 'afterLastStart').reduce(
            (x, b) => x + a[b],
            0,
          );
          return `${f1(a.interviewing).replace(/\.0$/, '')}/${f1(idle).replace(/\.0$/, '')}`;
        })
        .join(' / '),
    )
    .join(' | ')} |`;
  const unused = `| budget the reference leaves unused (of Σ capacity × (day + one interview)) | ${cell(budgetLeft)} | ${records.map(() => '—').join(' | ')} |`;
  return [
    '#### Where the slot time goes',
    '',
    head,
    sep,
    ...body,
    past,
    interviews,
    perRecruiter,
    unused,
    '',
    '⁶ An idle slot with a seeker in line who could be offered it (an unoffered job here in their scope passes the ' +
      'floor, no offer holds them) for at most a minute: the round and the offer on their way; longer: a loss the ' +
      'planner or the matchmaker controls. ⁷ The max-interviews plan of the LP: expected interview minutes (the ' +
      'last may run past closing) and holds by how the offer ends.',
  ].join('\n');
}

export function renderTable(title: string, columns: Column[]): string {
  const head = `| ${['', ...columns.map((c) => c.name)].join(' | ')} |`;
  const sep = `|${['---', ...columns.map(() => '---')].join('|')}|`;
  const body = ROWS.map((row) => `| ${[row, ...columns.map((c) => c.cells[row] ?? '—')].join(' | ')} |`);
  return [title, '', head, sep, ...body].join('\n');
}

const FOOTNOTE =
  '¹ Seekers with an eligible job: one of their scope that passes the floor at some moment of their stay. ' +
  'Times in simulated minutes from joining, over the seekers who got there. "Never offered": an eligible ' +
  'job not offered to the seeker all day (a declined or expired pair is never offered again).\n' +
  '² Slot time: capacity × day length per recruiter, in simulated minutes; "free" is when no offer, ' +
  'acceptance or interview held the slot.\n' +
  '³ From a match declined or expired to the next offer at the same event (the slot it freed), over the ' +
  'declines and expiries followed by an offer before closing; "with an entry waiting": those within 10 minutes.\n' +
  '⁴ Online reference: the best a planner that must offer before it learns the answer can expect, every arrival ' +
  "known — the smaller of an LP (offers turn into interviews with the pair's probability; every offer holds its " +
  'slot while it is answered) and the offline optimum averaged over ' +
  `${REFERENCE_DRAWS} redraws of the answers. Both are expectations; the day run is one draw of the answers, so ` +
  "the last row compares a planner with the online share (reference ÷ optimum in expectation) of this draw's optimum. " +
  'The LP lets every slot run up to one interview length past closing (the last interview); "with nothing past ' +
  'closing" is the same LP without that allowance, a sensitivity, not a bound.\n' +
  '⁵ The same day, the same humans and queue rules, played by the greedy plan in the model with no machine in ' +
  `between (bench/support/fair-day-sim.ts): a round the moment anything changes, a slot free the moment its match ends; this draw of the answers and the mean of ${IDEAL_DRAWS} redraws.`;

/** Where every run's stack lives: one PostgreSQL and Temporal, the workflows bundled once. */
interface Shared {
  adminUrl: string;
  address: string;
  workflowBundle: Awaited<ReturnType<typeof bundleWorkflowCode>>;
  /** Counts the runs (each its own database and task queue). */
  run: number;
}

/** The title and caption of a demand's table. */
function tableCaption(o: Options, day: Day, demand: number, eligible: boolean[]): string {
  const caps = day.recruiters.map((x) => `${x.capacity}×${x.interviewMinutes} min`).join(', ');
  return (
    `### Demand ${demand === 3 ? '3:1 (seekers outnumber slots)' : demand < 1 ? `1:${f1(1 / demand)} (slots outnumber seekers)` : `${demand}:1`}\n\n` +
    `Seed ${o.seed}: ${day.seekers.length} seekers (${eligible.filter(Boolean).length} with an eligible job), ` +
    `${day.recruiters.length} recruiters (capacity × interview length: ${caps}), ${day.jobs.length} jobs, ` +
    `${day.slots} interview slots in a ${o.dayMinutes}-minute day; 1 simulated minute = ${o.msPerMinute} ms.`
  );
}

/** One demand: the day generated, its optimum and references, every planner's day run; its two tables. */
async function runDemand(o: Options, demand: number, shared: Shared): Promise<string[]> {
  const day = generateDay(shapeOf(o, demand));
  const tOpt = Date.now();
  const opt = await offlineOptimum(day);
  const ref = await referenceOf(day);
  const ideal = idealOf(day);
  const eligible = day.seekers.map((s) => eligibleJobs(day, s.idx).length > 0);
  log(
    `demand ${demand}: ${day.seekers.length} seekers, ${day.slots} interview slots, ${day.recruiters.length} ` +
      `recruiters, ${day.jobs.length} jobs; optimum ${opt.interviews} interviews / score ${f1(opt.totalScore)} ` +
      `(HiGHS, ${Date.now() - tOpt} ms with the online reference: ${f1(ref.interviews)} / ${f1(ref.totalScore)})`,
  );
  // The planners' days run side by side, on the same clock, so both see the same machine load
  // (a loaded machine delays the humans' timers and the worker alike; one after the other,
  // the second day would meet other load than the first).
  log(`demand ${demand}: running the day with ${o.planners.map((v) => v.label).join(' and ')} side by side…`);
  newBarrier(o.planners.length);
  const records = await Promise.all(
    o.planners.map((variant) =>
      runDay(
        { adminUrl: shared.adminUrl, address: shared.address },
        day,
        o,
        variant,
        shared.run++,
        shared.workflowBundle,
      ),
    ),
  );
  if (o.dump)
    fs.writeFileSync(
      `${o.dump}-${demand}.json`,
      JSON.stringify({ options: o, shape: day.shape, records: records.map((r) => ({ ...r, joins: [...r.joins] })) }),
    );
  const columns: Column[] = [
    optimumColumn(day, opt, ref),
    referenceColumn(day, ref),
    idealColumn(day, opt, ref, ideal),
    ...records.map((r) => runColumn(day, opt, ref, r, eligible)),
  ];
  const table = renderTable(tableCaption(o, day, demand, eligible), columns);
  const slots = slotTable(day, ref, [{ planner: 'greedy without the stack (model)⁵', ...ideal.draw }, ...records]);
  console.log(`\n${table}\n\n${slots}\n`);
  return [table, slots];
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  const base = loadConfig({ ...process.env, NODE_ENV: 'test', TEMPORAL_ADDRESS: '', DATABASE_URL: '' });
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const infra = await startThrowawayInfrastructure({ config: base, log: () => undefined, prefix: 'jobfair-fairday' });
  const out: string[] = [];
  try {
    const adminUrl = infra.adminDatabaseUrl ?? infra.databaseUrl;
    log('bundling workflows once for every run…');
    const workflowBundle = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      logger: new DefaultLogger('ERROR'),
    });
    const shared: Shared = { adminUrl, address: infra.temporalAddress, workflowBundle, run: 0 };
    for (const demand of o.demands) out.push(...(await runDemand(o, demand, shared)));
  } finally {
    await infra.stop();
  }
  console.log(FOOTNOTE);
  const command = `npm run bench -- fair-day ${process.argv.slice(2).join(' ')}`.trim();
  const dir = path.join(__dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `fair-day-${new Date().toISOString().replace(/[:.]/g, '-')}.md`);
  fs.writeFileSync(file, `${out.join('\n\n')}\n\n${FOOTNOTE}\n\nCommand: \`${command}\`\n`);
  log(`written to ${path.relative(process.cwd(), file)}; finished in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  process.exit(0);
}

runMain(main, module);
