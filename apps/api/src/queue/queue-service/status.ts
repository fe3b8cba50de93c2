import type { QueueServiceContext } from './context';
import type { QueueEntryView } from './entry-view';

/**
 * The caller's latest entry and, while it waits, its position, outlook and estimate (the REST
 * status, the MCP tool and the web queue page). The seeker's own rows, event and the queue's
 * stamps come in one statement (`readLatest`), the room in a second; the open jobs and the match
 * rate are reused while the stamps say they have not changed (decision 0269).
 */
export function createStatus({ deps, view }: QueueServiceContext) {
  return async (userId: string): Promise<QueueEntryView | null> => {
    const read = await deps.repos.queueStatus.readLatest(userId);
    if (!read) return null;
    const { entry, ...rest } = read;
    return view(entry, {}, rest);
  };
}

/** Who waits in an event's queue, with their profiles (the recruiter console; the caller checked the event is the team's). */
export function createListWaiting({ deps }: QueueServiceContext) {
  return async (eventId: string, limit: number) => {
    const entries = await deps.repos.queue.listWaitingForEvent(eventId, limit);
    return Promise.all(
      entries.map(async (e) => ({
        id: e.user_id,
        viaAgent: e.via_agent,
        agentIdentity: e.agent_identity,
        enteredAt: e.entered_at,
        profile: (await deps.repos.profiles.findByUserId(e.user_id)) ?? null,
      })),
    );
  };
}
