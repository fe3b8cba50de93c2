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
import { jobForScore, seekerForScore } from '#domain/matchmaking/score-inputs';

/** Matches of the passing jobs within this window make the estimate's rate. */
export const WAIT_RATE_WINDOW_MS = 30 * 60 * 1000;

export interface WaitAnswer {
  explanation: WaitExplanation;
  estimate: WaitEstimate;
  position: number | null;
}

/** Rows the caller has already read (a join or a status read), so the answer does not read them again. */
export interface WaitKnown {
  profile?: Pick<
    ProfileRow,
    'user_id' | 'skills' | 'experience_years' | 'location' | 'remote_preference' | 'salary_expectation'
  > | null;
  event?: Pick<LiveEventRow, 'id' | 'slug' | 'status'> & Partial<Parameters<typeof eventFloorOf>[0]>;
  position?: number | null;
  /** The entry's own offer state and excluded jobs (queue-status-repository.ts `readLatest`). */
  offering?: boolean;
  triedJobIds?: string[];
  blockedJobIds?: string[];
  /** Stamps of the queue's jobs and matches, read with the entry (`readLatest`): see WaitServiceOptions. */
  jobsStamp?: number | null;
  matchesStamp?: number | null;
}

export interface WaitServiceOptions {
  /**
   * Reuse what is the same for every seeker of a queue, when the caller knows it has not changed
   * (`known.jobsStamp`, `known.matchesStamp`): the open jobs of its events (kept while their
   * version stamp holds) and the recent match rate of a set of jobs (kept while no match was made
   * on the queue's events, and at most `rateCacheMs`, since its window slides). 0 = read every time.
   */
  rateCacheMs?: number;
  /** Entries (job lists and rates) kept at most; the least recently used go first. */
  cacheMax?: number;
}

type Rate = Awaited<ReturnType<ServiceDeps['repos']['queueStatus']['recentMatchRateForJobs']>>;
type CandidateJob = Awaited<ReturnType<ServiceDeps['repos']['matchmaking']['listCandidateJobs']>>[number];

/** A bounded map, least recently used first (Map keeps insertion order). Failed reads are not kept. */
function lru<V>(max: number) {
  const m = new Map<string, { at: number; value: Promise<V> }>();
  return (key: string, maxAgeMs: number, read: () => Promise<V>): Promise<V> => {
    const now = Date.now();
    const hit = m.get(key);
    m.delete(key);
    if (hit && now - hit.at < maxAgeMs) {
      m.set(key, hit);
      return hit.value;
    }
    const value = read();
    const entry = { at: now, value };
    m.set(key, entry);
    value.catch(() => m.get(key) === entry && m.delete(key));
    while (m.size > max) m.delete(m.keys().next().value!);
    return value;
  };
}

/**
 * "When will I be matched", answered once (domain/matchmaking/wait-explanation.ts) from the rows
 * the matchmaker's round plans with — the same repository queries: the events' room part by part
 * (`listEventsWithRoom`), their open jobs (`listCandidateJobs`), the excluded pairs
 * (`listTriedPairs`, `listBlockedPairs`), an offer in progress — and the quality floor of the
 * entry's bracket. The queue status, `npm run ops -- why` and the console read it here.
 */
export function createWaitService(deps: Pick<ServiceDeps, 'repos' | 'config'>, opts: WaitServiceOptions = {}) {
  const { matchmaking, events, profiles, queue, queueStatus } = deps.repos;
  const rateCacheMs = opts.rateCacheMs ?? 0;
  const cacheMax = opts.cacheMax ?? 1000;
  const jobsCache = lru<CandidateJob[]>(cacheMax);
  const ratesCache = lru<Rate>(cacheMax);
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

  /** The open jobs of these live events: kept while their version stamp holds (exact: any change moves it). */
  const jobsOf = (liveIds: string[], stamp: number | null | undefined) => {
    const read = () => matchmaking.listCandidateJobs(liveIds, undefined, { titles: true });
    if (rateCacheMs <= 0 || stamp == null) return read();
    return jobsCache(`${[...liveIds].sort().join(',')}|${stamp}`, Infinity, read);
  };

  /** The match rate of these jobs: kept while no match was made on the queue's events, at most `rateCacheMs`. */
  const rateOf = (jobIds: string[], stamp: number | null | undefined) => {
    const read = () => queueStatus.recentMatchRateForJobs(jobIds, WAIT_RATE_WINDOW_MS);
    if (rateCacheMs <= 0 || stamp == null) return read();
    return ratesCache(`${[...jobIds].sort().join(',')}|${stamp}`, rateCacheMs, read);
  };

  return {
    /** Why a waiting entry has no match yet, and the honest estimate that goes with it. */
    async explain(entry: QueueEntryRow, known: WaitKnown = {}): Promise<WaitAnswer> {
      const nowMs = Date.now();
      const [scope, profile, position, offering, tried, blocked] = await Promise.all([
        scopeOf(entry, known),
        known.profile !== undefined && (known.profile === null || known.profile.user_id === entry.user_id)
          ? known.profile
          : profiles.findByUserId(entry.user_id),
        known.position !== undefined ? known.position : queue.positionOf(entry),
        known.offering ?? matchmaking.hasOpenOffer(entry.id),
        known.triedJobIds ?? matchmaking.listTriedPairs([entry.id]).then((ps) => ps.map((p) => p.job_id)),
        known.blockedJobIds ?? matchmaking.listBlockedPairs([entry.user_id]).then((ps) => ps.map((p) => p.job_id)),
      ]);
      const liveIds = scope.filter((e) => e.status === 'live').map((e) => e.id);
      const jobs = await jobsOf(liveIds, known.jobsStamp);
      const explanation = explainWait({
        nowMs,
        entry: {
          enteredAtMs: entry.entered_at.getTime(),
          liveEventId: entry.live_event_id,
          seeker: seekerForScore(profile),
          position,
          offering,
        },
        events: scope,
        jobs: jobs.map((j) => ({
          id: j.id,
          liveEventId: j.live_event_id,
          title: j.title ?? '',
          ...jobForScore(j),
        })),
        excludedJobIds: new Set([...tried, ...blocked]),
        brackets: deps.config.MATCH_FLOOR_BRACKETS,
      });
      const rate =
        explanation.passingJobIds.length && explanation.blocker !== null
          ? await rateOf(explanation.passingJobIds, known.matchesStamp)
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
