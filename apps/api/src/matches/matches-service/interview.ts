import { ConflictError } from '#lib/errors';
import {
  bothInRoomUpdate,
  enteredRoomUpdate,
  interviewCompletedSignal,
  MATCH_ROOM_CLOSED,
  matchWorkflowId,
} from '#workflows/matches/contract';
import type { MatchWithJob } from '#db/matches/matches-repository';
import type { MatchesContext, MatchView } from './match-access';
import { sendRoomUpdate } from './match-updates';

/** How long leaving the room waits for the match projection to say `completed`. */
const COMPLETION_PROJECTION_WAIT_MS = 3_000;

const roomClosed = (match: MatchWithJob) =>
  new ConflictError(MATCH_ROOM_CLOSED, `match ${match.id} is ${match.status}; the interview room is closed`, {
    status: match.status,
  });

/**
 * The built-in room saw both parties connected: the interview clock starts (the first time;
 * later meetings answer the clock as it is). Answers the match as projected, with
 * `interview_started_at` and the new `interview_ends_at`. 409 MATCH_ROOM_CLOSED once the match
 * is no longer accepted.
 */
export async function startInterviewClock(
  ctx: MatchesContext,
  input: { userId: string; matchId: string },
): Promise<MatchView> {
  const { match, role } = await ctx.load(input.userId, input.matchId);
  if (match.status !== 'accepted') throw roomClosed(match);
  if (match.interview_started_at) return { match, role };
  await sendRoomUpdate(ctx, match, bothInRoomUpdate, { userId: input.userId });
  return ctx.reload(match.id, role);
}

/**
 * The built-in room saw one party connect (each connection; only the first arrival counts, so
 * a reconnect changes nothing). Whoever has not come by the match's `arrive_by` is a no-show.
 * 409 MATCH_ROOM_CLOSED once the match is no longer accepted.
 */
export async function enterRoom(ctx: MatchesContext, input: { userId: string; matchId: string }): Promise<MatchView> {
  const { match, role } = await ctx.load(input.userId, input.matchId);
  if ((role === 'seeker' ? match.seeker_in_room_at : match.recruiter_in_room_at) !== null) return { match, role };
  if (match.status !== 'accepted') throw roomClosed(match);
  await sendRoomUpdate(ctx, match, enteredRoomUpdate, { userId: input.userId, role });
  return ctx.reload(match.id, role);
}

/**
 * The interview room (web app): a party ends the interview; `completed` follows (signal).
 * Not while one of them is in the room alone: the interview has not started, and ending it
 * would record an interview that never happened (409 INTERVIEW_NOT_STARTED; whoever has not
 * come by `arrive_by` makes it a no-show instead).
 */
export async function completeInterview(
  ctx: MatchesContext,
  input: { userId: string; matchId: string },
): Promise<MatchView> {
  const { match, role } = await ctx.load(input.userId, input.matchId);
  if (match.status === 'completed') return { match, role };
  if (match.status !== 'accepted')
    throw new ConflictError(
      'MATCH_NOT_ACCEPTED',
      `match ${match.id} is ${match.status}; the interview starts after both accepted`,
      { status: match.status },
    );
  if (
    match.arrive_by !== null &&
    match.interview_started_at === null &&
    (match.seeker_in_room_at === null) !== (match.recruiter_in_room_at === null)
  )
    throw new ConflictError(
      'INTERVIEW_NOT_STARTED',
      `match ${match.id}: the ${match.seeker_in_room_at === null ? 'seeker' : 'recruiter'} has not come to the ` +
        `room; the interview has not started`,
      { status: match.status },
    );
  await ctx.deps.temporal.workflow
    .getHandle(matchWorkflowId(match.id))
    .signal(interviewCompletedSignal, { userId: input.userId });
  // A signal has no answer: wait (briefly) for the projection, so the page the person lands on
  // says "completed" rather than "the room is open". Past the deadline the page's live
  // updates catch up.
  const deadline = Date.now() + COMPLETION_PROJECTION_WAIT_MS;
  for (;;) {
    const now = await ctx.deps.repos.matches.findById(match.id);
    if (now && now.status !== 'accepted') return { match: now, role };
    if (Date.now() > deadline) return { match, role };
    await new Promise((r) => setTimeout(r, 50));
  }
}
