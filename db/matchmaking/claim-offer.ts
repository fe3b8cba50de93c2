import type { Knex } from 'knex';

/** An accepted match's slot moving to the recruiter who accepted it. */
export function createClaimOfferQueries(knex: Knex) {
  return {
    /**
     * A recruiter of the team accepts a match: its interview slot moves to them (decision 0244), so
     * the slot counts against the interviewer, not the recruiter it was offered to. Under the event's
     * lock, as `holdSlotsOfEvents` counts: at an event with recruiter availability the accepter needs
     * a free slot (offers naming them, being made or started, below their capacity; no row of their
     * own: the smallest capacity, 1); `available: false` only stops new offers, not their own choice.
     * At an event without availability only the event's slots count, and this offer already holds one.
     * Idempotent: an offer already naming the accepter answers ok. No offer (a match not made by the
     * matchmaker): ok, nothing to count.
     */
    async claimOfferForRecruiter(
      matchId: string,
      userId: string,
    ): Promise<{ ok: boolean; active?: number; capacity?: number }> {
      return knex.transaction(async (trx) => {
        const offer: { live_event_id: string; recruiter_user_id: string | null } | undefined = await trx('match_offers')
          .where({ id: matchId })
          .first('live_event_id', 'recruiter_user_id');
        if (!offer || offer.recruiter_user_id === userId) return { ok: true };
        await trx('live_events').where({ id: offer.live_event_id }).forNoKeyUpdate().first('id');
        const rows: Array<{ user_id: string; capacity: number }> = await trx('recruiter_availability')
          .where({ live_event_id: offer.live_event_id })
          .select('user_id', 'capacity');
        if (rows.length) {
          const capacity = rows.find((r) => r.user_id === userId)?.capacity ?? 1;
          const [{ n }] = await trx('match_offers')
            .where({ live_event_id: offer.live_event_id, recruiter_user_id: userId })
            .whereIn('status', ['offering', 'started'])
            .whereNot({ id: matchId })
            .count<{ n: string }[]>({ n: '*' });
          const active = Number(n);
          if (active >= capacity) return { ok: false, active, capacity };
        }
        await trx('match_offers')
          .where({ id: matchId })
          .update({ recruiter_user_id: userId, updated_at: trx.fn.now() });
        return { ok: true };
      });
    },
  };
}
