import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import type { Config } from '#lib/config';
import type {
  HoldResult,
  MatchOfferInsert,
  MatchmakingRepository,
  OfferContext,
  OpenJob,
  WaitingCandidate,
} from '#db/matchmaking/matchmaking-repository';
import type { AccountsRepository } from '#db/accounts/accounts-repository';
import {
  MATCHMAKER_ROUND_MAX_OFFERS,
  STALE_OFFER_MS,
  TEMPORAL_CALL_DEADLINE_MS,
  type KickMatchmakerInput,
  type RunMatchingRoundInput,
  type RunMatchingRoundResult,
} from '#workflows/matchmaking/contract';
import { queueEntryWorkflowId, OFFER_REFUSED, offerUpdate } from '#workflows/queue/contract';
import { matchInputFromOffer, matchStartNames, startMatchWorkflow } from '#workflows/matches/client';
import { planByAssignment, planFromCandidates, pairKey, type PlanEntry, type PlanJob, type PlannedPair } from './plan';
import { CandidateIndex, compareCandidates, type AnyEventMask, type Candidate } from './candidates';
import {
  eventFloorOf,
  floorFor,
  floorKey,
  passesFloor,
  type AppliedFloor,
  type EventFloor,
} from '#domain/matchmaking/match-floor';
import { hardRemoteMismatch, toMatchScoreV2, tuningFor, type TunableComponent } from '#domain/matchmaking/match-score';
import { kickMatchmaker } from '#workflows/matchmaking/client';
import { tellEntriesEventEnded } from '#workflows/queue/client';
import { jobForScore, seekerForScore } from '#domain/matchmaking/score-inputs';

export type { RunMatchingRoundInput, RunMatchingRoundResult, KickMatchmakerInput };

/** Offers put to their entries at once: a whole bounded round in one wave. */
const OFFER_CONCURRENCY = MATCHMAKER_ROUND_MAX_OFFERS;
/**
 * Per entry, the best job of each of its best this-many events (its fallbacks when better events
 * fill up within the round; past them the planner asks the search again, skipping full events).
 */
export const CANDIDATE_EVENTS = 10;
/** Waiting entries read (and planned) at a time, oldest first; a round reads pages until it has its offers. */
export const PLAN_PAGE_SIZE = 2 * MATCHMAKER_ROUND_MAX_OFFERS;
/** Offers one round makes at most (bounded work per round; the matchmaker runs the next at once). */
export const ROUND_MAX_OFFERS = MATCHMAKER_ROUND_MAX_OFFERS;
/** Entries planned between two turns of the event loop (and heartbeats). */
const PLAN_YIELD_EVERY = 25;
/** Waiting entries of ended events told per round. */
const STRAGGLERS_PER_ROUND = 200;

export interface MatchmakingActivityDeps {
  knex: Knex;
  client: Client;
  config: Pick<
    Config,
    | 'TEMPORAL_TASK_QUEUE'
    | 'MATCHMAKER_INTERVAL_MS'
    | 'MATCH_ACCEPT_WINDOW_MS'
    | 'INTERVIEW_LENGTH_MS'
    | 'MATCH_NO_SHOW_GRACE_MS'
    | 'VIDEO_PROVIDER_URL'
    | 'MATCH_MIN_SCORE'
    | 'MATCH_FLOOR_BRACKETS'
  > &
    // Optional: callers built before the assignment planner plan greedily.
    Partial<Pick<Config, 'MATCHMAKING_PLANNER' | 'QUEUE_ENTRY_TTL_MS'>>;
  matchmakingRepository: MatchmakingRepository;
  /** Recruiters of the job's team. */
  accountsRepository: Pick<AccountsRepository, 'listTeamMemberIds'>;
  log?: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
  /** Deadline of each Temporal call a round makes (default TEMPORAL_CALL_DEADLINE_MS). */
  temporalCallDeadlineMs?: number;
}

/** The running activity's context, or null when called outside an activity (tests, benches). */
function activityContext(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

type RoundJob = PlanJob & { teamId: string };

/** Phase timings of one round (milliseconds), logged with the round. */
export interface RoundTimings {
  /** Reading events, entries and jobs, searching candidates and planning: no locks held. */
  planMs: number;
  /** Of planMs: the candidate search and plan in memory (the rest is reading). */
  searchMs: number;
  /** Holding the planned slots: the only locked part (short transactions, one event each). */
  holdMs: number;
  /** Putting offers to the entries and starting match workflows. */
  offerMs: number;
}

type OfferOutcome = 'started' | 'refused' | 'pending';

/**
 * The matchmaker's activities (docs/decisions/0010-matchmaker.md).
 *
 * `runMatchingRound`:
 * 1. plan without locks: events with room, the oldest waiting entries that can use them, their
 *    candidate jobs (candidates.ts: per event the best job, found without scoring every job),
 *    the plan (plan.ts);
 * 2. hold the planned slots: per event one short transaction locks the event and the planned
 *    entries, re-checks everything the plan assumed and writes `offering` offers up to the free
 *    slots (`holdSlots`);
 * 3. outside any transaction, each offer is put to the seeker's queue entry (`offer` Update: the
 *    arbiter); accepted → the match workflow starts; refused → the slot is released.
 * Safe to run concurrently with itself (plans may overlap; holding re-checks under locks) and to
 * retry (offers and match starts are idempotent by match id).
 */
export function createMatchmakingActivities(deps: MatchmakingActivityDeps) {
  const repo = deps.matchmakingRepository;
  const accounts = deps.accountsRepository;
  const jobCache = new LiveJobCache(repo);
  const deadlineMs = deps.temporalCallDeadlineMs ?? TEMPORAL_CALL_DEADLINE_MS;
  /**
   * Every Temporal call of a round has a deadline: a hung call fails fast (the offer is left for
   * the next round) instead of holding the round until its start-to-close timeout.
   */
  const withDeadline = <T>(fn: () => Promise<T>): Promise<T> => deps.client.withDeadline(Date.now() + deadlineMs, fn);

  const startMatch = async (o: OfferContext, recruiterUserIds: string[]) => {
    try {
      await withDeadline(() =>
        startMatchWorkflow(
          deps.client,
          deps.config,
          matchInputFromOffer(o, recruiterUserIds, deps.config),
          matchStartNames(o),
        ),
      );
    } catch (err) {
      // Started (and maybe finished) by an earlier attempt of this offer, or by the API: the same match.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  };

  /**
   * One offer: put to the seeker's queue entry (the arbiter), then the match workflow started. The
   * outcome's row write is returned, not made: the round writes every outcome in one statement
   * once its offers have answered (decision 0236); until then the rows stay `offering`, which a
   * retried round re-sends with the same answer (offers and match starts are idempotent by id).
   */
  const processOffer = async (
    o: OfferContext,
    teamMembers: (teamId: string) => Promise<string[]>,
  ): Promise<{ outcome: OfferOutcome; reason?: string }> => {
    try {
      await withDeadline(() =>
        deps.client.workflow.getHandle(queueEntryWorkflowId(o.seeker_user_id)).executeUpdate(offerUpdate, {
          args: [{ matchId: o.id, queueId: o.queue_entry_id, jobId: o.job_id, liveEventId: o.live_event_id }],
        }),
      );
    } catch (err) {
      const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
      if (cause instanceof ApplicationFailure && cause.type === OFFER_REFUSED)
        return { outcome: 'refused', reason: cause.message };
      if (err instanceof WorkflowNotFoundError) return { outcome: 'refused', reason: 'the queue entry has closed' };
      deps.log?.warn({ err, matchId: o.id }, `offer ${o.id} could not be made; the next round retries it`);
      return { outcome: 'pending' };
    }
    try {
      await startMatch(o, await teamMembers(o.team_id));
    } catch (err) {
      // The entry holds the offer; the next round re-sends it (same answer) and starts the match.
      deps.log?.warn({ err, matchId: o.id }, `match ${o.id} could not be started; the next round retries it`);
      return { outcome: 'pending' };
    }
    return { outcome: 'started' };
  };

  /**
   * Step 1: read and plan, no locks. Waiting entries are read a page at a time, oldest first, and
   * the round stops planning once it has MATCHMAKER_ROUND_MAX_OFFERS pairs (`more`: the
   * matchmaker runs the next round at once), when no slot is left, or after `batchSize` entries.
   * Candidates come from the job cache (open jobs of live events, kept between rounds).
   */
  const planRound = async (batchSize: number, progress: () => void) => {
    const { live, liveIds, withRoom } = await repo.listEventsWithRoom();
    const freeByEvent = new Map(withRoom.map((e) => [e.id, e.free]));
    const freeSlots = withRoom.reduce((n, e) => n + e.free, 0);
    const pairs: Array<PlannedPair<PlanEntry, RoundJob>> = [];
    const result = { pairs, liveEvents: live, freeSlots, considered: 0, more: false, searchMs: 0 };
    if (!withRoom.length) return result;
    const openInvite = new Set(withRoom.filter((e) => e.visibility === 'open_invite').map((e) => e.id));
    const index = await jobCache.indexFor(liveIds);
    progress();
    // The quality floor of each event for each entry, by how long the entry has waited.
    const eventFloors = new Map(withRoom.map((e) => [e.id, eventFloorOf(e, deps.config.MATCH_MIN_SCORE)]));
    const nowMs = Date.now();
    // Slots not planned yet in this round.
    const left = new Map(freeByEvent);
    let after: { enteredAt: Date; id: string } | undefined;
    while (result.considered < batchSize) {
      const roomIds = [...left].filter(([, n]) => n > 0).map(([id]) => id);
      if (!roomIds.length) break;
      const anyEvents = new Set(roomIds.filter((id) => openInvite.has(id)));
      const limit = Math.min(PLAN_PAGE_SIZE, batchSize - result.considered);
      const entries = await repo.listWaitingEntries({
        eventIds: roomIds,
        anyEventAllowed: anyEvents.size > 0,
        limit,
        after,
      });
      if (!entries.length) break;
      result.considered += entries.length;
      const last = entries[entries.length - 1];
      after = { enteredAt: last.entered_at, id: last.id };
      const anyEventMask = anyEvents.size ? index.anyEventMask(anyEvents) : undefined;
      const page = await planPage(
        entries.map(toPlanEntry),
        { index, left, openInvite: anyEvents, anyEventMask, eventFloors, nowMs },
        progress,
        (ms) => (result.searchMs += ms),
      );
      for (const p of page) {
        if (pairs.length >= ROUND_MAX_OFFERS) break;
        pairs.push(p);
        left.set(p.job.liveEventId, (left.get(p.job.liveEventId) ?? 0) - 1);
      }
      if (pairs.length >= ROUND_MAX_OFFERS) {
        result.more = true;
        break;
      }
      if (entries.length < limit) break;
    }
    return result;
  };

  /** Plans one page of entries (oldest first) against the slots `left`, in memory. */
  const planPage = async (
    entries: PlanEntry[],
    ctx: {
      index: CandidateIndex<RoundJob>;
      left: ReadonlyMap<string, number>;
      openInvite: ReadonlySet<string>;
      anyEventMask: AnyEventMask | undefined;
      eventFloors: ReadonlyMap<string, EventFloor>;
      nowMs: number;
    },
    progress: () => void,
    searched: (ms: number) => void,
  ): Promise<Array<PlannedPair<PlanEntry, RoundJob>>> => {
    const { index, left, anyEventMask } = ctx;
    const [triedPairs, blockedPairs, declineCodes] = await Promise.all([
      repo.listTriedPairs(entries.map((e) => e.id)),
      repo.listBlockedPairs([...new Set(entries.map((e) => e.userId))]),
      repo.listSeekerDeclineCodes(entries.map((e) => e.id)),
    ]);
    // A seeker's salary/location declines in this entry lower that component's weight (score v2):
    // the entry's candidates (each event's best job) are re-scored and re-ranked with it.
    const declines = new Map<string, Partial<Record<TunableComponent, number>>>();
    for (const d of declineCodes) declines.set(d.queue_entry_id, { ...declines.get(d.queue_entry_id), [d.code]: d.n });
    const excluded = new Set(triedPairs.map((p) => pairKey(p.queue_entry_id, p.job_id)));
    const blocked = new Set(blockedPairs.map((p) => pairKey(p.seeker_user_id, p.job_id)));
    const tried = (entry: PlanEntry) => (jobId: string) =>
      excluded.has(pairKey(entry.id, jobId)) || blocked.has(pairKey(entry.userId, jobId));
    const defaultFloor: EventFloor = { minScore: deps.config.MATCH_MIN_SCORE, requireEssential: true };
    const settingOf = (eventId: string) => ctx.eventFloors.get(eventId) ?? defaultFloor;
    // The distinct floor settings of the "any event" scope (most events share the default): an
    // any-event entry's lowest floor is computed over these, not over every event (0237).
    const anySettings = [
      ...new Map([...ctx.openInvite].map((id) => [floorKey(settingOf(id)), settingOf(id)])).values(),
    ];
    const floorOf = (entry: PlanEntry) => {
      const memo = new Map<EventFloor, AppliedFloor>();
      const ofSetting = (setting: EventFloor) => {
        let f = memo.get(setting);
        if (!f) {
          f = floorFor(setting, ctx.nowMs - entry.enteredAtMs, deps.config.MATCH_FLOOR_BRACKETS);
          memo.set(setting, f);
        }
        return f;
      };
      const of = (eventId: string) => ofSetting(settingOf(eventId));
      const scope = (entry.liveEventId ? [settingOf(entry.liveEventId)] : anySettings).map(ofSetting);
      return {
        of,
        search: {
          minScore: scope.length ? Math.min(...scope.map((f) => f.min_score)) : 0,
          // Every event still asks for an essential skill (the first brackets): jobs listing essential skills the seeker has none of are skipped unscored.
          essentialRequired: scope.length > 0 && scope.every((f) => f.essential_required),
          passes: (job: RoundJob, score: number, essentialMatched: number) =>
            passesFloor(
              of(job.liveEventId),
              score,
              essentialMatched,
              job.essentialSkills.length,
              hardRemoteMismatch(job.remotePreference, entry.seeker.remotePreference),
            ),
        },
      };
    };
    // The floor that let the pair through is part of its explanation (score v2).
    const explained =
      (floor: (eventId: string) => AppliedFloor, tuning: Partial<Record<TunableComponent, number>>) =>
      (c: Candidate<RoundJob>): Candidate<RoundJob> => ({
        job: c.job,
        score: toMatchScoreV2(c.score, floor(c.job.liveEventId), tuning),
      });
    let t = performance.now();
    const ranked = [];
    for (const [i, entry] of entries.entries()) {
      // The search is CPU work: every few entries the event loop gets a turn, so the heartbeat
      // goes out and the attempt is not taken for hung.
      if (i > 0 && i % PLAN_YIELD_EVERY === 0) {
        progress();
        searched(performance.now() - t);
        await new Promise<void>((resolve) => setImmediate(resolve));
        t = performance.now();
      }
      const floor = floorOf(entry);
      const tuning = tuningFor(declines.get(entry.id) ?? {});
      const candidates = index
        .bestPerEvent(entry, {
          limit: CANDIDATE_EVENTS,
          free: left,
          excluded: tried(entry),
          floor: floor.search,
          anyEventMask,
        })
        .map(explained(floor.of, tuning));
      if (Object.keys(tuning).length) candidates.sort(compareCandidates(left));
      ranked.push({ entry, candidates, complete: candidates.length < CANDIDATE_EVENTS, floor });
    }
    const floors = new Map(ranked.map((r) => [r.entry.id, r.floor]));
    // An entry whose listed events all filled up before its turn asks again, skipping full events.
    const refill = (entry: PlanEntry, isFull: (eventId: string) => boolean) => {
      const floor = floors.get(entry.id)!;
      const c = index.bestPerEvent(entry, {
        limit: 1,
        free: left,
        excluded: tried(entry),
        skipEvent: isFull,
        floor: floor.search,
        anyEventMask,
      })[0];
      return c && explained(floor.of, tuningFor(declines.get(entry.id) ?? {}))(c);
    };
    // MATCHMAKING_PLANNER: the greedy plan, or the page's max-weight assignment (plan.ts).
    const plan =
      deps.config.MATCHMAKING_PLANNER === 'assignment'
        ? await planByAssignment(
            ranked,
            left,
            { nowMs: ctx.nowMs, ttlMs: deps.config.QUEUE_ENTRY_TTL_MS ?? 2 * 60 * 60 * 1000 },
            refill,
          )
        : planFromCandidates(ranked, left, refill);
    searched(performance.now() - t);
    return plan;
  };

  /** Step 2: hold the slots: one short locked transaction over the planned events, in plan order. */
  const holdPlanned = async (
    pairs: Array<PlannedPair<PlanEntry, RoundJob>>,
    progress: () => void,
  ): Promise<HoldResult> => {
    const byEvent = new Map<string, MatchOfferInsert[]>();
    for (const p of pairs) {
      const rows = byEvent.get(p.job.liveEventId) ?? [];
      rows.push({
        id: randomUUID(),
        queue_entry_id: p.entry.id,
        queue_live_event_id: p.entry.liveEventId,
        seeker_user_id: p.entry.userId,
        job_id: p.job.id,
        live_event_id: p.job.liveEventId,
        team_id: p.job.teamId,
        match_score: p.score.score,
        score_breakdown: p.score.breakdown,
        score_version: p.score.version,
        entered_at: new Date(p.entry.enteredAtMs),
      });
      byEvent.set(p.job.liveEventId, rows);
    }
    // One short transaction for every planned event (a round holds at most ROUND_MAX_OFFERS offers).
    const total = await repo.holdSlotsOfEvents([...byEvent]);
    progress();
    return total;
  };

  return {
    async runMatchingRound({ batchSize }: RunMatchingRoundInput): Promise<RunMatchingRoundResult> {
      // Heartbeats at every step that made progress: a hung attempt stops beating and Temporal
      // retries the round after the heartbeat timeout (seconds), not after start-to-close.
      const ctx = activityContext();
      const beat = (phase: string) => ctx?.heartbeat({ phase });
      await repo.closeFinishedOffers();
      beat('closed finished offers');
      // Stragglers of ended events are told while the round plans (they are not planned: their event has no room).
      const drained = drainEndedEvents();
      drained.catch(() => undefined);

      const t0 = performance.now();
      const planned = await planRound(batchSize, () => beat('planning'));
      const t1 = performance.now();
      await drained;
      beat('drained ended events');
      beat('planned');
      const hold = await holdPlanned(planned.pairs, () => beat('holding'));
      const t2 = performance.now();
      const heldIds = hold.held;

      const heldSet = new Set(heldIds);
      const staleIds = (await repo.listStaleOfferIds(STALE_OFFER_MS, batchSize)).filter((id) => !heldSet.has(id));
      const offers = await repo.loadOfferContexts([...staleIds, ...heldIds]);
      const members = new Map<string, Promise<string[]>>();
      const teamMembers = (teamId: string) => {
        if (!members.has(teamId)) members.set(teamId, accounts.listTeamMemberIds(teamId));
        return members.get(teamId)!;
      };
      const outcomes: OfferOutcome[] = [];
      for (let i = 0; i < offers.length; i += OFFER_CONCURRENCY) {
        const wave = offers.slice(i, i + OFFER_CONCURRENCY);
        const answers = await Promise.all(
          wave.map(async (o) => {
            const answer: { outcome: OfferOutcome; reason?: string } =
              o.status === 'offering' ? await processOffer(o, teamMembers) : { outcome: 'started' };
            beat('offering');
            return answer;
          }),
        );
        // One statement for the wave's outcomes (0236).
        await repo.recordOfferOutcomes(
          wave.flatMap((o, k) => {
            const a = answers[k];
            if (o.status !== 'offering') return [];
            return [{ id: o.id, status: a.outcome === 'pending' ? ('touched' as const) : a.outcome, reason: a.reason }];
          }),
        );
        outcomes.push(...answers.map((a) => a.outcome));
      }
      const timings: RoundTimings = {
        planMs: t1 - t0,
        searchMs: planned.searchMs,
        holdMs: t2 - t1,
        offerMs: performance.now() - t2,
      };
      const result: RunMatchingRoundResult = {
        liveEvents: planned.liveEvents,
        freeSlots: planned.freeSlots,
        considered: planned.considered,
        offered: heldIds.length,
        retried: staleIds.length,
        started: outcomes.filter((o) => o === 'started').length,
        refused: outcomes.filter((o) => o === 'refused').length,
        // Planned pairs that lost a race (a seeker, a slot or the event row taken by a concurrent
        // round or a projection) are left for the next round too, so it follows one interval later.
        pending: outcomes.filter((o) => o === 'pending').length + hold.busy + hold.full,
        more: planned.more,
      };
      if (planned.pairs.length || staleIds.length)
        deps.log?.info(
          { ...result, planned: planned.pairs.length, lostRaces: hold.busy + hold.full, stale: hold.stale, timings },
          'matching round',
        );
      return result;
    },

    /** Wakes the matchmaker (starting it if needed); for workflows (an entry back to waiting, a freed slot, an event going live). */
    async kickMatchmaker({ reason }: KickMatchmakerInput): Promise<void> {
      await withDeadline(() => kickMatchmaker(deps.client, deps.config, reason));
    },
  };

  /**
   * An entry can be waiting for an event that has ended (it came back from a declined match after
   * the event's drain ran): tell it, as the drain does (the same helper).
   */
  async function drainEndedEvents(): Promise<void> {
    const stragglers = await repo.listWaitingEntriesOfEndedEvents(STRAGGLERS_PER_ROUND);
    if (!stragglers.length) return;
    await withDeadline(() =>
      tellEntriesEventEnded(
        deps.client,
        stragglers.map((s) => ({ userId: s.user_id, liveEventId: s.live_event_id })),
      ),
    );
  }
}

function toPlanEntry(e: WaitingCandidate): PlanEntry {
  return {
    id: e.id,
    userId: e.user_id,
    liveEventId: e.live_event_id,
    enteredAtMs: e.entered_at.getTime(),
    seeker: seekerForScore(e),
  };
}

function toRoundJob(j: OpenJob): RoundJob {
  return {
    id: j.id,
    liveEventId: j.live_event_id,
    teamId: j.team_id,
    ...jobForScore(j),
  };
}

/**
 * The open jobs of live events, kept between rounds in the worker (decision 0190): per event its
 * jobs and the version the `jobs` triggers bump on every change (matching_job_versions). Each round
 * reads the versions of the live events (one indexed query) and reloads only the events whose
 * version moved, went live, or all of them after a TRUNCATE (the epoch); events no longer live are
 * dropped. The candidate index is rebuilt only when something changed. Versions are read before
 * the jobs, so a cached list is never older than its version; a list a round finds stale (a job
 * closed meanwhile) is caught by `holdSlots`, which re-checks every job under its event's lock.
 */
class LiveJobCache {
  private readonly events = new Map<string, { version: number; jobs: RoundJob[] }>();
  private epoch: number | null = null;
  private index: CandidateIndex<RoundJob> | null = null;

  constructor(private readonly repo: MatchmakingRepository) {}

  async indexFor(liveIds: string[]): Promise<CandidateIndex<RoundJob>> {
    const { epoch, versions } = await this.repo.listJobVersions(liveIds);
    let changed = !this.index;
    if (epoch !== this.epoch) {
      changed = true;
      this.events.clear();
      this.epoch = epoch;
    }
    const live = new Set(liveIds);
    for (const id of [...this.events.keys()]) {
      if (!live.has(id)) {
        this.events.delete(id);
        changed = true;
      }
    }
    const stale = liveIds.filter((id) => this.events.get(id)?.version !== (versions.get(id) ?? 0));
    if (stale.length) {
      const byEvent = new Map<string, RoundJob[]>(stale.map((id) => [id, []]));
      for (const j of await this.repo.listCandidateJobs(stale)) byEvent.get(j.live_event_id)?.push(toRoundJob(j));
      for (const id of stale) this.events.set(id, { version: versions.get(id) ?? 0, jobs: byEvent.get(id)! });
      changed = true;
    }
    if (changed)
      this.index = new CandidateIndex(
        [...this.events.values()].flatMap((e) => e.jobs),
        new Set(this.events.keys()),
      );
    return this.index!;
  }
}
