import type { FastifyRequest } from 'fastify';
import type { MatchWithJob } from '#db/matches/matches-repository';
import { html, type SafeHtml } from '../../web/html';
import { actionButton, fmtDate } from '../../web/layout';
import { MATCH_PEOPLE_WORDS } from '../../web/messages';

/**
 * Before both are in the room: who is there, and the arrival deadline. On the team's side the
 * interviewer is "you"; a teammate reads the interviewer's name (they are not expected in the room).
 */
function arrivals(m: MatchWithJob, role: 'seeker' | 'recruiter', viewerId: string): SafeHtml {
  if (!m.arrive_by || m.interview_started_at) return html``;
  const mine = role === 'seeker' ? m.seeker_in_room_at : m.recruiter_in_room_at;
  const theirs = role === 'seeker' ? m.recruiter_in_room_at : m.seeker_in_room_at;
  const me =
    role === 'seeker' || m.recruiter_user_id === viewerId
      ? 'You'
      : m.recruiter_user_id && m.recruiter_name
        ? m.recruiter_name
        : 'Your team';
  const you = me === 'You';
  const other = role === 'seeker' ? 'the recruiter' : 'the candidate';
  const first = `${me} ${mine ? 'came to the room' : `${you ? 'have' : 'has'} not come to the room yet`}; ${other} ${theirs ? (mine ? 'came too' : 'is there') : 'has not come yet'}.`;
  const deadline = html`<strong>${fmtDate(m.arrive_by)}</strong>`;
  const then = 'the match ends as a no-show and does not count as an interview';
  const last =
    !mine && !theirs
      ? html`If either side has not come by ${deadline}, ${then}.`
      : !mine
        ? you
          ? html`Come in by ${deadline}: otherwise ${then}.`
          : html`If ${me} has not come by ${deadline}, ${then}.`
        : html`If ${other} has not come by ${deadline}, ${then}.`;
  return html`<p id="arrivals">${first} ${last}</p>`;
}

/**
 * An accepted match: the interview room is open. The interviewer and the seeker get the way in; a
 * teammate of the interviewer reads who interviews and when (they are not expected in the room).
 */
export function interviewRoomPanel(
  request: FastifyRequest,
  m: MatchWithJob,
  role: 'seeker' | 'recruiter',
  viewerId: string,
  interviewerName: string | null,
): SafeHtml {
  /** The team's side of the room is the match's recruiter's once one accepted. */
  const notMyInterview = role === 'recruiter' && !!m.recruiter_user_id && m.recruiter_user_id !== viewerId;
  if (notMyInterview)
    return html`<section class="panel panel-success" aria-labelledby="room-h">
<h2 id="room-h">${MATCH_PEOPLE_WORDS.colleagueInterviewsHeading(interviewerName ?? 'A colleague')}</h2>
<p>Both sides accepted ${fmtDate(m.accepted_at)}.</p>
<p data-interviewer>${MATCH_PEOPLE_WORDS.colleagueInterviews(interviewerName ?? 'A colleague')}</p>
<p>${
      m.interview_started_at
        ? html`The interview started ${fmtDate(m.interview_started_at)} and ends ${fmtDate(m.interview_ends_at)}${m.interview_ends_at ? html` (<span class="countdown" data-countdown-to="${m.interview_ends_at.toISOString()}" data-expired-text="now">…</span> left)` : ''}.`
        : html`The interview clock starts when ${interviewerName ?? 'the interviewer'} and the candidate are both in the room.`
    }</p>
${arrivals(m, role, viewerId)}
</section>`;
  return html`<section class="panel panel-success" aria-labelledby="room-h">
<h2 id="room-h">The interview room is open</h2>
<p>Both sides accepted ${fmtDate(m.accepted_at)}. ${
    m.interview_started_at
      ? html`You were both in the room ${fmtDate(m.interview_started_at)}: the interview ends ${fmtDate(m.interview_ends_at)}${m.interview_ends_at ? html` (<span class="countdown" data-countdown-to="${m.interview_ends_at.toISOString()}" data-expired-text="now">…</span> left)` : ''}.`
      : m.arrive_by
        ? html`The interview clock starts when you are both in the room.`
        : html`The interview clock starts when you are both in the room; the room stays open until ${fmtDate(m.interview_ends_at)}.`
  }</p>
${arrivals(m, role, viewerId)}
<div class="actions">${actionButton(request, `/matches/${m.id}/room`, 'Enter the interview room', { cls: 'btn btn-primary' })}</div>
</section>`;
}
