/**
 * The "slot freed → offer" measurement of the performance table (bench/matching-scale.ts on the
 * dev server, bench/cluster.ts on the production shape): one implementation, run on whatever stack
 * the caller brings (its worker processes match; the app's services join and decline).
 */
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { Config } from '#lib/config';
import type { buildApp } from '#apps/api/src/app';
import { matchmakerStatsQuery, matchmakerWorkflowId } from '#workflows/matchmaking/contract';
import { pool } from './pool';
import { seedEvent, seedRecruiterTeam } from './seed';
import { percentile } from './stats';

/** The matching benches' skill vocabulary: 20 common skills, then `skill-20` … `skill-199`. */
export const VOCABULARY = Array.from({ length: 200 }, (_, i) =>
  i < 20
    ? [
        'TypeScript',
        'Python',
        'Go',
        'Rust',
        'Java',
        'Kotlin',
        'PostgreSQL',
        'Redis',
        'Kafka',
        'React',
        'Vue',
        'Node.js',
        'Django',
        'Kubernetes',
        'Docker',
        'AWS',
        'GCP',
        'GraphQL',
        'SQL',
        'Spark',
      ][i]
    : `skill-${i}`,
);

const SLOT_EVENTS = 10;
const SLOT_SEEKERS = 60;
/** What the measurement runs on: the config of the processes that match, the app's database, a Temporal client and the app (its services join and decline). */
export type SlotStack = { config: Config; knex: Knex; temporal: Client; app: Awaited<ReturnType<typeof buildApp>> };

/** How many slot samples, and where progress lines go. */
export interface SlotOptions {
  samples: number;
  log: (line: string) => void;
}

export interface SlotResult {
  p50: number;
  p95: number;
  samples: number;
  notes: string[];
}

/**
 * The matching settings of every process that matches during the measurement (the in-process
 * worker's config, or the cluster's workers' environment). Floor off: every waiting seeker can take
 * the freed slot at once (the floor's brackets are minutes).
 */
export const SLOT_MATCH_ENV = { MATCH_MIN_SCORE: '0', MATCH_FLOOR_BRACKETS: '0:0:0' } as const;

/** 10 open-invite events with 1 slot and 20 jobs each, a recruiter, 60 onboarded seekers. */
async function seedSlotEvents(s: SlotStack): Promise<{ recruiterId: string; eventIds: string[]; seekers: string[] }> {
  const { knex, app } = s;
  const accounts = app.services.deps.repos.accounts;
  const { teamId, recruiterId } = await seedRecruiterTeam(accounts, 'Slot team', {
    email: 'recruiter@slot.bench',
    displayName: 'Recruiter',
  });
  const eventIds: string[] = [];
  for (let e = 0; e < SLOT_EVENTS; e++) {
    const ev = await seedEvent(knex, teamId, {
      slug: `slot-${e}`,
      company: `Slot ${e}`,
      visibility: 'open_invite',
      status: 'live',
      slots: 1,
      startedNow: true,
    });
    eventIds.push(ev.id);
    await knex('jobs').insert(
      Array.from({ length: 20 }, (_, j) => ({
        team_id: teamId,
        live_event_id: ev.id,
        title: `Job ${e}.${j}`,
        essential_skills: [VOCABULARY[j % 20], VOCABULARY[(j + e) % 20]],
        bonus_skills: [VOCABULARY[(j + 3) % 20]],
        experience_min: j % 5,
        remote_preference: 'remote',
      })),
    );
  }
  const seekers: string[] = [];
  await pool(
    Array.from({ length: SLOT_SEEKERS }, (_, i) => i),
    8,
    async (i) => {
      const u = await accounts.insertUser({
        email: `slot-seeker-${i}@slot.bench`,
        display_name: `Seeker ${i}`,
        role: 'seeker',
      });
      await app.services.accounts.profiles.completeOnboarding(u.id, {
        full_name: `Seeker ${i}`,
        title: 'Engineer',
        skills: [VOCABULARY[i % 20], VOCABULARY[(i * 3) % 20], VOCABULARY[(i * 7) % 20]],
        experience_years: i % 10,
      });
      seekers.push(u.id);
    },
  );
  return { recruiterId, eventIds, seekers };
}

type OpenMatches = () => Promise<Array<{ id: string; live_event_id: string; created_at: Date }>>;

/** Each sample: a pause of 0–2 batch windows (a slot frees at any moment of the matchmaker's cycle), a decline, then the wait for that event's next match. */
async function sampleSlotFrees(
  s: SlotStack,
  recruiterId: string,
  openMatches: OpenMatches,
  samples: number,
): Promise<number[]> {
  const waits: number[] = [];
  for (let i = 0; i < samples; i++) {
    await new Promise((r) => setTimeout(r, Math.random() * 2 * s.config.MATCHMAKER_INTERVAL_MS));
    const open = await openMatches();
    const m = open[i % open.length];
    await s.app.services.matches.decline({
      userId: recruiterId,
      matchId: m.id,
      reason: 'bench: slot frees',
      reasonCode: 'other',
    });
    const t0 = Date.now();
    const next = await until(
      async () => {
        const row = await s
          .knex('matches')
          .where({ live_event_id: m.live_event_id, status: 'matched' })
          .whereNot({ id: m.id })
          .first('id', 'created_at');
        return row ?? null;
      },
      60_000,
      `a new match for event ${m.live_event_id}`,
      5,
    );
    waits.push(Math.max(0, next.created_at.getTime() - t0));
  }
  return waits;
}

/** The joins (through the real join use-case) until every slot is taken; the matchmaker kicks they cost. */
async function joinAll(
  s: SlotStack,
  seekers: string[],
  openMatches: OpenMatches,
  notes: string[],
  log: SlotOptions['log'],
) {
  const statsBefore = await matchmakerStats(s.temporal, s.config);
  const tJoin = Date.now();
  await pool(seekers, 10, async (userId) => {
    await s.app.services.queue.join({ userId, eventRef: null, agentIdentity: 'bench', viaAgent: false });
  });
  log(`${SLOT_SEEKERS} joins in ${((Date.now() - tJoin) / 1000).toFixed(1)} s`);
  await until(async () => (await openMatches()).length === SLOT_EVENTS, 120_000, 'every slot taken after the joins');
  const statsAfterJoins = await matchmakerStats(s.temporal, s.config);
  if (statsAfterJoins) {
    // No matchmaker before the first join: it starts with it (signal-with-start).
    const kicks = statsAfterJoins.kicks - (statsBefore?.kicks ?? 0);
    notes.push(
      `matchmaker kicks during ${SLOT_SEEKERS} joins: ${kicks} (${(kicks / SLOT_SEEKERS).toFixed(2)} ` +
        `per join), rounds ${statsAfterJoins.rounds - (statsBefore?.rounds ?? 0)}`,
    );
  }
  return statsAfterJoins;
}

/**
 * Slot frees → next match, on the real worker(s), matchmaker and join path of `s`: seeds the slot
 * events and seekers, joins them all, then samples declines. The seekers still waiting at the end
 * leave, so no later work of the same database matches them.
 */
export async function measureSlotToOffer(s: SlotStack, o: SlotOptions): Promise<SlotResult> {
  const { knex, temporal, config } = s;
  const { recruiterId, eventIds, seekers } = await seedSlotEvents(s);
  const openMatches: OpenMatches = async () =>
    knex('matches')
      .whereIn('live_event_id', eventIds)
      .andWhere({ status: 'matched' })
      .select('id', 'live_event_id', 'created_at');
  const notes: string[] = [];
  const statsAfterJoins = await joinAll(s, seekers, openMatches, notes, o.log);
  const waits = await sampleSlotFrees(s, recruiterId, openMatches, o.samples);
  const statsEnd = await matchmakerStats(temporal, config);
  if (statsAfterJoins && statsEnd)
    notes.push(
      `matchmaker during ${o.samples} slot samples: ${statsEnd.rounds - statsAfterJoins.rounds} ` +
        `rounds, ${statsEnd.kicks - statsAfterJoins.kicks} kicks`,
    );
  notes.push(
    `slot → offer: MATCHMAKER_INTERVAL_MS=${config.MATCHMAKER_INTERVAL_MS}, ${SLOT_EVENTS} ` +
      `events × 1 slot × 20 jobs, ${SLOT_SEEKERS} seekers waiting for any event, floor off; ` +
      `measured from the decline's answer to the next match row of that event`,
  );
  const waiting: string[] = await knex('queue_entries')
    .whereIn('user_id', seekers)
    .andWhere({ status: 'waiting' })
    .pluck('user_id');
  await pool(waiting, 8, async (userId) => void (await s.app.services.queue.leave(userId).catch(() => undefined)));
  return {
    p50: Math.round(percentile(waits, 50)),
    p95: Math.round(percentile(waits, 95)),
    samples: waits.length,
    notes,
  };
}

export async function matchmakerStats(temporal: Client, config: Config) {
  try {
    return await temporal.workflow
      .getHandle(matchmakerWorkflowId(config.TEMPORAL_TASK_QUEUE))
      .query(matchmakerStatsQuery);
  } catch {
    return null;
  }
}

/** Polls `probe` until it answers something truthy, within `deadlineMs`. */
export async function until<T>(
  probe: () => Promise<T | null | false>,
  deadlineMs: number,
  what: string,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
