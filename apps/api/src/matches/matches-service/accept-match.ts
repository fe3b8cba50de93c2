import { ConflictError } from '#lib/errors';
import { acceptMatchUpdate, MATCH_NOT_ACCEPTABLE, matchWorkflowId } from '#workflows/matches/contract';
import type { MatchesContext, MatchView } from './match-access';
import { sendMatchUpdate } from './match-updates';

/**
 * Web application only (humans): records the caller's acceptance (Update `accept`). The match
 * is `accepted` once the seeker and a recruiter of the team have accepted (or the team
 * auto-accepts for its recruiters). 409 MATCH_NOT_ACCEPTABLE once declined/expired. Whoever of
 * the team accepts first is the match's recruiter, the interviewer (decision 0244); 409
 * MATCH_RECRUITER_AT_CAPACITY when they have no free interview slot at the event.
 */
export async function acceptMatch(ctx: MatchesContext, input: { userId: string; matchId: string }): Promise<MatchView> {
  const { match, role } = await ctx.load(input.userId, input.matchId);
  // A retried accept whose answer was lost: this party's acceptance is recorded, so the
  // answer is the match as it is now, not a refusal (a retry must not turn success into 409).
  if ((role === 'seeker' ? match.seeker_accepted_at : match.recruiter_accepted_at) !== null) return { match, role };
  // Past the acceptance window the match is as good as expired, whether or not its timer has fired yet.
  if (match.status === 'matched' && match.expires_at && match.expires_at.getTime() <= Date.now()) {
    throw new ConflictError(
      MATCH_NOT_ACCEPTABLE,
      `match ${match.id} expired at ${match.expires_at.toISOString()}; it can no longer be accepted`,
      { status: 'expired' },
    );
  }
  if (match.status !== 'matched' && match.status !== 'accepted') {
    throw new ConflictError(
      MATCH_NOT_ACCEPTABLE,
      `match ${match.id} is ${match.status}; it can no longer be accepted`,
      { status: match.status },
    );
  }
  if (match.status === 'accepted') return { match, role };
  await sendMatchUpdate(
    ctx,
    match.id,
    match.status,
    () =>
      ctx.deps.temporal.workflow
        .getHandle(matchWorkflowId(match.id))
        .executeUpdate(acceptMatchUpdate, { args: [{ userId: input.userId, role }] }),
    MATCH_NOT_ACCEPTABLE,
  );
  return ctx.reload(match.id, role);
}
