import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { WorkflowExecutionAlreadyStartedError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import type { Config } from '../../lib/config';
import type { HoldResult, MatchOfferInsert, MatchmakingRepository, OfferContext, OpenJob, WaitingCandidate } from '../../db/matchmaking/matchmaking-repository';
import type { AccountsRepository } from '../../db/accounts/accounts-repository';
import { STALE_OFFER_MS, type KickMatchmakerInput, type RunMatchingRoundInput, type RunMatchingRoundResult } from '../../workflows/matchmaking/contract';
import { queueEntryWorkflowId, OFFER_REFUSED, offerUpdate } from '../../workflows/queue/contract';
import { matchWorkflowId, MATCH_WORKFLOW, type MatchInput, type MatchWorkflow } from '../../workflows/matches/contract';
import { JobfairEntity, JobfairEventSlug, JobfairStatus, JobfairTeamId, JobfairUserId } from '../../workflows/shared/contract';
import { planFromCandidates, pairKey, type PlanEntry, type PlanJob, type PlannedPair } from './plan';
import { CandidateIndex } from './candidates';
import { kickMatchmaker } from '../../workflows/matchmaking/client';
import { tellEntriesEventEnded } from '../../workflows/queue/client';

export type { RunMatchingRoundInput, RunMatchingRoundResult, KickMatchmakerInput };

const OFFER_CONCURRENCY = 16;
/**
 * Per entry, the best job of each of its best this-many events (its fallbacks when better events
 * fill up within the round; past them the planner asks the search again, skipping full events).
 */
export const CANDIDATE_EVENTS = 10;
/** Events whose slots are held in parallel (one short transaction each). */
const HOLD_CONCURRENCY = 4;
/** Waiting entries of ended events told per round. */
const STRAGGLERS_PER_ROUND = 200;

export interface MatchmakingActivityDeps {
  knex: Knex;
  client: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'MATCHMAKER_INTERVAL_MS' | 'MATCH_ACCEPT_WINDOW_MS' | 'INTERVIEW_LENGTH_MS'>;
  matchmakingRepository: MatchmakingRepository;
  /** Recruiters of the job's team. */
  accountsRepository: Pick<AccountsRepository, 'listTeamMemberIds'>;
  log?: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
}

type RoundJob = PlanJob & { teamId: string };

/** Phase timings of one round (milliseconds), logged with the round. */
export interface RoundTimings {
  /** Reading events, entries and jobs, searching candidates and planning: no locks held. */
  planMs: number;
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

  const startMatch = async (o: OfferContext, recruiterUserIds: string[]) => {
    const input: MatchInput = {
      matchId: o.id,
      queueEntryId: o.queue_entry_id,
      seekerUserId: o.seeker_user_id,
      recruiterUserIds,
      teamId: o.team_id,
      jobId: o.job_id,
      jobTitle: o.job_title,
      liveEventId: o.live_event_id,
      liveEventSlug: o.live_event_slug,
      seekerHeadline: o.seeker_headline,
      seekerViaAgent: o.seeker_via_agent,
      seekerAgentIdentity: o.seeker_agent_identity,
      matchScore: o.match_score,
      scoreVersion: o.score_version,
      scoreBreakdown: o.score_breakdown,
      createdAtMs: o.created_at.getTime(),
      acceptWindowMs: deps.config.MATCH_ACCEPT_WINDOW_MS,
      interviewLengthMs: deps.config.INTERVIEW_LENGTH_MS,
    };
    try {
      await deps.client.workflow.start<MatchWorkflow>(MATCH_WORKFLOW, {
        workflowId: matchWorkflowId(o.id),
        taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        staticSummary: `Match ${o.id}: seeker ${o.seeker_user_id} × ${o.job_title} (${o.live_event_slug})`,
        typedSearchAttributes: [
          { key: JobfairEntity, value: 'match' },
          { key: JobfairStatus, value: 'matched' },
          { key: JobfairUserId, value: o.seeker_user_id },
          { key: JobfairTeamId, value: o.team_id },
          { key: JobfairEventSlug, value: o.live_event_slug },
        ],
      });
    } catch (err) {
      // Started (and maybe finished) by an earlier attempt of this offer: the same match.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  };

  const processOffer = async (o: OfferContext, teamMembers: (teamId: string) => Promise<string[]>): Promise<OfferOutcome> => {
    try {
      await deps.client.workflow.getHandle(queueEntryWorkflowId(o.seeker_user_id)).executeUpdate(offerUpdate, {
        args: [{ matchId: o.id, queueId: o.queue_entry_id, jobId: o.job_id, liveEventId: o.live_event_id }],
      });
    } catch (err) {
      const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
      if (cause instanceof ApplicationFailure && cause.type === OFFER_REFUSED) {
        await repo.markRefused(o.id, cause.message);
        return 'refused';
      }
      if (err instanceof WorkflowNotFoundError) {
        await repo.markRefused(o.id, 'the queue entry has closed');
        return 'refused';
      }
      deps.log?.warn({ err, matchId: o.id }, `offer ${o.id} could not be made; the next round retries it`);
      await repo.touchOffer(o.id);
      return 'pending';
    }
    try {
      await startMatch(o, await teamMembers(o.team_id));
    } catch (err) {
      // The entry holds the offer; the next round re-sends it (same answer) and starts the match.
      deps.log?.warn({ err, matchId: o.id }, `match ${o.id} could not be started; the next round retries it`);
      await repo.touchOffer(o.id);
      return 'pending';
    }
    await repo.markStarted(o.id);
    return 'started';
  };

  /** Step 1: read and plan, no locks. */
  const planRound = async (batchSize: number) => {
    const { live, withRoom } = await repo.listEventsWithRoom();
    const freeByEvent = new Map(withRoom.map((e) => [e.id, e.free]));
    const freeSlots = withRoom.reduce((n, e) => n + e.free, 0);
    const none = { pairs: [] as Array<PlannedPair<PlanEntry, RoundJob>>, liveEvents: live, freeSlots, considered: 0 };
    if (!withRoom.length) return none;
    const openInvite = new Set(withRoom.filter((e) => e.visibility === 'open_invite').map((e) => e.id));
    const entries = await repo.listWaitingEntries({ eventIds: withRoom.map((e) => e.id), anyEventAllowed: openInvite.size > 0, limit: batchSize });
    if (!entries.length) return none;
    // Only the jobs these entries may get: their own events', and every open-invite one with room if any entry waits for "any event".
    const eventIds = new Set(entries.flatMap((e) => (e.live_event_id ? [e.live_event_id] : [])));
    if (entries.some((e) => !e.live_event_id)) for (const id of openInvite) eventIds.add(id);
    const [jobs, triedPairs] = await Promise.all([repo.listCandidateJobs([...eventIds]), repo.listTriedPairs(entries.map((e) => e.id))]);
    const excluded = new Set(triedPairs.map((p) => pairKey(p.queue_entry_id, p.job_id)));
    const index = new CandidateIndex(jobs.map(toRoundJob), openInvite);
    const tried = (entry: PlanEntry) => (jobId: string) => excluded.has(pairKey(entry.id, jobId));
    const ranked = entries.map(toPlanEntry).map((entry) => {
      const candidates = index.bestPerEvent(entry, { limit: CANDIDATE_EVENTS, free: freeByEvent, excluded: tried(entry) });
      return { entry, candidates, complete: candidates.length < CANDIDATE_EVENTS };
    });
    // An entry whose listed events all filled up before its turn asks again, skipping full events.
    const refill = (entry: PlanEntry, isFull: (eventId: string) => boolean) => index.bestPerEvent(entry, { limit: 1, free: freeByEvent, excluded: tried(entry), skipEvent: isFull })[0];
    return { pairs: planFromCandidates(ranked, freeByEvent, refill), liveEvents: live, freeSlots, considered: entries.length };
  };

  /** Step 2: hold the slots, one short locked transaction per event, in plan order. */
  const holdPlanned = async (pairs: Array<PlannedPair<PlanEntry, RoundJob>>): Promise<HoldResult> => {
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
    const total: HoldResult = { held: [], busy: 0, full: 0, stale: 0 };
    const groups = [...byEvent];
    for (let i = 0; i < groups.length; i += HOLD_CONCURRENCY) {
      const results = await Promise.all(groups.slice(i, i + HOLD_CONCURRENCY).map(([eventId, rows]) => repo.holdSlots(eventId, rows)));
      for (const r of results) {
        total.held.push(...r.held);
        total.busy += r.busy;
        total.full += r.full;
        total.stale += r.stale;
      }
    }
    return total;
  };

  return {
    async runMatchingRound({ batchSize }: RunMatchingRoundInput): Promise<RunMatchingRoundResult> {
      await repo.closeFinishedOffers();
      await drainEndedEvents();

      const t0 = performance.now();
      const planned = await planRound(batchSize);
      const t1 = performance.now();
      const hold = await holdPlanned(planned.pairs);
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
        outcomes.push(...(await Promise.all(offers.slice(i, i + OFFER_CONCURRENCY).map((o) => (o.status === 'offering' ? processOffer(o, teamMembers) : Promise.resolve<OfferOutcome>('started'))))));
      }
      const timings: RoundTimings = { planMs: t1 - t0, holdMs: t2 - t1, offerMs: performance.now() - t2 };
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
      };
      if (planned.pairs.length || staleIds.length) deps.log?.info({ ...result, planned: planned.pairs.length, lostRaces: hold.busy + hold.full, stale: hold.stale, timings }, 'matching round');
      return result;
    },

    /** Wakes the matchmaker (starting it if needed); for workflows (an entry back to waiting, a freed slot, an event going live). */
    async kickMatchmaker({ reason }: KickMatchmakerInput): Promise<void> {
      await kickMatchmaker(deps.client, deps.config, reason);
    },
  };

  /**
   * An entry can be waiting for an event that has ended (it came back from a declined match after
   * the event's drain ran): tell it, as the drain does (the same helper).
   */
  async function drainEndedEvents(): Promise<void> {
    const stragglers = await repo.listWaitingEntriesOfEndedEvents(STRAGGLERS_PER_ROUND);
    await tellEntriesEventEnded(
      deps.client,
      stragglers.map((s) => ({ userId: s.user_id, liveEventId: s.live_event_id })),
    );
  }
}

function toPlanEntry(e: WaitingCandidate): PlanEntry {
  return {
    id: e.id,
    userId: e.user_id,
    liveEventId: e.live_event_id,
    enteredAtMs: e.entered_at.getTime(),
    seeker: { skills: e.skills, experienceYears: e.experience_years, location: e.location, remotePreference: e.remote_preference },
  };
}

function toRoundJob(j: OpenJob): RoundJob {
  return {
    id: j.id,
    liveEventId: j.live_event_id,
    teamId: j.team_id,
    essentialSkills: j.essential_skills,
    bonusSkills: j.bonus_skills,
    experienceMin: j.experience_min,
    salaryMin: j.salary_min,
    salaryMax: j.salary_max,
    location: j.location,
    remotePreference: j.remote_preference,
  };
}
