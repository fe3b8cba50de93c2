import type { Knex } from 'knex';

/** One available recruiter of an event, as the round-robin of `holdSlotsOfEvents` counts them. */
export interface RecruiterTurn {
  userId: string;
  free: number;
  lastOfferedAtMs: number;
  /** Offers given in this transaction, in order (after every earlier one). */
  turn: number;
}

/**
 * An event's available recruiters and their free capacity, read under the event's lock (their
 * open offers at this event), by event; events without availability rows (event-level capacity
 * only) are absent. One statement for several events. Decision 0123.
 */
export async function recruitersOfEvents(trx: Knex, eventIds: string[]): Promise<Map<string, RecruiterTurn[]>> {
  const out = new Map<string, RecruiterTurn[]>();
  if (!eventIds.length) return out;
  const { rows } = await trx.raw<{
    rows: Array<{
      live_event_id: string;
      user_id: string;
      available: boolean;
      capacity: number;
      last_ms: string | null;
      active: number;
    }>;
  }>(
    `SELECT r.live_event_id, r.user_id, r.available, r.capacity, (extract(epoch FROM r.last_offered_at) * 1000)::bigint AS last_ms,
            (SELECT count(*)::int FROM match_offers o WHERE o.live_event_id = r.live_event_id AND o.recruiter_user_id = r.user_id AND o.status IN ('offering', 'started')) AS active
       FROM recruiter_availability r WHERE r.live_event_id = ANY(?::uuid[])`,
    [eventIds],
  );
  for (const r of rows) {
    const list = out.get(r.live_event_id) ?? [];
    out.set(r.live_event_id, list);
    if (r.available)
      list.push({
        userId: r.user_id,
        free: Math.max(0, r.capacity - r.active),
        lastOfferedAtMs: r.last_ms === null ? -1 : Number(r.last_ms),
        turn: 0,
      });
  }
  return out;
}

/** Least recent offer first (never offered: first of all), ties by user id; only recruiters with room. */
export function nextRecruiter(recruiters: RecruiterTurn[]): RecruiterTurn | null {
  let best: RecruiterTurn | null = null;
  for (const r of recruiters) {
    if (r.free <= 0) continue;
    if (
      !best ||
      r.turn < best.turn ||
      (r.turn === best.turn &&
        (r.lastOfferedAtMs < best.lastOfferedAtMs ||
          (r.lastOfferedAtMs === best.lastOfferedAtMs && r.userId < best.userId)))
    )
      best = r;
  }
  return best;
}
