import type { Knex } from 'knex';
import type { OfferContext } from './matchmaking-rows';

/** A held offer's way on: its context for the match workflow, its outcome, and the clean-up of finished or stale ones. */
export function createOfferLifecycleQueries(knex: Knex) {
  return {
    /** Offers whose match has ended free their slot. */
    async closeFinishedOffers(trx: Knex = knex): Promise<number> {
      return trx('match_offers as o')
        .update({ status: 'closed', updated_at: trx.fn.now() })
        .where('o.status', 'started')
        .whereExists(
          trx('matches as m')
            .whereRaw('m.id = o.id')
            .whereIn('m.status', ['declined', 'expired', 'completed', 'no_show']),
        );
    },

    /** Offers left `offering` by a round that died before asking the entry (or starting the match). */
    async listStaleOfferIds(olderThanMs: number, limit: number, trx: Knex = knex): Promise<string[]> {
      const rows = await trx('match_offers')
        .where({ status: 'offering' })
        .andWhere('updated_at', '<', trx.raw(`now() - make_interval(secs => ?)`, [olderThanMs / 1000]))
        .orderBy('created_at')
        .limit(limit)
        .select('id');
      return rows.map((r: { id: string }) => r.id);
    },

    async loadOfferContexts(ids: string[], trx: Knex = knex): Promise<OfferContext[]> {
      if (!ids.length) return [];
      return (
        trx('match_offers as o')
          .join('jobs as j', 'j.id', 'o.job_id')
          .join('live_events as e', 'e.id', 'o.live_event_id')
          .leftJoin('profiles as p', 'p.user_id', 'o.seeker_user_id')
          .leftJoin('queue_entries as q', 'q.id', 'o.queue_entry_id')
          // Names for the match's start summary in the Temporal UI (never e-mail addresses).
          .leftJoin('users as su', 'su.id', 'o.seeker_user_id')
          .leftJoin('users as ru', 'ru.id', 'o.recruiter_user_id')
          .whereIn('o.id', ids)
          .orderBy('o.entered_at')
          .select(
            'o.id',
            'o.status',
            'o.queue_entry_id',
            'o.seeker_user_id',
            'o.job_id',
            'j.title as job_title',
            'o.live_event_id',
            'e.slug as live_event_slug',
            'o.team_id',
            'o.recruiter_user_id',
            'o.match_score',
            'o.score_breakdown',
            'o.score_version',
            'p.title as seeker_headline',
            trx.raw('coalesce(q.via_agent, false) as seeker_via_agent'),
            'q.agent_identity as seeker_agent_identity',
            'o.created_at',
            trx.raw('coalesce(p.full_name, su.display_name) as seeker_name'),
            'e.company_name',
            'ru.display_name as recruiter_name',
          )
      );
    },

    /**
     * The outcomes of a round's offers in one statement (decision 0236): `started` (the match
     * workflow runs), `refused` (with its reason: the slot is free again) or `touched` (left for the
     * next round, updated_at bumped so it counts as fresh). Only offers still `offering` change, as
     * with `markStarted` / `markRefused` / `touchOffer` one by one.
     */
    async recordOfferOutcomes(
      outcomes: Array<{ id: string; status: 'started' | 'refused' | 'touched'; reason?: string }>,
      trx: Knex = knex,
    ): Promise<void> {
      if (!outcomes.length) return;
      await trx.raw(
        `UPDATE match_offers o
            SET status = CASE WHEN v.status = 'touched' THEN o.status ELSE v.status END,
                refusal_reason = CASE WHEN v.status = 'refused' THEN v.reason ELSE o.refusal_reason END,
                updated_at = now()
           FROM unnest(?::uuid[], ?::text[], ?::text[]) AS v(id, status, reason)
          WHERE o.id = v.id AND o.status = 'offering'`,
        [
          outcomes.map((o) => o.id),
          outcomes.map((o) => o.status),
          outcomes.map((o) => (o.reason === undefined ? null : o.reason.slice(0, 500))) as string[],
        ],
      );
    },
  };
}
