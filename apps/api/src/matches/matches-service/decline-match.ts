import { ConflictError, ForbiddenError } from '#lib/errors';
import {
  declineMatchUpdate,
  MATCH_NOT_DECLINABLE,
  matchWorkflowId,
  type DeclineReasonCode,
} from '#workflows/matches/contract';
import { interviewerId } from '../match-status-line';
import type { MatchesContext, MatchView } from './match-access';
import { sendMatchUpdate } from './match-updates';

/** How long a decline that leaves the queue waits for the seeker's entry to read `left`. */
export const LEAVE_PROJECTION_WAIT_MS = 5_000;

/**
 * A party declines while the match is `matched` (API or web); the seeker's entry goes back to
 * waiting. With `leaveQueue` (the seeker only; 403 otherwise) the entry ends `left` instead,
 * told by the match itself, so no other offer can reach it in between; the reason code defaults
 * to `left_queue`, and the answer waits (up to LEAVE_PROJECTION_WAIT_MS) until the entry reads
 * `left`. `entryLeft` says whether it did. Once a recruiter accepted, only the interviewer
 * declines on the team's side (403 MATCH_NOT_YOUR_INTERVIEW for a teammate).
 */
export async function declineMatch(
  ctx: MatchesContext,
  input: {
    userId: string;
    matchId: string;
    reason: string;
    reasonCode?: DeclineReasonCode | null;
    leaveQueue?: boolean;
  },
): Promise<MatchView & { entryLeft?: boolean }> {
  const { match, role } = await ctx.load(input.userId, input.matchId);
  const leaveQueue = input.leaveQueue === true;
  if (leaveQueue && role !== 'seeker')
    throw new ForbiddenError(
      `Only the seeker of match ${match.id} can leave the queue; a recruiter declines without leave_queue`,
      'ROLE_NOT_ALLOWED',
    );
  if (match.status !== 'matched')
    throw new ConflictError(
      MATCH_NOT_DECLINABLE,
      `match ${match.id} is ${match.status}; only a matched match can be declined`,
      { status: match.status },
    );
  // Once a recruiter accepted for the team, the team's decision is the interviewer's (decision
  // 0244): a teammate cannot undo it by declining. Before that, anyone of the team may decline.
  const interviewer = role === 'recruiter' && match.recruiter_accepted_at ? interviewerId(match) : null;
  if (interviewer && interviewer !== input.userId)
    throw new ForbiddenError(
      `match ${match.id} was accepted for the team by another recruiter (user ${interviewer}); only they can decline it`,
      'MATCH_NOT_YOUR_INTERVIEW',
    );
  await sendMatchUpdate(
    ctx,
    match.id,
    match.status,
    () =>
      ctx.deps.temporal.workflow.getHandle(matchWorkflowId(match.id)).executeUpdate(declineMatchUpdate, {
        args: [
          {
            userId: input.userId,
            role,
            reason: input.reason,
            reasonCode: input.reasonCode ?? (leaveQueue ? 'left_queue' : null),
            ...(leaveQueue ? { leaveQueue: true } : {}),
          },
        ],
      }),
    MATCH_NOT_DECLINABLE,
  );
  if (!leaveQueue) return ctx.reload(match.id, role);
  // The match tells the entry after its own projection: wait for the entry's, so the caller's
  // next read of the queue says `left`. Past the deadline the answer is the match as it is.
  const deadline = Date.now() + LEAVE_PROJECTION_WAIT_MS;
  for (;;) {
    const entry = await ctx.deps.repos.queue.findById(match.queue_entry_id);
    const entryLeft = !entry || entry.status === 'left';
    if (entryLeft || Date.now() > deadline) return { ...(await ctx.reload(match.id, role)), entryLeft };
    await new Promise((r) => setTimeout(r, 25));
  }
}
