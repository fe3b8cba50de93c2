import type { Knex } from 'knex';
import { createClaimOfferQueries } from './claim-offer';
import { createEntryHistoryQueries } from './entry-history';
import { createEventRoomQueries } from './event-room';
import { createHoldSlotsQueries } from './hold-slots';
import { createOfferLifecycleQueries } from './offer-lifecycle';
import { createRoundReadQueries } from './round-reads';

export type {
  EventRoom,
  EventWithRoom,
  HoldResult,
  MatchOfferInsert,
  MatchOfferStatus,
  OfferContext,
  OpenJob,
  WaitingCandidate,
} from './matchmaking-rows';
export { BLOCKED_MATCH_SQL, TRIED_OFFER_STATUSES } from './entry-history';

/**
 * The matchmaker's tables and queries. `match_offers` is written only by the matching activity;
 * the rest is read (queue entries and matches are other workflows' projections, events and jobs
 * descriptive records). The round reads everything it plans from without locks; only
 * `holdSlotsOfEvents` locks, in one short transaction for the round's planned events (decision
 * 0190): the events `FOR NO KEY UPDATE SKIP LOCKED` (the capacity check and the inserts
 * are serialised per event; go-live/end projections wait for a few milliseconds at most) and the
 * planned entries `FOR UPDATE SKIP LOCKED` (a seeker another round is offering is skipped).
 * One module per group of queries: `event-room.ts`, `round-reads.ts`, `entry-history.ts`,
 * `hold-slots.ts` (with `recruiter-turns.ts`), `offer-lifecycle.ts`, `claim-offer.ts`.
 */
export function createMatchmakingRepository(knex: Knex) {
  return {
    ...createEventRoomQueries(knex),
    ...createRoundReadQueries(knex),
    ...createEntryHistoryQueries(knex),
    ...createHoldSlotsQueries(knex),
    ...createOfferLifecycleQueries(knex),
    ...createClaimOfferQueries(knex),
  };
}
export type MatchmakingRepository = ReturnType<typeof createMatchmakingRepository>;
