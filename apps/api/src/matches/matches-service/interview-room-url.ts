import { ConflictError, ForbiddenError } from '#lib/errors';
import type { MatchesContext } from './match-access';

/** Room URL for a party of an accepted match, from the video provider adapter. */
export async function interviewRoomUrl(
  ctx: MatchesContext,
  input: { userId: string; matchId: string },
): Promise<{ roomUrl: string; expiresAt: Date }> {
  const { match, role } = await ctx.load(input.userId, input.matchId);
  if (match.status === 'completed')
    throw new ConflictError('MATCH_INTERVIEW_COMPLETED', `the interview of match ${match.id} has ended`, {
      status: match.status,
    });
  if (match.status === 'no_show')
    throw new ConflictError('MATCH_NOT_ACCEPTED', `match ${match.id} ended as a no-show; the room is closed`, {
      status: match.status,
    });
  if (match.status !== 'accepted') {
    throw new ConflictError(
      'MATCH_NOT_ACCEPTED',
      `match ${match.id} is ${match.status}; the room opens once both parties have accepted in the web application`,
      { status: match.status },
    );
  }
  // One interviewer per match (decision 0244): on the team's side the room admits the recruiter
  // who accepted (with the team's auto-accept, the one it was offered to; else anyone of the team).
  if (role === 'recruiter' && match.recruiter_user_id && match.recruiter_user_id !== input.userId)
    throw new ForbiddenError(
      `match ${match.id} is interviewed by another recruiter of the team (user ${match.recruiter_user_id}); only they enter the room`,
      'MATCH_NOT_YOUR_INTERVIEW',
    );
  // The URL never outlives the interview.
  const untilInterviewEnds = match.interview_ends_at
    ? match.interview_ends_at.getTime() - Date.now()
    : ctx.deps.config.ROOM_URL_TTL_MS;
  const ttlMs = Math.max(1_000, Math.min(ctx.deps.config.ROOM_URL_TTL_MS, untilInterviewEnds));
  return ctx.video.issueRoomUrl({ matchId: match.id, userId: input.userId, role, ttlMs });
}
