import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  joinQueueUpdate,
  leaveQueueUpdate,
  offerUpdate,
  queueEntryStateQuery,
  eventEndedSignal,
  matchClosedSignal,
  OFFER_REFUSED,
  QUEUE_ENTRY_ENDED,
  QUEUE_ENTRY_LEAVES_WITH_MATCH_PATCH,
  QUEUE_ENTRY_NOT_WAITING,
  QUEUE_ENTRY_OTHER_QUEUE,
  type EventEndedSignalInput,
  type JoinQueueUpdateInput,
  type JoinQueueUpdateResult,
  type LeaveQueueUpdateResult,
  type MatchClosedSignalInput,
  type OfferUpdateInput,
  type OfferUpdateResult,
  type QueueEntryInput,
  type QueueEntryState,
  type QueueEntryStatus,
} from './contract';
import type { createQueueActivities } from '../../activities/queue/queue-activities';
import type { createMatchmakingActivities } from '../../activities/matchmaking/matchmaking-activities';
import { KICK_MATCHMAKER_ACTIVITY_OPTIONS } from '../matchmaking/contract';
import { JobfairEntity, JobfairEventSlug, JobfairStatus, JobfairUserId } from '../shared/contract';
import { createProjection } from '../shared/projection';
import { queueEntryDetails } from '../shared/details';

// The projection is one short upsert: a local activity (run inside the workflow task, no task-queue
// round trip) so a join or an offer answers in one workflow task. Retried like any activity.
const { projectQueueEntry } = proxyLocalActivities<ReturnType<typeof createQueueActivities>>({
  startToCloseTimeout: '10 seconds',
  // At most 2 s between retries: a projection waiting out a PostgreSQL outage lands within ~2 s of
  // its return (decision 0204).
  retry: { initialInterval: '200 ms', maximumInterval: '2 seconds' },
});
const { kickMatchmaker } = proxyActivities<ReturnType<typeof createMatchmakingActivities>>(
  KICK_MATCHMAKER_ACTIVITY_OPTIONS,
);

/**
 * One seeker's place in the matchmaking queue. The workflow owns the entry's lifecycle;
 * PostgreSQL holds a projection written by `projectQueueEntry` on every transition.
 *
 * waiting ─offer→ matched ─matchClosed(declined|expired)→ waiting (same entered_at: its original
 * place; the TTL clock resumes with the time it had left) ─…; matched ─matchClosed(accepted)→ the
 * run finishes (status stays `matched`, end_reason "match accepted"). waiting ─TTL / eventEnded→
 * expired; waiting ─leave→ left; matched ─matchClosed(declined, leaveQueue)→ left (the seeker
 * declined and left in one step: the entry is never waiting in between, so no offer reaches it).
 */
export async function queueEntryWorkflow(input: QueueEntryInput): Promise<QueueEntryState> {
  const state: QueueEntryState = {
    queueId: input.queueId,
    userId: input.userId,
    status: 'waiting',
    liveEventId: input.liveEventId,
    liveEventSlug: input.liveEventSlug,
    agentIdentity: input.agentIdentity,
    viaAgent: input.viaAgent,
    matchId: null,
    jobIds: [],
    enteredAtMs: input.enteredAtMs,
    expiresAtMs: input.enteredAtMs + input.ttlMs,
    endReason: null,
    remainingTtlMs: null,
    offersAccepted: 0,
    finished: false,
  };
  let joins = 0;
  let returnedToWaiting = false;
  // Matches this entry was in that have closed (declined or expired): an offer naming one again — a
  // matching round's retried attempt re-sending an offer whose match already ran — would bind the
  // seeker to a dead match, so the validator refuses it. Checked in the validator only (validators do
  // not run on replay, so histories where such an offer was accepted replay unchanged).
  const closedMatchIds = new Set<string>();

  const ended = () => state.status === 'left' || state.status === 'expired' || state.finished;
  const projection = createProjection(() => {
    setCurrentDetails(queueEntryDetails(state));
    upsertSearchAttributes([
      { key: JobfairEntity, value: 'queue_entry' },
      { key: JobfairStatus, value: state.status },
      { key: JobfairUserId, value: state.userId },
      ...(state.liveEventSlug ? [{ key: JobfairEventSlug, value: state.liveEventSlug }] : []),
    ]);
    return projectQueueEntry({ state: { ...state }, endedAtMs: ended() ? Date.now() : null });
  });
  const transition = (status: QueueEntryStatus, reason: string | null = null) => {
    state.status = status;
    if (reason) state.endReason = reason;
    projection.changed();
  };

  setHandler(queueEntryStateQuery, () => state);
  setHandler(eventEndedSignal, ({ liveEventId }: EventEndedSignalInput) => {
    if (state.status === 'waiting' && state.liveEventId === liveEventId) transition('expired', 'event ended');
  });
  setHandler(matchClosedSignal, ({ matchId, outcome, leaveQueue }: MatchClosedSignalInput) => {
    if (state.status !== 'matched' || state.matchId !== matchId || state.finished) return;
    if (outcome === 'accepted' || outcome === 'completed') {
      state.finished = true;
      state.endReason = 'match accepted';
      projection.changed();
      return;
    }
    // The seeker declined and left: straight from matched to left (the match id stays, naming the
    // declined match), so no matching round can see the entry waiting in between.
    if (outcome === 'declined' && leaveQueue === true && patched(QUEUE_ENTRY_LEAVES_WITH_MATCH_PATCH)) {
      closedMatchIds.add(matchId);
      state.remainingTtlMs = null;
      transition('left', `left by the seeker, declining match ${matchId}`);
      return;
    }
    // Back to waiting with the original entered_at (its place in line) and the TTL it had left.
    closedMatchIds.add(matchId);
    state.matchId = null;
    state.jobIds = [];
    state.expiresAtMs = Date.now() + (state.remainingTtlMs ?? 0);
    state.remainingTtlMs = null;
    returnedToWaiting = true;
    transition('waiting');
  });
  setHandler(
    joinQueueUpdate,
    async (join: JoinQueueUpdateInput) => {
      joins++;
      const created = joins === 1;
      if (!created && join.viaAgent && join.agentIdentity && join.agentIdentity !== state.agentIdentity) {
        state.agentIdentity = join.agentIdentity;
        state.viaAgent = true;
        projection.changed();
      }
      await projection.projected();
      return { state: { ...state }, created };
    },
    {
      validator: (join: JoinQueueUpdateInput) => {
        if (state.finished || (state.status !== 'waiting' && state.status !== 'matched')) {
          throw ApplicationFailure.nonRetryable(
            `queue entry ${state.queueId} has ended (${state.status})`,
            QUEUE_ENTRY_ENDED,
          );
        }
        if (join.liveEventId !== undefined && join.liveEventId !== state.liveEventId) {
          // Validators write no history: the details can grow without a patch.
          throw ApplicationFailure.nonRetryable(
            `queue entry ${state.queueId} is in another queue`,
            QUEUE_ENTRY_OTHER_QUEUE,
            {
              queueId: state.queueId,
              liveEventSlug: state.liveEventSlug,
              status: state.status,
              matchId: state.matchId,
            },
          );
        }
      },
    },
  );
  setHandler(
    leaveQueueUpdate,
    async () => {
      transition('left', 'left by the seeker');
      await projection.projected();
      return { state: { ...state } };
    },
    {
      validator: () => {
        if (state.status !== 'waiting')
          throw ApplicationFailure.nonRetryable(
            `queue entry ${state.queueId} is ${state.status}, not waiting`,
            QUEUE_ENTRY_NOT_WAITING,
            { queueId: state.queueId, status: state.status, matchId: state.matchId },
          );
      },
    },
  );
  const refusal = (offer: OfferUpdateInput): string | null => {
    if (state.matchId === offer.matchId) return null; // the accepted offer, re-sent: same answer
    if (offer.queueId !== state.queueId) return `offer is for entry ${offer.queueId}, this is ${state.queueId}`;
    if (state.status !== 'waiting')
      return `entry is ${state.status}${state.matchId ? ` (match ${state.matchId})` : ''}`;
    if (state.liveEventId && state.liveEventId !== offer.liveEventId)
      return `entry waits for event ${state.liveEventId}`;
    return null;
  };
  setHandler(
    offerUpdate,
    async (offer: OfferUpdateInput): Promise<OfferUpdateResult> => {
      // Checked again here: an earlier message in the same task may have moved the entry since validation.
      const refused = refusal(offer);
      if (refused) throw ApplicationFailure.nonRetryable(`offer ${offer.matchId} refused: ${refused}`, OFFER_REFUSED);
      if (state.matchId !== offer.matchId) {
        state.matchId = offer.matchId;
        state.jobIds = [offer.jobId];
        state.remainingTtlMs = Math.max(0, state.expiresAtMs - Date.now());
        state.offersAccepted++;
        transition('matched');
      }
      await projection.projected();
      return { accepted: true, state: { ...state } };
    },
    {
      validator: (offer: OfferUpdateInput) => {
        const refused = closedMatchIds.has(offer.matchId)
          ? `match ${offer.matchId} has already closed`
          : refusal(offer);
        if (refused) throw ApplicationFailure.nonRetryable(`offer ${offer.matchId} refused: ${refused}`, OFFER_REFUSED);
      },
    },
  );

  await projection.project();
  for (;;) {
    if (state.status === 'waiting') {
      // Only a waiting entry expires; a matched one waits for its match to close.
      const remaining = state.expiresAtMs - Date.now();
      const changed =
        remaining > 0 && (await condition(projection.pending, remaining, { summary: 'queue entry time to live' }));
      if (!changed) transition('expired', 'time to live elapsed');
    } else {
      await condition(projection.pending);
    }
    await projection.project();
    if (ended()) break;
    if (returnedToWaiting && state.status === 'waiting') {
      // The projection says waiting again: now the matchmaker can see it.
      returnedToWaiting = false;
      try {
        await kickMatchmaker({ reason: 'entry_returned' });
      } catch (err) {
        // The matchmaker's idle poll finds the entry anyway; a lost kick only delays it.
        log.warn(`queue entry ${state.queueId}: matchmaker kick failed`, { error: String(err) });
      }
    }
  }
  // In-flight update handlers (a join racing the expiry) answer before the run closes.
  await condition(allHandlersFinished);
  return state;
}
