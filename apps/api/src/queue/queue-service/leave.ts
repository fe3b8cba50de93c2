import { WorkflowNotFoundError } from '@temporalio/common';
import type { QueueEntryRow } from '#db/queue/queue-repository';
import { ConflictError, NotFoundError } from '#lib/errors';
import { updateRefusal } from '#lib/update-refusal';
import { MATCH_NOT_DECLINABLE } from '#workflows/matches/contract';
import { queueEntryWorkflowId, leaveQueueUpdate, QUEUE_ENTRY_NOT_WAITING } from '#workflows/queue/contract';
import type { EntryRefusalDetails, QueueServiceContext } from './context';
import type { QueueEntryView } from './entry-view';
import { acceptedConflict } from './conflicts';

/** The reason recorded on a match the seeker declined by leaving the queue (`POST /queue/leave`). */
export const LEFT_QUEUE_DECLINE_REASON = 'The candidate left the queue';
/** How long `leave` keeps trying while the entry's match closes under it (a decline or expiry racing the leave). */
const LEAVE_DEADLINE_MS = 10_000;

/**
 * Leaves the queue, whatever the entry's state: a waiting entry by the `leave` Update; a matched
 * one by declining its pending match as the seeker with `leaveQueue` (reason code `left_queue`):
 * the match tells the entry to end `left`, so it is never waiting in between and no round can
 * offer it another job. Answers once the entry reads `left`. A match that closes under the call
 * (the recruiter declined, it expired) sends the entry back to waiting, and the loop leaves from
 * there. No active entry → 404; a match already accepted → 409 QUEUE_ENTRY_MATCH_ACCEPTED.
 */
export function createLeave({ deps, view }: QueueServiceContext) {
  const queue = deps.repos.queue;
  const publicBaseUrl = deps.config.publicBaseUrl;

  /** The caller's active entry, or why there is nothing to leave. */
  const activeEntry = async (userId: string): Promise<QueueEntryRow> => {
    const latest = await queue.findLatestForUser(userId);
    if (!latest || (latest.status !== 'waiting' && latest.status !== 'matched'))
      throw new NotFoundError('active queue entry of the caller');
    if (latest.status === 'matched' && latest.match_id) {
      const match = await deps.repos.matches.findById(latest.match_id);
      if (match?.status === 'accepted') throw acceptedConflict(publicBaseUrl, latest.id, match.id);
      // The interview is over (or the entry finished): nothing active to leave.
      if (match?.status === 'completed' || latest.ended_at) throw new NotFoundError('active queue entry of the caller');
    }
    return latest;
  };

  /** The `leave` Update: done (true), or the match the entry is in (the entry is not waiting). */
  const leaveWaiting = async (userId: string): Promise<{ left: true } | { left: false; matchId: string | null }> => {
    try {
      await deps.temporal.workflow
        .getHandle(queueEntryWorkflowId(userId))
        .executeUpdate(leaveQueueUpdate, { args: [] });
      return { left: true };
    } catch (err) {
      const refusal = updateRefusal(err, [QUEUE_ENTRY_NOT_WAITING]);
      if (!refusal) {
        if (err instanceof WorkflowNotFoundError) throw new NotFoundError('active queue entry of the caller');
        throw err;
      }
      const [d] = (refusal.details ?? []) as EntryRefusalDetails[];
      return { left: false, matchId: d?.status === 'matched' ? (d.matchId ?? null) : null };
    }
  };

  /** Declines the entry's match as the seeker leaving; the entry once it reads `left`, else null (try again). */
  const declineAndLeave = async (userId: string, entryId: string, matchId: string): Promise<QueueEntryRow | null> => {
    try {
      const declined = await deps.matches.decline({
        userId,
        matchId,
        reason: LEFT_QUEUE_DECLINE_REASON,
        reasonCode: 'left_queue',
        leaveQueue: true,
      });
      const entry = (await queue.findById(entryId))!;
      if (declined.entryLeft || entry.status === 'left') return entry;
    } catch (err) {
      if (!(err instanceof ConflictError && err.code === MATCH_NOT_DECLINABLE)) throw err;
      const status = (err.details as { status?: string } | undefined)?.status;
      if (status === 'accepted' || status === 'completed') throw acceptedConflict(publicBaseUrl, entryId, matchId);
      // Declined by the recruiter or expired meanwhile: the entry is on its way back to waiting.
    }
    return null;
  };

  /** Past the deadline: the entry kept changing under the call. */
  const stillChanging = async (latest: QueueEntryRow): Promise<ConflictError> => {
    const now = await queue.findById(latest.id);
    return new ConflictError(
      QUEUE_ENTRY_NOT_WAITING,
      `Queue entry ${latest.id} is ${now?.status ?? latest.status}${now?.match_id ? ` (match ${now.match_id})` : ''} ` +
        `and could not be left just now; try again`,
      { queue_id: latest.id, status: now?.status ?? latest.status, match_id: now?.match_id ?? null },
    );
  };

  return async (userId: string): Promise<QueueEntryView> => {
    const deadline = Date.now() + LEAVE_DEADLINE_MS;
    for (let attempt = 0; ; attempt++) {
      const latest = await activeEntry(userId);
      const outcome = await leaveWaiting(userId);
      if (outcome.left) return view((await queue.findById(latest.id))!);
      if (outcome.matchId) {
        const entry = await declineAndLeave(userId, latest.id, outcome.matchId);
        if (entry) return view(entry);
      }
      if (Date.now() > deadline) throw await stillChanging(latest);
      await new Promise((r) => setTimeout(r, Math.min(50 * (attempt + 1), 250)));
    }
  };
}
