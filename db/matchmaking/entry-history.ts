import type { Knex } from 'knex';
import type { MatchOfferStatus } from './matchmaking-rows';

/**
 * A row of `matches` (unaliased columns) whose (seeker, job) pair is never offered again: see
 * `listBlockedPairs`. The status read selects the same pairs (queue-status-repository.ts).
 */
export const BLOCKED_MATCH_SQL =
  `((status IN ('declined', 'accepted', 'completed') OR declined_at IS NOT NULL OR accepted_at IS NOT NULL)` +
  ` AND NOT (status = 'no_show' AND no_show_missing = 'recruiter'))`;
/** Offer states of an (entry, job) pair already tried: see `listTriedPairs`. */
export const TRIED_OFFER_STATUSES: readonly MatchOfferStatus[] = ['started', 'closed'];

/**
 * (seeker, job) pairs never offered again, whatever queue entry the seeker waits in: an earlier
 * match of the pair was declined (by either side) or reached the interview (accepted or
 * completed — the report card's "passed" is a completed interview). A recruiter's no-show is
 * not held against the seeker: that pair may be offered again.
 */
export async function readBlockedPairs(
  trx: Knex,
  seekerUserIds: string[],
): Promise<Array<{ seeker_user_id: string; job_id: string }>> {
  if (!seekerUserIds.length) return [];
  return trx('matches')
    .whereIn('seeker_user_id', seekerUserIds)
    .andWhereRaw(BLOCKED_MATCH_SQL)
    .distinct('seeker_user_id', 'job_id');
}

/** What an entry (or its seeker) was already offered, tried or declined: the pairs a round leaves out. */
export function createEntryHistoryQueries(knex: Knex) {
  return {
    /** The entry has an offer being made to it (`offering`): the round skips it until the offer is answered. */
    async hasOpenOffer(entryId: string, trx: Knex = knex): Promise<boolean> {
      return !!(await trx('match_offers').where({ queue_entry_id: entryId, status: 'offering' }).first('id'));
    },

    /**
     * (entry, job) pairs already tried: their match was started (and has ended or is ending, since
     * the entry waits again) or closed (declined, expired). Not proposed again.
     */
    async listTriedPairs(
      entryIds: string[],
      trx: Knex = knex,
    ): Promise<Array<{ queue_entry_id: string; job_id: string }>> {
      if (!entryIds.length) return [];
      return trx('match_offers')
        .whereIn('queue_entry_id', entryIds)
        .whereIn('status', TRIED_OFFER_STATUSES)
        .select('queue_entry_id', 'job_id');
    },

    /** See `readBlockedPairs`. */
    async listBlockedPairs(
      seekerUserIds: string[],
      trx: Knex = knex,
    ): Promise<Array<{ seeker_user_id: string; job_id: string }>> {
      return readBlockedPairs(trx, seekerUserIds);
    },

    /** Per entry, how often its seeker declined for a tunable reason (salary, location) in this entry. */
    async listSeekerDeclineCodes(
      entryIds: string[],
      trx: Knex = knex,
    ): Promise<Array<{ queue_entry_id: string; code: string; n: number }>> {
      if (!entryIds.length) return [];
      const rows = await trx('matches')
        .whereIn('queue_entry_id', entryIds)
        .andWhere({ declined_by_role: 'seeker' })
        .whereIn('decline_reason_code', ['salary', 'location'])
        .groupBy('queue_entry_id', 'decline_reason_code')
        .select('queue_entry_id', 'decline_reason_code as code', trx.raw('count(*)::int as n'));
      return rows.map((r: { queue_entry_id: string; code: string; n: number }) => ({ ...r, n: Number(r.n) }));
    },
  };
}
