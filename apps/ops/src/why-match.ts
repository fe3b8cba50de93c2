import type { MatchWithJob } from '#db/matches/matches-repository';
import { matchStateQuery, matchWorkflowId, type MatchState } from '#workflows/matches/contract';
import { UnknownSubjectError, stateOf, when, type OpsContext } from './ops-context';

type Time = (ms: number | null) => string;

/** `why <match>`: who and what, its status, what it waits for and its timers; drift from its row named. */
export async function whyMatch(ctx: OpsContext, matchId: string, o: { mustExist?: boolean } = {}): Promise<string[]> {
  const now = (ctx.now ?? Date.now)();
  const t = (ms: number | null) => when(ms, now, ctx.timeZone);
  const { repos } = ctx.services.deps;
  const row = await repos.matches.findById(matchId);
  const wf = await stateOf<MatchState>(ctx.temporal, matchWorkflowId(matchId), matchStateQuery);
  if (!row && !wf) {
    const message = `No match, queue entry or user ${matchId}: neither PostgreSQL nor Temporal knows it.`;
    if (o.mustExist) throw new UnknownSubjectError(message);
    return [message];
  }
  const s = wf?.state;
  const seekerName =
    (await repos.accounts.findUserById(s?.seekerUserId ?? row!.seeker_user_id))?.display_name ?? 'the seeker';
  const job = row?.job_title ?? 'a job';
  const lines = [
    `Match ${matchId}: ${seekerName} for "${job}" (event ${s?.liveEventSlug ?? row?.live_event_slug ?? '?'}).`,
  ];
  if (!s) {
    lines.push(withoutWorkflow(row!));
    return lines;
  }
  lines.push(`Status: ${s.status} (workflow ${wf!.running ? 'running' : 'closed'}); made ${t(s.createdAtMs)}.`);
  lines.push(...matchStatusLines(s, t));
  if (row && row.status !== s.status)
    lines.push(`Drift: PostgreSQL says ${row.status}; run \`npm run ops -- reconcile --fix\`.`);
  return lines;
}

/** A match whose workflow is not there: not started yet (the row is written first) or long gone. */
function withoutWorkflow(row: MatchWithJob): string {
  // The match row is written with the offer, before its workflow starts (decision 0120).
  if (row.status === 'matched' || row.status === 'accepted')
    return (
      `PostgreSQL says ${row.status}, but its workflow has not started yet: the matchmaker ` +
      `starts it right after the offer (an accept or a decline starts it too). If this lasts ` +
      `more than a minute, the matchmaker is stalled: look at matchmaker:<queue> in the Temporal ` +
      `UI.`
    );
  return `Temporal no longer has its workflow (closed and past retention); PostgreSQL says ${row.status}.`;
}

/** What a match in this status waits for, and its timers. */
function matchStatusLines(s: MatchState, t: Time): string[] {
  const out: string[] = [];
  switch (s.status) {
    case 'matched': {
      const seeker = s.seekerAcceptedAtMs
        ? `the seeker accepted ${t(s.seekerAcceptedAtMs)}`
        : "waiting for the seeker's acceptance";
      const recruiter = s.recruiterAcceptedAtMs
        ? `the recruiter accepted ${t(s.recruiterAcceptedAtMs)}`
        : "waiting for the recruiter's acceptance";
      out.push(`Waiting: ${seeker}; ${recruiter}.`);
      out.push(
        `Timer: the acceptance window expires ${t(s.expiresAtMs)}; then the match expires and the ` +
          `seeker's entry waits again.`,
      );
      break;
    }
    case 'accepted':
      out.push(
        `Both accepted ${t(s.acceptedAtMs)}. Timer: the interview ends ${t(s.interviewEndsAtMs)} ` +
          `unless a party ends it first (signal interviewCompleted).`,
      );
      if ((s.arriveByMs ?? null) !== null && (s.interviewStartedAtMs ?? null) === null)
        out.push(
          `Arrivals: seeker ${s.seekerInRoomAtMs ? `in the room ${t(s.seekerInRoomAtMs)}` : 'not yet'}, recruiter ` +
            `${s.recruiterInRoomAtMs ? `in the room ${t(s.recruiterInRoomAtMs)}` : 'not yet'}; whoever has not come by ` +
            `${t(s.arriveByMs!)} is a no-show.`,
        );
      break;
    case 'expired':
      out.push(
        `Expired ${t(s.expiredAtMs)}: ` +
          `${!s.seekerAcceptedAtMs && !s.recruiterAcceptedAtMs ? 'neither side accepted' : !s.seekerAcceptedAtMs ? 'the seeker did not accept' : 'the recruiter did not accept'} ` +
          `within the window. Nothing waits.`,
      );
      break;
    case 'declined':
      out.push(
        `Declined ${t(s.declinedAtMs)} by the ${s.declinedByRole ?? 'a party'}${s.declineReason ? ` ("${s.declineReason}")` : ''}. ` +
          `Nothing waits.`,
      );
      break;
    case 'completed':
      out.push(`Interview completed ${t(s.completedAtMs)}. Nothing waits.`);
      break;
    case 'no_show':
      out.push(
        `No-show ${t(s.noShowAtMs ?? null)}: the ${s.noShowMissing === 'both' ? 'seeker and the recruiter' : (s.noShowMissing ?? 'other side')} ` +
          `did not come to the room by ${t(s.arriveByMs ?? null)}. Not an interview; nothing waits.`,
      );
      break;
  }
  return out;
}
