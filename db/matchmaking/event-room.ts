import type { Knex } from 'knex';
import type { EventRoom, EventWithRoom } from './matchmaking-rows';

/** The room of live events, as a round counts it. */
export function createEventRoomQueries(knex: Knex) {
  return {
    /**
     * Live events that can take a match now (open jobs, a free slot), read without locks, and how
     * many events are live. Free = `interview_slots` − offers being made − matches started and not
     * ended (the same count `holdSlots` re-checks under the event lock).
     */
    async listEventsWithRoom(
      trx: Knex = knex,
      onlyEventId?: string,
    ): Promise<{ live: number; liveIds: string[]; withRoom: EventWithRoom[]; rooms: EventRoom[] }> {
      const rows: EventRoom[] = (
        await trx.raw(
          `SELECT e.id, e.slug, e.visibility, e.interview_slots, e.match_min_score, e.match_require_essential,
                  e.match_relax_essential, e.match_allow_remote_mismatch,
                  CASE WHEN ra.recruiters > 0 THEN least(e.interview_slots - coalesce(h.n, 0), ra.recruiter_free)
                       ELSE e.interview_slots - coalesce(h.n, 0) END AS free,
                  e.interview_slots - coalesce(h.n, 0) AS slots_free, coalesce(ra.recruiters, 0) AS recruiters,
                  coalesce(ra.recruiters_available, 0) AS recruiters_available, coalesce(ra.recruiter_free, 0) AS recruiter_free,
                  EXISTS (SELECT 1 FROM jobs j WHERE j.live_event_id = e.id AND j.status = 'open') AS has_jobs
             FROM live_events e
             LEFT JOIN (SELECT live_event_id, count(*)::int AS n FROM match_offers WHERE status IN ('offering', 'started') GROUP BY live_event_id) h
               ON h.live_event_id = e.id
             -- Events with recruiter availability: room is also what the available recruiters can still take.
             LEFT JOIN LATERAL (
               SELECT count(*)::int AS recruiters, count(*) FILTER (WHERE r.available)::int AS recruiters_available,
                      coalesce(sum(CASE WHEN r.available THEN greatest(r.capacity - coalesce(a.n, 0), 0) ELSE 0 END), 0)::int AS recruiter_free
                 FROM recruiter_availability r
                 LEFT JOIN (SELECT recruiter_user_id, count(*)::int AS n FROM match_offers
                             WHERE live_event_id = e.id AND status IN ('offering', 'started') GROUP BY recruiter_user_id) a
                   ON a.recruiter_user_id = r.user_id
                WHERE r.live_event_id = e.id) ra ON true
            WHERE e.status = 'live' AND (?::uuid IS NULL OR e.id = ?::uuid)`,
          [onlyEventId ?? null, onlyEventId ?? null],
        )
      ).rows;
      const rooms = rows.map((r) => ({
        ...r,
        free: Number(r.free),
        slots_free: Number(r.slots_free),
        recruiters: Number(r.recruiters),
        recruiters_available: Number(r.recruiters_available),
        recruiter_free: Number(r.recruiter_free),
      }));
      return {
        live: rows.length,
        liveIds: rows.map((r) => r.id),
        withRoom: rooms
          .filter((r) => r.has_jobs && r.free > 0)
          .map(
            ({
              slug: _slug,
              has_jobs: _j,
              slots_free: _s,
              recruiters: _r,
              recruiters_available: _a,
              recruiter_free: _f,
              ...r
            }): EventWithRoom => r,
          ),
        rooms,
      };
    },
  };
}
