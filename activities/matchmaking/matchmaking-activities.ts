import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import type { Config } from '../../lib/config';
import type { MatchmakingRepository, OfferContext } from '../../db/repositories/matchmaking-repository';
import { STALE_OFFER_MS, type KickMatchmakerInput, type RunMatchingRoundInput, type RunMatchingRoundResult } from '../../workflows/matchmaking/contract';
import { queueEntryWorkflowId, OFFER_REFUSED } from '../../workflows/queue/contract';
import { eventEndedSignal, offerUpdate } from '../../workflows/queue/queue-entry';
import { matchWorkflowId, type MatchInput } from '../../workflows/matches/contract';
import { matchWorkflow } from '../../workflows/matches/match';
import { JobfairEntity, JobfairEventSlug, JobfairStatus, JobfairTeamId, JobfairUserId } from '../../workflows/shared/search-attributes';
import { planMatches, pairKey } from './plan';
import { kickMatchmaker } from './matchmaker-client';

export type { RunMatchingRoundInput, RunMatchingRoundResult, KickMatchmakerInput };

const OFFER_CONCURRENCY = 16;

export interface MatchmakingActivityDeps {
  knex: Knex;
  client: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'MATCHMAKER_INTERVAL_MS' | 'MATCH_ACCEPT_WINDOW_MS' | 'INTERVIEW_LENGTH_MS'>;
  matchmakingRepository: MatchmakingRepository;
  log?: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
}

type OfferOutcome = 'started' | 'refused' | 'pending';

/**
 * The matchmaker's activities (docs/decisions/0010-matchmaker.md).
 *
 * `runMatchingRound`: one short transaction plans pairs and writes them as `offering` offers
 * (holding the slots), then — outside the transaction — each offer is put to the seeker's queue
 * entry (`offer` Update: the arbiter); accepted → the match workflow starts; refused → the slot is
 * released. Safe to run concurrently with itself (SKIP LOCKED) and to retry (offers and match
 * starts are idempotent by match id).
 */
export function createMatchmakingActivities(deps: MatchmakingActivityDeps) {
  const repo = deps.matchmakingRepository;

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
      await deps.client.workflow.start(matchWorkflow, {
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

  return {
    async runMatchingRound({ batchSize }: RunMatchingRoundInput): Promise<RunMatchingRoundResult> {
      await repo.closeFinishedOffers();
      await drainEndedEvents();

      const planned = await deps.knex.transaction(async (trx) => {
        const events = await repo.lockLiveEvents(trx);
        const held = await repo.countHeldSlots(
          events.map((e) => e.id),
          trx,
        );
        const freeByEvent = new Map(events.map((e) => [e.id, Math.max(0, e.interview_slots - (held.get(e.id) ?? 0))]));
        const withRoom = events.filter((e) => (freeByEvent.get(e.id) ?? 0) > 0);
        const freeSlots = withRoom.reduce((n, e) => n + (freeByEvent.get(e.id) ?? 0), 0);
        if (!withRoom.length) return { ids: [] as string[], liveEvents: events.length, freeSlots, considered: 0 };
        const openInvite = new Set(withRoom.filter((e) => e.visibility === 'open_invite').map((e) => e.id));
        const jobs = await repo.listOpenJobs(
          withRoom.map((e) => e.id),
          trx,
        );
        if (!jobs.length) return { ids: [] as string[], liveEvents: events.length, freeSlots, considered: 0 };
        const eventsWithJobs = [...new Set(jobs.map((j) => j.live_event_id))];
        const entries = await repo.lockWaitingEntries({ eventIds: eventsWithJobs, anyEventAllowed: eventsWithJobs.some((id) => openInvite.has(id)), limit: batchSize }, trx);
        if (!entries.length) return { ids: [] as string[], liveEvents: events.length, freeSlots, considered: 0 };
        const excluded = new Set(
          (
            await repo.listClosedPairs(
              entries.map((e) => e.id),
              trx,
            )
          ).map((p) => pairKey(p.queue_entry_id, p.job_id)),
        );
        const pairs = planMatches({
          entries: entries.map((e) => ({
            id: e.id,
            userId: e.user_id,
            liveEventId: e.live_event_id,
            enteredAtMs: e.entered_at.getTime(),
            seeker: { skills: e.skills, experienceYears: e.experience_years, location: e.location, remotePreference: e.remote_preference },
          })),
          jobs: jobs.map((j) => ({
            id: j.id,
            liveEventId: j.live_event_id,
            essentialSkills: j.essential_skills,
            bonusSkills: j.bonus_skills,
            experienceMin: j.experience_min,
            salaryMin: j.salary_min,
            salaryMax: j.salary_max,
            location: j.location,
            remotePreference: j.remote_preference,
          })),
          freeByEvent,
          openInviteEventIds: openInvite,
          excludedPairs: excluded,
        });
        const teamOf = new Map(jobs.map((j) => [j.id, j.team_id]));
        const rows = pairs.map((p) => ({
          id: randomUUID(),
          queue_entry_id: p.entry.id,
          queue_live_event_id: p.entry.liveEventId,
          seeker_user_id: p.entry.userId,
          job_id: p.job.id,
          live_event_id: p.job.liveEventId,
          team_id: teamOf.get(p.job.id)!,
          match_score: p.score.score,
          score_breakdown: p.score.breakdown,
          score_version: p.score.version,
          entered_at: new Date(p.entry.enteredAtMs),
        }));
        await repo.insertOffers(rows, trx);
        return { ids: rows.map((r) => r.id), liveEvents: events.length, freeSlots, considered: entries.length };
      });

      const staleIds = (await repo.listStaleOfferIds(STALE_OFFER_MS, batchSize)).filter((id) => !planned.ids.includes(id));
      const offers = await repo.loadOfferContexts([...staleIds, ...planned.ids]);
      const members = new Map<string, Promise<string[]>>();
      const teamMembers = (teamId: string) => {
        if (!members.has(teamId)) members.set(teamId, repo.listTeamMemberIds(teamId));
        return members.get(teamId)!;
      };
      const outcomes: OfferOutcome[] = [];
      for (let i = 0; i < offers.length; i += OFFER_CONCURRENCY) {
        outcomes.push(...(await Promise.all(offers.slice(i, i + OFFER_CONCURRENCY).map((o) => (o.status === 'offering' ? processOffer(o, teamMembers) : Promise.resolve<OfferOutcome>('started'))))));
      }
      return {
        liveEvents: planned.liveEvents,
        freeSlots: planned.freeSlots,
        considered: planned.considered,
        offered: planned.ids.length,
        retried: staleIds.length,
        started: outcomes.filter((o) => o === 'started').length,
        refused: outcomes.filter((o) => o === 'refused').length,
        pending: outcomes.filter((o) => o === 'pending').length,
      };
    },

    /** Wakes the matchmaker (starting it if needed); for workflows (an entry back to waiting, a freed slot, an event going live). */
    async kickMatchmaker({ reason }: KickMatchmakerInput): Promise<void> {
      await kickMatchmaker(deps.client, deps.config, reason);
    },
  };

  /**
   * An entry can be waiting for an event that has ended (it came back from a declined match after
   * the event's drain ran): tell it, as the drain would. Signals are idempotent.
   */
  async function drainEndedEvents(): Promise<void> {
    const stragglers = await repo.listWaitingEntriesOfEndedEvents(200);
    await Promise.all(
      stragglers.map(async (s) => {
        try {
          await deps.client.workflow.getHandle(queueEntryWorkflowId(s.user_id)).signal(eventEndedSignal, { liveEventId: s.live_event_id });
        } catch (err) {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
        }
      }),
    );
  }
}
