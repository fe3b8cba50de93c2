import type { Knex } from 'knex';

/**
 * The queue's read model beyond the entry itself: the wait estimate's match rates. What blocks a
 * waiting entry is read with the matchmaker's own queries (apps/api/src/matchmaking/wait-service.ts).
 */
export function createQueueStatusRepository(knex: Knex) {
  return {
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
