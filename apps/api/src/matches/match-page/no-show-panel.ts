import type { FastifyRequest } from 'fastify';
import type { MatchWithJob } from '#db/matches/matches-repository';
import { html, type SafeHtml } from '../../web/html';
import { actionButton, fmtDate } from '../../web/layout';

/** Who did not come to a no-show's room, as a clause in the viewer's words. */
export function noShowClause(missing: string | null, viewer: 'seeker' | 'recruiter'): string {
  if (missing === 'both') return 'neither of you came to the interview room in time';
  if (missing === viewer) return 'you did not come to the interview room in time';
  return `${missing === 'seeker' ? 'the candidate' : 'the recruiter'} did not come to the interview room in time`;
}

/**
 * A no-show, for each viewer: who did not come, that it is not an interview, and what now. A
 * seeker whose recruiter did not come goes back to the queue by choice (the same event's join).
 */
export function noShowPanel(
  request: FastifyRequest,
  m: MatchWithJob,
  role: 'seeker' | 'recruiter',
  viewerId: string,
  event: { slug: string; company_name: string; status: string } | undefined,
): SafeHtml {
  const missing = m.no_show_missing ?? 'both';
  const by = html`by ${fmtDate(m.arrive_by ?? m.no_show_at)}`;
  // A teammate of the interviewer was not expected in the room: the interviewer is named instead of "you".
  const interviewer = role === 'recruiter' && m.recruiter_user_id !== viewerId ? m.recruiter_name : null;
  const heading =
    missing === 'both'
      ? interviewer
        ? 'Neither side came to the interview'
        : 'Neither of you came to the interview'
      : missing === role
        ? interviewer
          ? `${interviewer} did not come to the interview`
          : 'You did not come to the interview'
        : role === 'seeker'
          ? 'The recruiter did not come'
          : 'The candidate did not come';
  const open = event && (event.status === 'live' || event.status === 'paused');
  const again =
    role !== 'seeker'
      ? html``
      : open
        ? html`<div class="actions">${actionButton(request, `/events/${event.slug}/join`, missing === 'recruiter' ? 'Back to the queue' : `Join the queue for ${event.company_name} again`, { cls: missing === 'recruiter' ? 'btn btn-primary' : 'btn' })}</div>`
        : html`<p class="actions"><a class="btn" href="/">Find another live event</a></p>`;
  const text =
    role === 'seeker'
      ? missing === 'recruiter'
        ? html`Nobody from ${event?.company_name ?? 'the company'} came to the interview room ${by}, so the match ended without an interview. It does not count as an interview, and this job may be offered to you again.${open ? ' You can go back to the queue for this event now.' : ''}`
        : missing === 'seeker'
          ? html`The recruiter waited in the interview room; you had not come ${by}, so the match has ended.`
          : html`Neither of you came to the interview room ${by}, so the match ended without an interview.`
      : missing === 'seeker'
        ? html`${m.seeker_name ?? 'The candidate'} did not come to the interview room ${by}. The match has ended without an interview and its interview slot is free again.`
        : missing === 'recruiter'
          ? html`${interviewer ? `${interviewer}, who accepted for your team, did not come` : m.recruiter_user_id ? 'You did not come' : 'Nobody of your team came'} to the interview room ${by}. The candidate was told and may join the queue again; this pair may be matched again.`
          : html`Neither side came to the interview room ${by}. The match has ended without an interview and its interview slot is free again.`;
  return html`<section class="panel panel-warning" aria-labelledby="no-show-h" id="no-show" data-no-show-missing="${missing}">
<h2 id="no-show-h">${heading}</h2>
<p>${text}</p>
${again}
</section>`;
}
