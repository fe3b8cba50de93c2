import type { Knex } from 'knex';
import type { QueueRepository } from '#db/queue/queue-repository';
import type { MatchesRepository } from '#db/matches/matches-repository';
import type { QueueEntryState } from '#workflows/queue/contract';
import { domainMetrics } from '#lib/metrics';

export interface ProjectQueueEntryInput {
  state: QueueEntryState;
  endedAtMs: number | null;
}
export type ProjectQueueEntryResult = void;

export function createQueueActivities(deps: {
  knex: Knex;
  queueRepository: QueueRepository;
  matchesRepository: Pick<MatchesRepository, 'seedFromOffer'>;
  matchAcceptWindowMs: number;
}) {
  return {
    /**
     * Writes the workflow's state to PostgreSQL (idempotent upsert: safe to retry). An entry that
     * says `matched` is written in one transaction with its match row (seeded from the offer unless
     * the match workflow wrote it first), so the match exists before any answer names it.
     */
    async projectQueueEntry({ state, endedAtMs }: ProjectQueueEntryInput): Promise<ProjectQueueEntryResult> {
      const { matchId } = state;
      if (state.status === 'matched' && matchId && !state.finished) {
        await deps.knex.transaction(async (trx) => {
          await deps.matchesRepository.seedFromOffer(matchId, deps.matchAcceptWindowMs, trx);
          await upsert(state, endedAtMs, trx);
        });
        // An offer made: the entry is matched once per offer (a retried projection may count it again).
        domainMetrics.offersMade.inc();
        domainMetrics.timeToMatch.observe(Math.max(0, Date.now() - state.enteredAtMs) / 1000);
      } else {
        await upsert(state, endedAtMs);
      }
    },
  };

  async function upsert(state: QueueEntryState, endedAtMs: number | null, trx?: Knex): Promise<void> {
    await deps.queueRepository.upsert(
      {
        id: state.queueId,
        user_id: state.userId,
        status: state.status,
        live_event_id: state.liveEventId,
        live_event_slug: state.liveEventSlug,
        agent_identity: state.agentIdentity,
        via_agent: state.viaAgent,
        match_id: state.matchId,
        job_ids: state.jobIds,
        end_reason: state.endReason,
        entered_at: new Date(state.enteredAtMs).toISOString(),
        expires_at: new Date(state.expiresAtMs).toISOString(),
        ended_at: endedAtMs ? new Date(endedAtMs).toISOString() : null,
      },
      trx,
    );
  }
}
