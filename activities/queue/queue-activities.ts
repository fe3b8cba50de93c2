import type { QueueRepository } from '../../db/queue/queue-repository';
import type { QueueEntryState } from '../../workflows/queue/contract';

export interface ProjectQueueEntryInput {
  state: QueueEntryState;
  endedAtMs: number | null;
}
export type ProjectQueueEntryResult = void;

export function createQueueActivities(deps: { queueRepository: QueueRepository }) {
  return {
    /** Writes the workflow's state to PostgreSQL (idempotent upsert: safe to retry). */
    async projectQueueEntry({ state, endedAtMs }: ProjectQueueEntryInput): Promise<ProjectQueueEntryResult> {
      await deps.queueRepository.upsert({
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
      });
    },
  };
}
