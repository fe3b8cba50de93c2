import { tellEntriesEventEnded } from '#workflows/queue/client';
import type { Client } from '@temporalio/client';
import type { EventsRepository } from '#db/events/events-repository';
import type { LiveEventState } from '#workflows/events/contract';
import { iso } from '#lib/dates';

export interface ProjectLiveEventInput {
  state: LiveEventState;
}
export type ProjectLiveEventResult = void;

export interface DrainLiveEventInput {
  eventId: string;
}
export interface DrainLiveEventResult {
  /** Waiting entries told that the event ended. */
  signalled: number;
  /** Entries whose workflow had already closed (left or expired meanwhile). */
  alreadyClosed: number;
}

const DRAIN_PAGE = 200;
const DRAIN_CONCURRENCY = 20;

export function createEventsActivities(deps: { eventsRepository: EventsRepository; client: Client }) {
  return {
    /** Writes the live event's lifecycle columns (idempotent: safe to retry). The only writer of live_events.status. */
    async projectLiveEvent({ state }: ProjectLiveEventInput): Promise<ProjectLiveEventResult> {
      await deps.eventsRepository.projectLifecycle(state.eventId, {
        status: state.status,
        started_at: iso(state.startedAtMs),
        ends_at: iso(state.endsAtMs),
        ended_at: iso(state.endedAtMs),
      });
    },

    /**
     * Tells every waiting queue entry for the event that it ended (`eventEnded` signal); the entry
     * ends as `expired`, reason "event ended". Signals are idempotent, so a retried activity is harmless.
     */
    async drainLiveEvent({ eventId }: DrainLiveEventInput): Promise<DrainLiveEventResult> {
      let signalled = 0;
      let alreadyClosed = 0;
      let after: string | null = null;
      for (;;) {
        const userIds = await deps.eventsRepository.listWaitingSeekerIds(eventId, {
          afterUserId: after,
          limit: DRAIN_PAGE,
        });
        if (userIds.length === 0) break;
        const told = await tellEntriesEventEnded(
          deps.client,
          userIds.map((userId) => ({ userId, liveEventId: eventId })),
          { concurrency: DRAIN_CONCURRENCY },
        );
        signalled += told.signalled;
        alreadyClosed += told.alreadyClosed;
        after = userIds[userIds.length - 1];
        if (userIds.length < DRAIN_PAGE) break;
      }
      return { signalled, alreadyClosed };
    },
  };
}
