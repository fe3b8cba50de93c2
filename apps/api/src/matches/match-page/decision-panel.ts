import type { FastifyRequest } from 'fastify';
import type { MatchWithJob } from '#db/matches/matches-repository';
import { html, type SafeHtml } from '../../web/html';
import { actionButton, errorSummary, fmtDate, postForm, textarea, type FieldErrors } from '../../web/layout';
import { MATCH_DECLINE_LABELS, MATCH_PEOPLE_WORDS, QUEUE_EXIT_TEXT } from '../../web/messages';
import { interviewerId, recruiterAcceptance, waitingFor } from '../match-status-line';

/**
 * A match still `matched`: the caller accepts or declines before the window closes. "You accepted"
 * only for the person who did: a colleague's acceptance is theirs, by name; once a recruiter
 * accepted, only the interviewer declines for the team (a teammate is told who decides).
 */
export function decisionPanel(
  request: FastifyRequest,
  m: MatchWithJob,
  role: 'seeker' | 'recruiter',
  userId: string,
  interviewerName: string | null,
  o: { errors?: FieldErrors | null; reason?: string },
): SafeHtml {
  const viewer = { role, userId };
  const mine =
    role === 'seeker'
      ? m.seeker_accepted_at
      : m.recruiter_accepted_by === userId && !m.recruiter_auto_accepted
        ? m.recruiter_accepted_at
        : null;
  const colleague = role === 'recruiter' && m.recruiter_accepted_at && !mine ? recruiterAcceptance(m, viewer) : null;
  const other = role === 'seeker' ? 'the recruiter' : 'the candidate';
  const interviewer = interviewerId(m);
  const colleagueDecides = role === 'recruiter' && !!m.recruiter_accepted_at && !!interviewer && interviewer !== userId;
  const errors = o.errors ?? null;
  return html`<section class="panel" aria-labelledby="decide-h">
<h2 id="decide-h">Your decision</h2>
<p>${mine || colleague ? `${role === 'seeker' ? 'The recruiter has' : 'The candidate has'} until` : 'Accept by'} <strong>${fmtDate(m.expires_at)}</strong>${m.expires_at ? html` (<span class="countdown" data-countdown-to="${m.expires_at.toISOString()}" data-expired-text="time is up">…</span> left)` : ''}${mine || colleague ? ' to accept' : ''}.</p>
${
  mine || colleague
    ? html`<p class="notice" role="status" data-acceptance>${mine ? html`${MATCH_PEOPLE_WORDS.youAccepted} ${fmtDate(mine)}.` : html`${colleague} ${fmtDate(m.recruiter_accepted_at)}.`} ${waitingFor(m, viewer) ? `${waitingFor(m, viewer)}. ` : ''}${MATCH_PEOPLE_WORDS.updatesItself}</p>`
    : html`<div class="actions">${actionButton(request, `/matches/${m.id}/accept`, 'Accept match', { cls: 'btn btn-primary' })}</div>`
}
${
  colleagueDecides
    ? html`<p data-decides>${MATCH_PEOPLE_WORDS.colleagueDecides(interviewerName ?? 'A colleague')}</p>`
    : html`${errorSummary(errors, { reason: 'Reason' })}
${postForm(
  request,
  `/matches/${m.id}/decline`,
  html`${textarea({
    name: 'reason',
    label: MATCH_DECLINE_LABELS.reason,
    value: o.reason ?? '',
    errors,
    rows: 2,
    hint: `Shown to ${other}. Required to decline.`,
  })}
${
  role === 'seeker'
    ? html`<p class="hint" id="decline-choices">${QUEUE_EXIT_TEXT.declineHint}</p>
<div class="actions"><button type="submit" class="btn btn-danger" name="leave_queue" value="false">${QUEUE_EXIT_TEXT.decline}</button>
<button type="submit" class="btn btn-danger" name="leave_queue" value="true">${QUEUE_EXIT_TEXT.declineAndLeave}</button></div>`
    : html`<button type="submit" class="btn btn-danger">Decline match</button>`
}`,
  { label: 'Decline match' },
)}`
}
</section>`;
}
