import type { QueueEntryRow } from '#db/queue/queue-repository';
import type { ProfileRow } from '#db/accounts/profiles-repository';
import type { LiveEventRow } from '#db/events/events-repository';
import type { EventRoom } from '#db/matchmaking/matchmaking-repository';
import { eventFloorOf } from '#domain/matchmaking/match-floor';
import {
  estimateWait,
  explainWait,
  type WaitEstimate,
  type WaitEvent,
  type WaitExplanation,
} from '#domain/matchmaking/wait-explanation';
import type { ServiceDeps } from '../plugins/service-deps';

/** Matches of the passing jobs within this window make the estimate's rate. */
export const WAIT_RATE_WINDOW_MS = 30 * 60 * 1000;

export interface WaitAnswer {
  explanation: WaitExplanation;
  estimate: WaitEstimate;
  position: number | null;
}

/** Rows the caller has already read (a join reads them), so the answer does not read them again. */
export interface WaitKnown {
  profile?: ProfileRow | null;
  event?: LiveEventRow;
  position?: number | null;
}

/**
 * "When will I be matched", answered once (domain/matchmaking/wait-explanation.ts) from the rows
 * the matchmaker's round plans with — the same repository queries: the events' room part by part
 * (`listEventsWithRoom`), their open jobs (`listCandidateJobs`), the excluded pairs
 * (`listTriedPairs`, `listBlockedPairs`), an offer in progress — and the quality floor of the
 * entry's bracket. The queue status, `npm run ops -- why` and the console read it here.
 */
export function createWaitService(deps: Pick<ServiceDeps, 'repos' | 'config'>) {
  const { matchmaking, events, profiles, queue, queueStatus } = deps.repos;

  const toWaitEvent = (
    e: { id: string; slug: string; status: string } & Parameters<typeof eventFloorOf>[0],
    room: EventRoom | undefined,
  ): WaitEvent => ({
    id: e.id,
    slug: e.slug,
    status: e.status,
    floor: eventFloorOf(e, deps.config.MATCH_MIN_SCORE),
    room: room
      ? {
          free: room.has_jobs ? room.free : 0,
          slotsFree: room.slots_free,
          recruiters: room.recruiters,
          recruitersAvailable: room.recruiters_available,
          recruiterFree: room.recruiter_free,
        }
      : null,
  });

  /** The events of the entry's scope with their room: its own event (any status), or the live open-invite ones. */
  const scopeOf = async (entry: QueueEntryRow, known: WaitKnown): Promise<WaitEvent[]> => {
    if (entry.live_event_id) {
      const event = known.event?.id === entry.live_event_id ? known.event : await events.findById(entry.live_event_id);
      if (!event) return [];
      const room =
        event.status === 'live'
          ? (await matchmaking.listEventsWithRoom(undefined, event.id)).rooms.find((r) => r.id === event.id)
          : undefined;
      return [toWaitEvent(event as LiveEventRow & Parameters<typeof eventFloorOf>[0], room)];
    }
    const { rooms } = await matchmaking.listEventsWithRoom();
    return rooms.filter((r) => r.visibility === 'open_invite').map((r) => toWaitEvent({ ...r, status: 'live' }, r));
  };

  return {
    /** Why a waiting entry has no match yet, and the honest estimate that goes with it. */
    async explain(entry: QueueEntryRow, known: WaitKnown = {}): Promise<WaitAnswer> {
      const nowMs = Date.now();
      const [scope, profile, position, offering, tried, blocked] = await Promise.all([
        scopeOf(entry, known),
        known.profile !== undefined && known.profile?.user_id === entry.user_id
          ? known.profile
          : profiles.findByUserId(entry.user_id),
        known.position !== undefined ? known.position : queue.positionOf(entry),
        matchmaking.hasOpenOffer(entry.id),
        matchmaking.listTriedPairs([entry.id]),
        matchmaking.listBlockedPairs([entry.user_id]),
      ]);
      const liveIds = scope.filter((e) => e.status === 'live').map((e) => e.id);
      const jobs = await matchmaking.listCandidateJobs(liveIds, undefined, { titles: true });
      const explanation = explainWait({
        nowMs,
        entry: {
          enteredAtMs: entry.entered_at.getTime(),
          liveEventId: entry.live_event_id,
          seeker: {
            skills: profile?.skills ?? [],
            experienceYears: profile?.experience_years ?? 0,
            location: profile?.location ?? null,
            remotePreference: profile?.remote_preference ?? null,
            salaryExpectationMin: profile?.salary_expectation ?? null,
          },
          position,
          offering,
        },
        events: scope,
        jobs: jobs.map((j) => ({
          id: j.id,
          liveEventId: j.live_event_id,
          title: j.title ?? '',
          essentialSkills: j.essential_skills,
          bonusSkills: j.bonus_skills,
          experienceMin: j.experience_min,
          salaryMin: j.salary_min,
          salaryMax: j.salary_max,
          location: j.location,
          remotePreference: j.remote_preference,
        })),
        excludedJobIds: new Set([...tried.map((p) => p.job_id), ...blocked.map((p) => p.job_id)]),
        brackets: deps.config.MATCH_FLOOR_BRACKETS,
      });
      const rate =
        explanation.passingJobIds.length && explanation.blocker !== null
          ? await queueStatus.recentMatchRateForJobs(explanation.passingJobIds, WAIT_RATE_WINDOW_MS)
          : null;
      const estimate = estimateWait(explanation, {
        nowMs,
        intervalMs: deps.config.MATCHMAKER_INTERVAL_MS,
        position,
        rate,
      });
      return { explanation, estimate, position };
    },
  };
}
export type WaitService = ReturnType<typeof createWaitService>;
