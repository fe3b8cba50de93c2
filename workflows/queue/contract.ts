import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { detailLines, temporalName, type StartMetadata } from '../shared/contract';
import type { MatchStatus } from '../matches/contract';
/**
 * Contract of the queue capability: the queueEntry workflow. Holds every message definition, id helper, type name, Input/Result type and vocabulary of the capability; no I/O (imports only @temporalio/workflow, @temporalio/common and other contracts), so workflows, activities, clients and the API all import it.
 */
export const queueEntryWorkflowId = (userId: string): string => `queue-entry:${userId}`;

/** Lifecycle of a queue entry (PostgreSQL `queue_entries.status`, the API's `status`, the search attribute JobfairStatus). */
export const QUEUE_ENTRY_STATUSES = ['waiting', 'matched', 'left', 'expired'] as const;
export type QueueEntryStatus = (typeof QUEUE_ENTRY_STATUSES)[number];

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
  /** While matched: the waiting time the entry had left, given back if the match is declined or expires. */
  remainingTtlMs: number | null;
  /** How many offers this entry accepted (a declined or expired match sends it back to waiting). */
  offersAccepted: number;
  /** True once its match was accepted: the entry's work is done and the run closes (status stays `matched`). */
  finished: boolean;
}

export interface JoinQueueUpdateInput {
  /** Set when an existing entry is resumed by a later join: the latest agent identity wins. */
  agentIdentity: string | null;
  viaAgent: boolean;
  /**
   * The queue the caller asked for (an event id, or null for any event). Resuming an entry of
   * another queue is refused (QUEUE_ENTRY_OTHER_QUEUE) rather than silently answered with it.
   * Optional so that updates from older API versions still validate.
   */
  liveEventId?: string | null;
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

/**
 * The matchmaker offers a planned match to the entry (Update `offer`). The entry is the arbiter:
 * it accepts one offer while waiting and refuses every other (validator rejection, so a refused
 * offer costs no history), so a seeker is never in two matches. Re-sending the accepted offer
 * (a retried round) answers the same.
 */
export interface OfferUpdateInput {
  matchId: string;
  /** The entry the matchmaker planned for; a newer entry of the same seeker refuses it. */
  queueId: string;
  jobId: string;
  liveEventId: string;
}

export interface OfferUpdateResult {
  accepted: true;
  state: QueueEntryState;
}

/** ApplicationFailure type of a refused offer. */
export const OFFER_REFUSED = 'OFFER_REFUSED';

/** Refusals of the entry's `join` and `leave` Updates (ApplicationFailure types; the API maps them). */
export const QUEUE_ENTRY_REFUSALS = [
  'QUEUE_ENTRY_ENDED',
  'QUEUE_ENTRY_OTHER_QUEUE',
  'QUEUE_ENTRY_NOT_WAITING',
] as const;
export type QueueEntryRefusal = (typeof QUEUE_ENTRY_REFUSALS)[number];
/** `join` on an entry whose run is closing (left, expired or finished): the caller starts a new entry. */
export const QUEUE_ENTRY_ENDED = 'QUEUE_ENTRY_ENDED' satisfies QueueEntryRefusal;
/** `join` for another queue than the active entry's: details `{ queueId, liveEventSlug, status, matchId }`. */
export const QUEUE_ENTRY_OTHER_QUEUE = 'QUEUE_ENTRY_OTHER_QUEUE' satisfies QueueEntryRefusal;
/**
 * `leave` on an entry that is not waiting: details `{ queueId, status, matchId }`. A matched entry
 * leaves through its match: the seeker's decline with `leaveQueue` (the API does this for
 * `POST /queue/leave`), after which the match tells the entry to end `left`.
 */
export const QUEUE_ENTRY_NOT_WAITING = 'QUEUE_ENTRY_NOT_WAITING' satisfies QueueEntryRefusal;

/** Sent by the match workflow when the entry's match leaves `matched`. */
export interface MatchClosedSignalInput {
  matchId: string;
  /** accepted/completed: the entry finishes; declined/expired: back to waiting in its original place. */
  outcome: Exclude<MatchStatus, 'matched'>;
  /**
   * With `declined`: the seeker declined and left the queue; the entry ends `left` instead of going
   * back to waiting (patch QUEUE_ENTRY_LEAVES_WITH_MATCH_PATCH). Optional: older runs send none.
   */
  leaveQueue?: boolean;
}
/** The patch id of the entry that ends `left` with its declined match (queue-entry.ts). */
export const QUEUE_ENTRY_LEAVES_WITH_MATCH_PATCH = 'queue-entry-leaves-with-declined-match';

// Messages of queue-entry.ts (the API and activities send them; the workflow handles them).
export const joinQueueUpdate = defineUpdate<JoinQueueUpdateResult, [JoinQueueUpdateInput]>('join');
export const leaveQueueUpdate = defineUpdate<LeaveQueueUpdateResult, []>('leave');
/** The matchmaker's offer; the entry is the arbiter (one accepted offer at a time). */
export const offerUpdate = defineUpdate<OfferUpdateResult, [OfferUpdateInput]>('offer');
export const queueEntryStateQuery = defineQuery<QueueEntryState>('state');
/** Sent by the live event's end (drain): a waiting entry for that event ends as `expired`. */
export const eventEndedSignal = defineSignal<[EventEndedSignalInput]>('eventEnded');
/** Sent by the match workflow when the entry's match is accepted, declined or expires. */
export const matchClosedSignal = defineSignal<[MatchClosedSignalInput]>('matchClosed');

/** Workflow type `queueEntryWorkflow` (its export in workflows/index.ts): clients start it by this name, never by importing the implementation. */
export const QUEUE_ENTRY_WORKFLOW = 'queueEntryWorkflow';
export type QueueEntryWorkflow = (input: QueueEntryInput) => Promise<QueueEntryState>;

/** What the Temporal UI shows for `queue-entry:<userId>`: the seeker and the event by name (workflows/shared/summary.ts). */
export function queueEntryStartMetadata(o: {
  seekerName: string | null;
  companyName: string | null;
  liveEventSlug: string | null;
  agentIdentity: string | null;
  viaAgent: boolean;
  userId: string;
}): StartMetadata {
  const seeker = temporalName(o.seekerName, 'A seeker');
  const where = o.liveEventSlug
    ? `${temporalName(o.companyName, o.liveEventSlug)} (${o.liveEventSlug})`
    : 'any live open-invite event';
  return {
    staticSummary: `${seeker} waiting for a match at ${where}${o.viaAgent ? ', via an agent' : ''}`,
    staticDetails: detailLines([
      ['Seeker', seeker],
      ['Event', where],
      ['Joined through', o.viaAgent ? `an agent (${o.agentIdentity ?? 'unnamed'})` : 'the web app'],
      ['User id', o.userId],
    ]),
  };
}
