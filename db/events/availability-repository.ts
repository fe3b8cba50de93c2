import type { Knex } from 'knex';

/** Bounds of a recruiter's concurrent-interview capacity at one event (the table's CHECK). */
export const RECRUITER_CAPACITY_MIN = 1;
export const RECRUITER_CAPACITY_MAX = 50;

export interface RecruiterAvailabilityRow {
  live_event_id: string;
  user_id: string;
  display_name: string;
  available: boolean;
  capacity: number;
  /** Offers being made and matches started, not ended, that name this recruiter at this event. */
  active: number;
  last_offered_at: Date | null;
  updated_at: Date;
}

/** An event's quality floor settings (null: the default). */
export interface EventFloorRow {
  match_min_score: number | null;
  match_require_essential: boolean | null;
  /** Relaxed brackets may lift the essential-skill rule (default false). */
  match_relax_essential: boolean | null;
  /** Pairs whose remote modes cannot meet may be offered (default false). */
  match_allow_remote_mismatch: boolean | null;
}

/**
 * Recruiters' availability per event (decision 0123): a descriptive record the
 * API writes (the recruiter's own setting); the matchmaker reads it under the event's lock.
 */
export function createAvailabilityRepository(knex: Knex) {
  const list = (trx: Knex, eventId: string) =>
    trx('recruiter_availability as r')
      .join('users as u', 'u.id', 'r.user_id')
      .where('r.live_event_id', eventId)
      .select(
        'r.live_event_id',
        'r.user_id',
        'u.display_name',
        'r.available',
        'r.capacity',
        'r.last_offered_at',
        'r.updated_at',
        trx.raw(
          `(SELECT count(*)::int FROM match_offers o WHERE o.live_event_id = r.live_event_id AND ` +
            `o.recruiter_user_id = r.user_id AND o.status IN ('offering', 'started')) AS active`,
        ),
      );
  return {
    async listForEvent(eventId: string, trx: Knex = knex): Promise<RecruiterAvailabilityRow[]> {
      return list(trx, eventId).orderBy([{ column: 'u.display_name' }, { column: 'r.user_id' }]);
    },
    async findOne(eventId: string, userId: string, trx: Knex = knex): Promise<RecruiterAvailabilityRow | undefined> {
      return list(trx, eventId).andWhere('r.user_id', userId).first();
    },
    /** The event's quality floor (null: the configured default). */
    async findFloor(eventId: string, trx: Knex = knex): Promise<EventFloorRow | undefined> {
      return trx('live_events')
        .where({ id: eventId })
        .first('match_min_score', 'match_require_essential', 'match_relax_essential', 'match_allow_remote_mismatch');
    },
    async setFloor(eventId: string, fields: Partial<EventFloorRow>, trx: Knex = knex): Promise<void> {
      if (Object.keys(fields).length)
        await trx('live_events')
          .where({ id: eventId })
          .update({ ...fields, updated_at: trx.fn.now() });
    },
    /** The recruiter's own setting; the round-robin position (last_offered_at) is kept. */
    async upsert(
      eventId: string,
      userId: string,
      fields: { available: boolean; capacity: number },
      trx: Knex = knex,
    ): Promise<void> {
      await trx('recruiter_availability')
        .insert({ live_event_id: eventId, user_id: userId, ...fields, updated_at: trx.fn.now() })
        .onConflict(['live_event_id', 'user_id'])
        .merge(['available', 'capacity', 'updated_at']);
    },
  };
}
export type AvailabilityRepository = ReturnType<typeof createAvailabilityRepository>;
