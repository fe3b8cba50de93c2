/**
 * Contract of the queue capability: workflow ids and the Input/Result types the API
 * uses to start and message the queueEntry workflow. Pure: imported by workflows and the API.
 */
export const queueEntryWorkflowId = (userId: string): string => `queue-entry:${userId}`;

export type QueueEntryStatus = 'waiting' | 'matched' | 'left' | 'expired';

export interface QueueEntryInput {
  queueId: string;
  userId: string;
  liveEventId: string | null;
  liveEventSlug: string | null;
  agentIdentity: string | null;
  viaAgent: boolean;
  /** Epoch ms when the entry was created (the API's clock; kept for ordering "oldest first"). */
  enteredAtMs: number;
  ttlMs: number;
}

export interface QueueEntryState {
  queueId: string;
  userId: string;
  status: QueueEntryStatus;
  liveEventId: string | null;
  liveEventSlug: string | null;
  agentIdentity: string | null;
  viaAgent: boolean;
  matchId: string | null;
  jobIds: string[];
  enteredAtMs: number;
  expiresAtMs: number;
  endReason: string | null;
}

export interface JoinQueueUpdateInput {
  /** Set when an existing entry is resumed by a later join: the latest agent identity wins. */
  agentIdentity: string | null;
  viaAgent: boolean;
}

export interface JoinQueueUpdateResult {
  state: QueueEntryState;
  /** False when the call resumed an entry that already existed. */
  created: boolean;
}

export interface LeaveQueueUpdateResult {
  state: QueueEntryState;
}

export interface EventEndedSignalInput {
  liveEventId: string;
}
