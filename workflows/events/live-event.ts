import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  log,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  goLiveUpdate,
  pauseUpdate,
  resumeUpdate,
  endUpdate,
  plannedEndChangedSignal,
  liveEventStateQuery,
  planLiveEventTransition,
  type LiveEventInput,
  type LiveEventResult,
  type LiveEventState,
  type LiveEventStatus,
  type LiveEventTransition,
  type LiveEventTransitionInput,
  type LiveEventTransitionResult,
  type PlannedEndChangedSignalInput,
} from './contract';
import type { createEventsActivities } from '../../activities/events/events-activities';
import type { createMatchmakingActivities } from '../../activities/matchmaking/matchmaking-activities';
import { KICK_MATCHMAKER_ACTIVITY_OPTIONS } from '../matchmaking/contract';
import { JobfairEntity, JobfairEventSlug, JobfairStatus, JobfairTeamId } from '../shared/contract';
import { createProjection } from '../shared/projection';
import { liveEventDetails } from '../shared/details';

const { projectLiveEvent, drainLiveEvent } = proxyActivities<ReturnType<typeof createEventsActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '200 ms', maximumInterval: '10 seconds' },
});
const { kickMatchmaker } = proxyActivities<ReturnType<typeof createMatchmakingActivities>>(
  KICK_MATCHMAKER_ACTIVITY_OPTIONS,
);

/** Target status for a transition, `null` for a replay; refusals become non-retryable failures (→ 409). */
const plan = (transition: LiveEventTransition, from: LiveEventStatus, eventId: string): LiveEventStatus | null => {
  const p = planLiveEventTransition(transition, from, eventId);
  if (!p.ok) throw ApplicationFailure.nonRetryable(p.message, p.code, { status: from, transition });
  return p.target;
};

/**
 * The live event actor, `live-event:<eventId>`, started by the first go-live (update-with-start).
 * It owns the event's status: every transition is projected to PostgreSQL by `projectLiveEvent`
 * before the update answers, and mirrored into the search attributes. Ending drains the event
 * (waiting queue entries for it are told, and end as `expired`), then the run closes.
 *
 * Extending it (e.g. the matchmaker's queue signals): define the message in contract.ts, handle it here, call
 * `projection.changed()` when state changes, and the loop below projects it.
 */
export async function liveEventWorkflow(input: LiveEventInput): Promise<LiveEventResult> {
  const state: LiveEventState = {
    eventId: input.eventId,
    teamId: input.teamId,
    slug: input.slug,
    status: input.status,
    startedAtMs: input.startedAtMs,
    endsAtMs: input.endsAtMs,
    endedAtMs: null,
    drained: false,
    drainedEntries: 0,
  };
  const projection = createProjection(() => {
    setCurrentDetails(liveEventDetails(state));
    upsertSearchAttributes([
      { key: JobfairEntity, value: 'live_event' },
      { key: JobfairStatus, value: state.status },
      { key: JobfairEventSlug, value: state.slug },
      { key: JobfairTeamId, value: state.teamId },
    ]);
    return projectLiveEvent({ state: { ...state } });
  });
  // Set when the event (re)becomes live: the matchmaker is woken once the status is in PostgreSQL.
  let kickPending = input.status === 'live';

  const handle =
    (transition: LiveEventTransition) =>
    async (req: LiveEventTransitionInput): Promise<LiveEventTransitionResult> => {
      // Re-planned here: an earlier update in the same task may have moved the state since validation.
      const target = plan(transition, state.status, state.eventId);
      if (target !== null) {
        const now = Date.now();
        if (target === 'live' && state.startedAtMs === null) state.startedAtMs = now;
        if (target === 'live' && req.plannedEndAtMs !== undefined) state.endsAtMs = req.plannedEndAtMs;
        if (target === 'ended') {
          state.endedAtMs = now;
          state.endsAtMs = now;
        }
        log.info(`live event ${state.eventId}: ${state.status} → ${target}`, {
          eventId: state.eventId,
          requestedBy: req.requestedBy,
          transition,
        });
        state.status = target;
        if (target === 'live') kickPending = true;
        projection.changed();
      }
      // The condition itself, not `projection.projected()`: one async step fewer, as this handler always
      // took, so its answer keeps its place among the run's commands on replay.
      const awaited = projection.version;
      await condition(() => projection.isProjected(awaited));
      return { state: { ...state }, changed: target !== null };
    };
  const validator = (transition: LiveEventTransition) => (_req: LiveEventTransitionInput) => {
    plan(transition, state.status, state.eventId);
  };

  setHandler(liveEventStateQuery, () => ({ ...state }));
  setHandler(goLiveUpdate, handle('goLive'), { validator: validator('goLive') });
  setHandler(pauseUpdate, handle('pause'), { validator: validator('pause') });
  setHandler(resumeUpdate, handle('resume'), { validator: validator('resume') });
  setHandler(endUpdate, handle('end'), { validator: validator('end') });
  setHandler(plannedEndChangedSignal, ({ plannedEndAtMs }: PlannedEndChangedSignalInput) => {
    if ((state.status === 'live' || state.status === 'paused') && state.endsAtMs !== plannedEndAtMs) {
      state.endsAtMs = plannedEndAtMs;
      projection.changed();
    }
  });

  const project = async () => {
    await projection.project();
    if (kickPending && state.status === 'live') {
      kickPending = false;
      try {
        await kickMatchmaker({ reason: 'event_live' });
      } catch (err) {
        // Waking the matchmaker is an optimisation for the event's seekers; it must never block the event.
        log.warn(`live event ${state.eventId}: could not wake the matchmaker`, { error: String(err) });
      }
    }
  };

  await project();
  while (state.status !== 'ended') {
    await condition(projection.pending);
    await project();
  }

  // Drain: waiting entries for this event end as `expired` (reason "event ended"). A second pass
  // after a short settle catches a join that raced the end.
  const first = await drainLiveEvent({ eventId: state.eventId });
  await sleep(input.drainSettleMs, { summary: 'settle before the second drain pass' });
  const second = await drainLiveEvent({ eventId: state.eventId });
  state.drained = true;
  state.drainedEntries = first.signalled + second.signalled;
  projection.changed();
  await project();
  // Replays of `end` that arrived while draining answer before the run closes.
  await condition(allHandlersFinished);
  return { ...state };
}
