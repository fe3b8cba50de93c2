import type { Knex } from 'knex';
import type { ProfileRow } from '#db/accounts/profiles-repository';
import type { LiveEventRow } from '#db/events/events-repository';
import { BLOCKED_MATCH_SQL, TRIED_OFFER_STATUSES } from '#db/matchmaking/matchmaking-repository';
import { POSITION_OF_E, type QueueEntryRow } from './queue-repository';

/** What a seeker's status read needs of their own rows, read in one statement (`readLatest`). */
export interface EntryReading {
  entry: QueueEntryRow;
  /** Null when the entry is not waiting. */
  position: number | null;
  /** The fields of the seeker's profile the wait explanation reads (null: no profile, or not waiting). */
  profile: Pick<
    ProfileRow,
    'user_id' | 'skills' | 'experience_years' | 'location' | 'remote_preference' | 'salary_expectation'
  > | null;
  /** An offer is being made to the entry (`offering`). */
  offering: boolean;
  /** Jobs already tried by this entry (`listTriedPairs`) or never offered to this seeker again (`listBlockedPairs`). */
  triedJobIds: string[];
  blockedJobIds: string[];
  /** The entry's event as it is now (null: "any event", or not waiting). */
  event: {
    id: string;
    slug: string;
    status: LiveEventRow['status'];
    match_min_score: number | null;
    match_require_essential: boolean | null;
    match_relax_essential: boolean | null;
    match_allow_remote_mismatch: boolean | null;
  } | null;
  /**
   * Stamps of the queue's shared rows (null when not waiting): the open jobs of its events (their
   * `matching_job_versions` counters, summed with the epoch: any change of a job moves it) and its
   * matches (`matches_made` of its events). A reading kept with the same stamps is still true.
   */
  jobsStamp: number | null;
  matchesStamp: number | null;
}

type ReadingRow = QueueEntryRow & {
  view_position: number | null;
  view_profile_user_id: string | null;
  view_skills: string[] | null;
  view_experience_years: number | null;
  view_location: string | null;
  view_remote_preference: ProfileRow['remote_preference'];
  view_salary_expectation: number | null;
  view_offering: boolean | null;
  view_tried: string[] | null;
  view_blocked: string[] | null;
  view_ev_id: string | null;
  view_ev_slug: string | null;
  view_ev_status: LiveEventRow['status'] | null;
  view_ev_match_min_score: number | null;
  view_ev_match_require_essential: boolean | null;
  view_ev_match_relax_essential: boolean | null;
  view_ev_match_allow_remote_mismatch: boolean | null;
  view_jobs_stamp: number | null;
  view_matches_stamp: number | null;
};

/** The live open-invite events: the scope of an "any event" entry. */
const OPEN_LIVE = `SELECT id FROM live_events WHERE status = 'live' AND visibility = 'open_invite'`;

/**
 * The seeker's latest entry with what its waiting answer needs (see `readLatest`): one statement,
 * one snapshot. Parameters: the user id, the tried offer states.
 */
const LATEST_READING_SQL = `WITH e AS (SELECT * FROM queue_entries WHERE user_id = ? ORDER BY entered_at DESC LIMIT 1)
   SELECT e.*, ${POSITION_OF_E} AS view_position,
          p.user_id AS view_profile_user_id, p.skills AS view_skills, p.experience_years AS view_experience_years,
          p.location AS view_location, p.remote_preference AS view_remote_preference,
          p.salary_expectation AS view_salary_expectation,
          CASE WHEN e.status = 'waiting' THEN EXISTS (
            SELECT 1 FROM match_offers o WHERE o.queue_entry_id = e.id AND o.status = 'offering') END AS view_offering,
          CASE WHEN e.status = 'waiting' THEN ARRAY(
            SELECT o.job_id FROM match_offers o WHERE o.queue_entry_id = e.id AND o.status = ANY(?::text[])) END AS view_tried,
          CASE WHEN e.status = 'waiting' THEN ARRAY(
            SELECT DISTINCT job_id FROM matches WHERE seeker_user_id = e.user_id AND ${BLOCKED_MATCH_SQL}) END AS view_blocked,
          ev.id AS view_ev_id, ev.slug AS view_ev_slug, ev.status AS view_ev_status,
          ev.match_min_score AS view_ev_match_min_score, ev.match_require_essential AS view_ev_match_require_essential,
          ev.match_relax_essential AS view_ev_match_relax_essential,
          ev.match_allow_remote_mismatch AS view_ev_match_allow_remote_mismatch,
          CASE WHEN e.status = 'waiting' THEN (
            SELECT coalesce(sum(v.version), 0)::bigint FROM matching_job_versions v
             WHERE v.live_event_id = '00000000-0000-0000-0000-000000000000'
                OR v.live_event_id = e.live_event_id
                OR (e.live_event_id IS NULL AND v.live_event_id IN (${OPEN_LIVE}))) END AS view_jobs_stamp,
          CASE WHEN e.status <> 'waiting' THEN NULL
               WHEN e.live_event_id IS NULL THEN (
                 SELECT coalesce(sum(matches_made), 0)::bigint FROM live_events WHERE id IN (${OPEN_LIVE}))
               ELSE ev.matches_made::bigint END AS view_matches_stamp
     FROM e LEFT JOIN profiles p ON p.user_id = e.user_id AND e.status = 'waiting'
            LEFT JOIN live_events ev ON ev.id = e.live_event_id AND e.status = 'waiting'`;

/** The profile fields of a waiting entry's reading (null: no profile, or not waiting). */
function readingProfile(r: ReadingRow, waiting: boolean): EntryReading['profile'] {
  return waiting && r.view_profile_user_id !== null
    ? {
        user_id: r.view_profile_user_id,
        skills: r.view_skills ?? [],
        experience_years: r.view_experience_years ?? 0,
        location: r.view_location,
        remote_preference: r.view_remote_preference,
        salary_expectation: r.view_salary_expectation,
      }
    : null;
}

/** The entry's event as read (null: "any event", or not waiting). */
function readingEvent(r: ReadingRow): EntryReading['event'] {
  return r.view_ev_id !== null
    ? {
        id: r.view_ev_id,
        slug: r.view_ev_slug!,
        status: r.view_ev_status!,
        match_min_score: r.view_ev_match_min_score,
        match_require_essential: r.view_ev_match_require_essential,
        match_relax_essential: r.view_ev_match_relax_essential,
        match_allow_remote_mismatch: r.view_ev_match_allow_remote_mismatch,
      }
    : null;
}

/** The row of `LATEST_READING_SQL` as the reading: the entry's own columns, and the rest by name. */
function toReading(r: ReadingRow): EntryReading {
  const {
    view_position,
    view_profile_user_id: _profileUserId,
    view_skills: _skills,
    view_experience_years: _experienceYears,
    view_location: _location,
    view_remote_preference: _remotePreference,
    view_salary_expectation: _salaryExpectation,
    view_offering,
    view_tried,
    view_blocked,
    view_ev_id: _evId,
    view_ev_slug: _evSlug,
    view_ev_status: _evStatus,
    view_ev_match_min_score: _evMinScore,
    view_ev_match_require_essential: _evRequireEssential,
    view_ev_match_relax_essential: _evRelaxEssential,
    view_ev_match_allow_remote_mismatch: _evAllowRemoteMismatch,
    view_jobs_stamp,
    view_matches_stamp,
    ...entry
  } = r;
  const waiting = view_position !== null;
  return {
    entry,
    position: view_position,
    profile: readingProfile(r, waiting),
    offering: !!view_offering,
    triedJobIds: view_tried ?? [],
    blockedJobIds: view_blocked ?? [],
    event: readingEvent(r),
    jobsStamp: view_jobs_stamp === null ? null : Number(view_jobs_stamp),
    matchesStamp: view_matches_stamp === null ? null : Number(view_matches_stamp),
  };
}

/**
 * The queue's read model beyond the entry itself: the wait estimate's match rates. What blocks a
 * waiting entry is read with the matchmaker's own queries (apps/api/src/matchmaking/wait-service.ts).
 */
export function createQueueStatusRepository(knex: Knex) {
  return {
    /**
     * The seeker's latest entry (as `findLatestForUser`) with, while it waits, its position
     * (`positionOf`), the profile fields, whether an offer is being made (`hasOpenOffer`), and the
     * tried and blocked jobs (the matchmaker's `listTriedPairs` and `listBlockedPairs` conditions),
     * its event's row, and the stamps that say whether the queue's jobs and matches have changed:
     * one statement, one snapshot, instead of seven. A status poll is most of the API's reads.
     */
    async readLatest(userId: string, trx: Knex = knex): Promise<EntryReading | undefined> {
      const { rows } = await trx.raw<{ rows: ReadingRow[] }>(LATEST_READING_SQL, [userId, [...TRIED_OFFER_STATUSES]]);
      const r = rows[0];
      return r ? toReading(r) : undefined;
    },

    /** Matches made in the window for these jobs (the estimate's rate: only jobs the seeker can get). */
    async recentMatchRateForJobs(
      jobIds: string[],
      windowMs: number,
      trx: Knex = knex,
    ): Promise<{ count: number; firstAtMs: number | null; nowMs: number }> {
      const { rows } = await trx.raw<{ rows: Array<{ count: number; first_ms: string | null; now_ms: string }> }>(
        `SELECT count(*)::int AS count, (extract(epoch FROM min(m.created_at)) * 1000)::bigint AS first_ms, (extract(epoch FROM now()) * 1000)::bigint AS now_ms
           FROM matches m WHERE m.job_id = ANY(?::uuid[]) AND m.created_at > now() - make_interval(secs => ?)`,
        [jobIds, windowMs / 1000],
      );
      const r = rows[0];
      return {
        count: Number(r.count),
        firstAtMs: r.first_ms === null ? null : Number(r.first_ms),
        nowMs: Number(r.now_ms),
      };
    },

    /**
     * Matches made for one queue (an event's queue, or the "any event" queue when null) within the
     * window: how many, and when the first of them was made.
     */
    async recentMatchRate(
      queueLiveEventId: string | null,
      windowMs: number,
      trx: Knex = knex,
    ): Promise<{ count: number; firstAtMs: number | null; nowMs: number }> {
      // Matches, not offers: a match row exists from the moment its entry says `matched` (decision 0120).
      const { rows } = await trx.raw<{ rows: Array<{ count: number; first_ms: string | null; now_ms: string }> }>(
        `SELECT count(*)::int AS count, (extract(epoch FROM min(m.created_at)) * 1000)::bigint AS first_ms, (extract(epoch FROM now()) * 1000)::bigint AS now_ms
           FROM matches m JOIN queue_entries q ON q.id = m.queue_entry_id
          WHERE q.live_event_id IS NOT DISTINCT FROM ?::uuid AND m.created_at > now() - make_interval(secs => ?)`,
        [queueLiveEventId, windowMs / 1000],
      );
      const r = rows[0];
      return {
        count: Number(r.count),
        firstAtMs: r.first_ms === null ? null : Number(r.first_ms),
        nowMs: Number(r.now_ms),
      };
    },
  };
}
export type QueueStatusRepository = ReturnType<typeof createQueueStatusRepository>;
