import { allHandlersFinished, condition, defineQuery, defineSignal, defineUpdate, proxyActivities, setHandler, upsertSearchAttributes, ApplicationFailure } from '@temporalio/workflow';
import type { createQueueActivities } from '../../activities/queue/queue-activities';
import type { EventEndedSignalInput, JoinQueueUpdateInput, JoinQueueUpdateResult, LeaveQueueUpdateResult, QueueEntryInput, QueueEntryState, QueueEntryStatus } from './contract';
import { JobfairEntity, JobfairEventSlug, JobfairStatus, JobfairUserId } from '../shared/search-attributes';

export const joinQueueUpdate = defineUpdate<JoinQueueUpdateResult, [JoinQueueUpdateInput]>('join');
export const leaveQueueUpdate = defineUpdate<LeaveQueueUpdateResult, []>('leave');
export const queueEntryStateQuery = defineQuery<QueueEntryState>('state');
/** Sent by the live event's end (drain): a waiting entry for that event ends as `expired`. */
export const eventEndedSignal = defineSignal<[EventEndedSignalInput]>('eventEnded');

const { projectQueueEntry } = proxyActivities<ReturnType<typeof createQueueActivities>>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 ms', maximumInterval: '10 seconds' },
});

/**
 * One seeker's place in the matchmaking queue. The workflow owns the entry's lifecycle;
 * PostgreSQL holds a projection written by `projectQueueEntry` on every transition.
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
  };
  let projectedVersion = -1;
  let version = 0;
  let joins = 0;

  const transition = (status: QueueEntryStatus, reason: string | null = null) => {
    state.status = status;
    if (reason) state.endReason = reason;
    version++;
  };

  setHandler(queueEntryStateQuery, () => state);
  setHandler(eventEndedSignal, ({ liveEventId }: EventEndedSignalInput) => {
    if (state.status === 'waiting' && state.liveEventId === liveEventId) transition('expired', 'event ended');
  });
  setHandler(
    joinQueueUpdate,
    async (join: JoinQueueUpdateInput) => {
      joins++;
      const created = joins === 1;
      if (!created && join.viaAgent && join.agentIdentity && join.agentIdentity !== state.agentIdentity) {
        state.agentIdentity = join.agentIdentity;
        state.viaAgent = true;
        version++;
      }
      const target = version;
      await condition(() => projectedVersion >= target);
      return { state: { ...state }, created };
    },
    {
      validator: (_join: JoinQueueUpdateInput) => {
        if (state.status !== 'waiting' && state.status !== 'matched') {
          throw ApplicationFailure.nonRetryable(`queue entry ${state.queueId} has ended (${state.status})`, 'QUEUE_ENTRY_ENDED');
        }
      },
    },
  );
  setHandler(
    leaveQueueUpdate,
    async () => {
      transition('left', 'left by the seeker');
      const target = version;
      await condition(() => projectedVersion >= target);
      return { state: { ...state } };
    },
    {
      validator: () => {
        if (state.status !== 'waiting') throw ApplicationFailure.nonRetryable(`queue entry ${state.queueId} is ${state.status}, not waiting`, 'QUEUE_ENTRY_NOT_WAITING');
      },
    },
  );

  const ended = () => state.status === 'left' || state.status === 'expired';
  const project = async () => {
    const target = version;
    upsertSearchAttributes([
      { key: JobfairEntity, value: 'queue_entry' },
      { key: JobfairStatus, value: state.status },
      { key: JobfairUserId, value: state.userId },
      ...(state.liveEventSlug ? [{ key: JobfairEventSlug, value: state.liveEventSlug }] : []),
    ]);
    await projectQueueEntry({ state: { ...state }, endedAtMs: ended() ? Date.now() : null });
    projectedVersion = target;
  };

  await project();
  for (;;) {
    if (state.status === 'waiting') {
      // Only a waiting entry expires; a matched one waits for its match to close.
      const remaining = state.expiresAtMs - Date.now();
      const changed = remaining > 0 && (await condition(() => version !== projectedVersion, remaining));
      if (!changed) transition('expired', 'time to live elapsed');
    } else {
      await condition(() => version !== projectedVersion);
    }
    await project();
    if (ended()) break;
  }
  // In-flight update handlers (a join racing the expiry) answer before the run closes.
  await condition(allHandlersFinished);
  return state;
}
