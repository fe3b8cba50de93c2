import type { Knex } from 'knex';
import type { MatchmakingRepository } from '../matchmaking/matchmaking-repository';

/**
 * The queue's read model beyond the entry itself: what a waiting entry's status shows (its match
 * outlook and the wait estimate's inputs). Free slots are counted as the matchmaker counts them.
 */
export function createQueueStatusRepository(
  knex: Knex,
  matchmaking: Pick<MatchmakingRepository, 'listEventsWithRoom'>,
) {
  return {
    /**
     * Open jobs a waiting entry can still be offered (the queue's `match_outlook`): in its scope (its
     * event, or the live open-invite events for "any event"), not a pair the seeker declined or
     * interviewed for, not tried by this entry, and — where the loosest floor bracket still requires
     * it — sharing an essential skill. The score floor is left to the matchmaker (decision 0124).
     * At most `limit` ids.
     */
    async listEligibleJobIds(
      entry: { id: string; user_id: string; live_event_id: string | null },
      opts: { skills: string[]; essentialRequiredAtLast: boolean; limit: number },
      trx: Knex = knex,
    ): Promise<string[]> {
      const { rows } = await trx.raw<{ rows: Array<{ id: string }> }>(
        `SELECT j.id FROM jobs j JOIN live_events e ON e.id = j.live_event_id
          WHERE j.status = 'open'
            AND (CASE WHEN ?::uuid IS NULL THEN e.visibility = 'open_invite' AND e.status = 'live' ELSE e.id = ?::uuid AND e.status IN ('live', 'paused') END)
            AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.seeker_user_id = ? AND m.job_id = j.id
                              AND (m.status IN ('declined', 'accepted', 'completed') OR m.declined_at IS NOT NULL OR m.accepted_at IS NOT NULL)
                              AND NOT (m.status = 'no_show' AND m.no_show_missing = 'recruiter'))
            AND NOT EXISTS (SELECT 1 FROM match_offers o WHERE o.queue_entry_id = ? AND o.job_id = j.id AND o.status IN ('started', 'closed'))
            AND (NOT (coalesce(e.match_require_essential, true) AND ?::boolean) OR cardinality(j.essential_skills) = 0
                 OR EXISTS (SELECT 1 FROM unnest(j.essential_skills) s WHERE lower(btrim(s)) = ANY(?::text[])))
          LIMIT ?`,
        [
          entry.live_event_id,
          entry.live_event_id,
          entry.user_id,
          entry.id,
          opts.essentialRequiredAtLast,
          opts.skills.map((k) => k.trim().toLowerCase()),
          opts.limit,
        ],
      );
      return rows.map((r) => r.id);
    },

    /** Free interview slots of one event now (the same count the round plans with; recruiter capacity included). */
    async freeSlotsOf(eventId: string, trx: Knex = knex): Promise<number> {
      // Only this event's row: computing every live event's on each status poll cost ~20 ms at 600 live events.
      const { withRoom } = await matchmaking.listEventsWithRoom(trx, eventId);
      return withRoom.find((e) => e.id === eventId)?.free ?? 0;
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
