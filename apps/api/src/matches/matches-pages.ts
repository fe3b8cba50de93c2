import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type MatchView } from './matches-service';
import { declineBodySchema, interviewReportBodySchema } from './matches-schemas';
import { AppError, NotFoundError } from '#lib/errors';
import { parseOrThrow } from '../web/forms';
import { currentUser, formBody, str, wantsJson, type FormBody } from '../web/core';
import { html, type SafeHtml } from '../web/html';
import { cardTable } from '../web/tables';
import {
  actionButton,
  errorSummary,
  fieldErrors,
  fmtDate,
  notice,
  postForm,
  radios,
  sendPage,
  textarea,
  type FieldErrors,
} from '../web/layout';
import type { InterviewOutcome, InterviewReportRow } from '#db/matches/interview-reports-repository';
import type { UserRow } from '#db/accounts/accounts-repository';
import { eventTitle, jobCard } from '../events/events-pages';
import { candidateLine } from './console-matches-pages';
import type { MatchWithJob } from '#db/matches/matches-repository';
import { UUID_RE } from '#lib/ids';
import {
  choiceWords,
  errorMessage,
  MATCH_DECLINE_LABELS,
  MATCH_PEOPLE_WORDS,
  MATCH_REPORT_LABELS,
  QUEUE_EXIT_TEXT,
  scoreDetailWords,
} from '../web/messages';
import { interviewerId, matchStatusLine, recruiterAcceptance, waitingFor } from './match-status-line';
import { matchWorkflowId } from '#workflows/matches/contract';

const COMPONENT_LABELS: Record<string, string> = {
  essential_skills: 'Essential skills',
  bonus_skills: 'Bonus skills',
  experience: 'Experience',
  salary: 'Salary',
  location: 'Location and remote work',
};

/** What the page polls: a version that changes whenever the projection does. */
export const matchVersion = (m: Pick<MatchWithJob, 'status' | 'updated_at'>) =>
  `${m.status}:${new Date(m.updated_at).getTime()}`;

const order = (k: string) => {
  const i = Object.keys(COMPONENT_LABELS).indexOf(k);
  return i < 0 ? 99 : i;
};

function scoreBreakdown(m: MatchWithJob): SafeHtml {
  const b = (m.score_breakdown ?? null) as Record<
    string,
    { weight?: number; score?: number | null; detail?: string }
  > | null;
  if (!b || typeof b !== 'object') return html``;
  // `floor` (score v2) is not a component: the quality floor the pair passed, said in words below the table.
  const floor = (b as Record<string, unknown>).floor as
    { bracket?: number; brackets?: number; min_score?: number; essential_required?: boolean } | undefined;
  return html`${cardTable(html`<div class="table-wrap"><table>
<caption class="visually-hidden">Score breakdown</caption>
<thead><tr><th scope="col">Component</th><th scope="col">Weight</th><th scope="col">Score</th><th scope="col">Why</th></tr></thead>
<tbody>${Object.entries(b)
    .filter(([k]) => k !== 'floor')
    .sort(([a], [z]) => order(a) - order(z))
    .map(([k, c]) => {
      const pct = c.score === null || c.score === undefined ? null : Math.round(c.score * 100);
      return html`<tr><th scope="row">${COMPONENT_LABELS[k] ?? choiceWords(k)}</th><td>${c.weight ?? '—'}</td>
<td>${pct === null ? html`<span class="hint">no data (left out)</span>` : html`${pct}%<div class="score-bar" aria-hidden="true"><span data-width="${pct}"></span></div>`}</td>
<td>${scoreDetailWords(c.detail ?? '')}</td></tr>`;
    })}</tbody></table></div>`)}
${floor && typeof floor.min_score === 'number' ? html`<p class="hint">Quality floor passed: a score of at least ${floor.min_score}${floor.essential_required ? ' with at least one essential skill' : ''}${typeof floor.bracket === 'number' && floor.brackets ? ` (step ${floor.bracket + 1} of ${floor.brackets}; the floor relaxes as a candidate waits)` : ''}.</p>` : ''}`;
}

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
function noShowPanel(
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

const OUTCOME_TEXT: Record<InterviewOutcome, string> = {
  advance: 'Advance: exchange contact details',
  follow_up: 'Follow up later',
  pass: 'Pass',
};
const SCORE_LABELS: Array<[string, string]> = (['fit', 'communication', 'technical'] as const).map((k) => [
  k,
  MATCH_REPORT_LABELS[k],
]);

/**
 * After the interview: the recruiter's report card (form, or what was saved), the contact details
 * once a recruiter chose "advance", and for the seeker what happens next.
 */
function afterInterview(
  request: FastifyRequest,
  m: MatchWithJob,
  role: 'seeker' | 'recruiter',
  report: InterviewReportRow | undefined,
  author: UserRow | undefined,
  seeker: UserRow | undefined,
  eventSlug: string | null,
  o: { errors?: FieldErrors | null; reportValues?: FormBody },
  viewer: { userId: string; interviewerName: string | null; reportAuthorName: string | null },
): SafeHtml {
  const W = MATCH_PEOPLE_WORDS;
  // On the team's side the report card is the interviewer's (decision 0249); a teammate reads it.
  const interviewer = interviewerId(m);
  const teammate = role === 'recruiter' && !!interviewer && interviewer !== viewer.userId;
  const interviewerName = viewer.interviewerName ?? 'A colleague';
  const advanced =
    role === 'seeker'
      ? 'The recruiter would like to continue. Write to them:'
      : !report || report.author_user_id === viewer.userId
        ? 'You chose to advance this candidate. Write to them:'
        : `${viewer.reportAuthorName ?? 'A colleague'} chose to advance this candidate. Write to them:`;
  const contacts =
    report?.outcome === 'advance' && author && seeker
      ? teammate
        ? html`<section class="panel panel-success" aria-labelledby="contact-h" id="contact-details">
<h2 id="contact-h">Contact details</h2>
<p>${W.colleagueAdvanced(interviewerName)}</p>
</section>`
        : html`<section class="panel panel-success" aria-labelledby="contact-h" id="contact-details">
<h2 id="contact-h">Contact details</h2>
<p>${advanced}</p>
<p><strong>${role === 'seeker' ? author.display_name : (m.seeker_name ?? seeker.display_name)}</strong> · <a href="mailto:${role === 'seeker' ? author.email : seeker.email}">${role === 'seeker' ? author.email : seeker.email}</a></p>
<p class="hint">Both of you also received these details by e-mail.</p>
</section>`
      : html``;
  if (role === 'seeker') {
    const next = !report
      ? 'The recruiter is writing up the interview; this page shows the next step as soon as there is one.'
      : report.outcome === 'advance'
        ? 'Good news: the recruiter wants to continue with you.'
        : report.outcome === 'follow_up'
          ? 'The recruiter will follow up with you.'
          : 'The recruiter decided not to continue this time. Thank you for your time.';
    return html`<section class="panel" aria-labelledby="next-h" id="next-step"><h2 id="next-h">What happens next</h2><p>${next}</p>
<p class="actions"><a class="btn" href="${eventSlug ? `/events/${eventSlug}` : '/queue'}">Join a queue again</a></p></section>${contacts}`;
  }
  const saved = (r: InterviewReportRow) =>
    html`fit ${r.fit}/5, communication ${r.communication}/5, technical ${r.technical}/5 — <strong>${OUTCOME_TEXT[r.outcome]}</strong>`;
  if (teammate)
    return html`<section class="panel" aria-labelledby="report-h" id="report-card" data-report-readonly>
<h2 id="report-h">Report card</h2>
<p>${report ? html`${W.colleagueSavedReport(viewer.reportAuthorName ?? interviewerName)} ${fmtDate(report.updated_at)}: ${saved(report)}.` : W.colleagueWritesReport(interviewerName)}</p>
${report?.notes ? html`<p class="hint">Notes: ${report.notes}</p>` : ''}
</section>${contacts}`;
  const errors = o.errors ?? null;
  const v = o.reportValues;
  const val = (k: string): string =>
    v ? str(v, k) : report ? String((report as unknown as Record<string, unknown>)[k] ?? '') : '';
  const scoreField = ([name, label]: [string, string]) =>
    radios({
      name,
      label,
      value: val(name),
      errors,
      options: [1, 2, 3, 4, 5].map(
        (n) =>
          [String(n), String(n), n === 1 ? '(weak)' : n === 5 ? '(excellent)' : undefined] as [string, string, string?],
      ),
      inline: true,
    });
  return html`<section class="panel" aria-labelledby="report-h" id="report-card">
<h2 id="report-h">Report card</h2>
${report && !errors ? html`<p class="notice" role="status">Saved ${fmtDate(report.updated_at)}: ${saved(report)}. You can change it below.</p>` : html`<p>Rate the interview and choose the next step. The candidate sees only the next step, never your scores or notes.</p>`}
${errorSummary(errors, {
  fit: 'Fit for the role',
  communication: 'Communication',
  technical: 'Technical skills',
  outcome: 'Next step',
  notes: 'Notes',
})}
${postForm(
  request,
  `/matches/${m.id}/report`,
  html`${SCORE_LABELS.map(scoreField)}
${radios({
  name: 'outcome',
  label: MATCH_REPORT_LABELS.outcome,
  value: val('outcome'),
  errors,
  options: [
    ['advance', OUTCOME_TEXT.advance, 'both of you receive the other’s e-mail address'],
    ['follow_up', OUTCOME_TEXT.follow_up],
    ['pass', OUTCOME_TEXT.pass, 'this pair is not matched again'],
  ],
})}
${textarea({ name: 'notes', label: MATCH_REPORT_LABELS.notes, value: val('notes'), errors, rows: 3 })}
<button type="submit" class="btn btn-primary">Save report card</button>`,
  { label: 'Report card' },
)}
</section>${contacts}`;
}

/**
 * Whom the seeker meets: before a recruiter accepts, the team (and to whom it is offered); once one
 * accepted (or the team auto-accepted for the one it is offered to), that recruiter by name.
 */
function seekerMeets(m: MatchWithJob, company: string): string {
  const W = MATCH_PEOPLE_WORDS;
  const known = m.recruiter_accepted_at && m.recruiter_name;
  if (known && m.status === 'completed') return W.seekerMet(m.recruiter_name!, company);
  // Ended without an interview: nobody is going to meet anyone any more.
  if (m.status === 'declined' || m.status === 'expired' || m.status === 'no_show')
    return known ? W.seekerWasToMeet(m.recruiter_name!, company) : W.seekerTeamWas(company);
  if (known) return W.seekerMeets(m.recruiter_name!, company);
  return m.recruiter_name
    ? `${W.seekerMeetsTeam(company)}: ${W.seekerOfferedTo(m.recruiter_name)}`
    : W.seekerMeetsTeam(company);
}

const matchesPages: FastifyPluginAsync = async (app) => {
  const matches = app.services.matches;
  const profiles = app.services.accounts.profiles;
  const { events, jobs, accounts, interviewReports } = app.services.deps.repos;

  const loadView = async (userId: string, matchId: string): Promise<MatchView> => {
    if (!UUID_RE.test(matchId)) throw new NotFoundError('match', matchId);
    return matches.get({ userId, matchId });
  };

  app.get('/matches', async (request, reply) => {
    const { user } = currentUser(request);
    const list = await matches.list({ userId: user.id });
    // Events by name (company and headline), as the home page and the console name them.
    const eventRows = await Promise.all(
      [...new Set(list.map((v) => v.match.live_event_id))].map((id) => events.findById(id)),
    );
    const eventById = new Map(eventRows.flatMap((e) => (e ? [[e.id, e] as const] : [])));
    return sendPage(request, reply, {
      title: 'Matches',
      body: html`<h1>${user.role === 'recruiter' ? "Your team's matches" : 'Your matches'}</h1>
<div id="matches-list" data-live-region>${
        list.length
          ? cardTable(html`<div class="table-wrap"><table>
<caption class="visually-hidden">Matches, newest first</caption>
<thead><tr><th scope="col">Job</th>${user.role === 'recruiter' ? html`<th scope="col">Candidate</th>` : ''}<th scope="col">Event</th><th scope="col">Score</th><th scope="col">Status</th><th scope="col">Made</th><th scope="col">Accept by</th></tr></thead>
<tbody>${list.map(
              ({
                match: m,
                role,
              }) => html`<tr><th scope="row"><a href="/matches/${m.id}">${m.job_title ?? 'Job'}</a></th>${user.role === 'recruiter' ? html`<td>${candidateLine(m)}</td>` : ''}
<td>${eventById.get(m.live_event_id) ? html`<a href="/events/${eventById.get(m.live_event_id)!.slug}">${eventTitle(eventById.get(m.live_event_id)!)}</a>` : (m.live_event_slug ?? '—')}</td><td>${m.match_score ?? '—'}</td><td><span class="state state-${m.status}">${m.status}</span> <span class="hint" data-status-line>${matchStatusLine(m, { role, userId: user.id })}</span></td><td>${fmtDate(m.created_at)}</td><td>${m.status === 'matched' && m.expires_at ? html`${fmtDate(m.expires_at)} (<span class="countdown" data-countdown-to="${m.expires_at.toISOString()}" data-expired-text="time is up">…</span>)` : ''}</td></tr>`,
            )}</tbody></table></div>`)
          : html`<p>No matches yet.${user.role === 'seeker' ? html` <a href="/">Join a live event's queue</a> to be matched.` : ''}</p>`
      }</div>`,
    });
  });

  /**
   * For the team's owners when TEMPORAL_UI_URL is set: the match's workflow in the Temporal UI
   * (history, timers, pending activities). Owners only: the UI shows every workflow of the
   * namespace, so the link is for whoever runs the fair, not every recruiter (decision 0173).
   */
  const temporalUiLink = (
    m: MatchWithJob,
    membership: { team_id: string; role: string } | null | undefined,
  ): SafeHtml => {
    const base = app.config.TEMPORAL_UI_URL;
    if (!base || !membership || membership.role !== 'owner' || membership.team_id !== m.team_id) return html``;
    const href = `${base.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(app.config.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(matchWorkflowId(m.id))}`;
    return html`<p class="hint" id="temporal-ui-link">For operators: <a href="${href}" target="_blank" rel="noopener noreferrer">this match's workflow in the Temporal UI</a> (opens in a new tab).</p>`;
  };

  const matchPage = async (
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    o: {
      errors?: FieldErrors | null;
      reason?: string;
      status?: number;
      roomError?: string;
      reportValues?: FormBody;
    } = {},
  ) => {
    const { user, membership } = currentUser(request);
    const { match: m, role } = await loadView(user.id, request.params.id);
    const [job, event, seekerProfile, seekerUser, acceptedBy, report] = await Promise.all([
      jobs.findForTeam(m.team_id, m.job_id),
      events.findById(m.live_event_id),
      profiles.get(m.seeker_user_id),
      accounts.findUserById(m.seeker_user_id),
      m.recruiter_accepted_by ? accounts.findUserById(m.recruiter_accepted_by) : Promise.resolve(undefined),
      m.status === 'completed' ? interviewReports.findByMatch(m.id) : Promise.resolve(undefined),
    ]);
    // The seeker's contact after an "advance" is the recruiter who interviewed (decision 0244), the
    // report's author when the match names nobody.
    const interviewer = interviewerId(m);
    const author =
      report?.outcome === 'advance' && interviewer
        ? await accounts.findUserById(interviewer)
        : report?.author_user_id
          ? await accounts.findUserById(report.author_user_id)
          : undefined;
    const interviewerName =
      interviewer === m.recruiter_user_id
        ? m.recruiter_name
        : interviewer === acceptedBy?.id
          ? acceptedBy.display_name
          : null;
    const reportAuthorName = !report?.author_user_id
      ? null
      : report.author_user_id === author?.id
        ? author.display_name
        : ((await accounts.findUserById(report.author_user_id))?.display_name ?? null);
    const viewer = { role, userId: user.id };
    const statusLine = matchStatusLine(m, viewer);
    // "You accepted" only for the person who did: a colleague's acceptance is theirs, by name.
    const mine =
      role === 'seeker'
        ? m.seeker_accepted_at
        : m.recruiter_accepted_by === user.id && !m.recruiter_auto_accepted
          ? m.recruiter_accepted_at
          : null;
    const colleague = role === 'recruiter' && m.recruiter_accepted_at && !mine ? recruiterAcceptance(m, viewer) : null;
    const other = role === 'seeker' ? 'the recruiter' : 'the candidate';
    /** The team's side of the room is the match's recruiter's once one accepted. */
    const notMyInterview = role === 'recruiter' && !!m.recruiter_user_id && m.recruiter_user_id !== user.id;
    /** Once a recruiter accepted, only the interviewer declines for the team (a teammate is told who decides). */
    const colleagueDecides =
      role === 'recruiter' && !!m.recruiter_accepted_at && !!interviewer && interviewer !== user.id;
    const errors = o.errors ?? null;

    const actions =
      m.status === 'matched'
        ? html`<section class="panel" aria-labelledby="decide-h">
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
</section>`
        : m.status === 'accepted'
          ? notMyInterview
            ? html`<section class="panel panel-success" aria-labelledby="room-h">
<h2 id="room-h">${MATCH_PEOPLE_WORDS.colleagueInterviewsHeading(interviewerName ?? 'A colleague')}</h2>
<p>Both sides accepted ${fmtDate(m.accepted_at)}.</p>
<p data-interviewer>${MATCH_PEOPLE_WORDS.colleagueInterviews(interviewerName ?? 'A colleague')}</p>
<p>${
                m.interview_started_at
                  ? html`The interview started ${fmtDate(m.interview_started_at)} and ends ${fmtDate(m.interview_ends_at)}${m.interview_ends_at ? html` (<span class="countdown" data-countdown-to="${m.interview_ends_at.toISOString()}" data-expired-text="now">…</span> left)` : ''}.`
                  : html`The interview clock starts when ${interviewerName ?? 'the interviewer'} and the candidate are both in the room.`
              }</p>
${arrivals(m, role, user.id)}
</section>`
            : html`<section class="panel panel-success" aria-labelledby="room-h">
<h2 id="room-h">The interview room is open</h2>
<p>Both sides accepted ${fmtDate(m.accepted_at)}. ${
                m.interview_started_at
                  ? html`You were both in the room ${fmtDate(m.interview_started_at)}: the interview ends ${fmtDate(m.interview_ends_at)}${m.interview_ends_at ? html` (<span class="countdown" data-countdown-to="${m.interview_ends_at.toISOString()}" data-expired-text="now">…</span> left)` : ''}.`
                  : m.arrive_by
                    ? html`The interview clock starts when you are both in the room.`
                    : html`The interview clock starts when you are both in the room; the room stays open until ${fmtDate(m.interview_ends_at)}.`
              }</p>
${arrivals(m, role, user.id)}
<div class="actions">${actionButton(request, `/matches/${m.id}/room`, 'Enter the interview room', { cls: 'btn btn-primary' })}</div>
</section>`
          : m.status === 'completed'
            ? html`<p class="panel panel-soft">The interview was completed ${fmtDate(m.completed_at)}.</p>
${afterInterview(request, m, role, report, author, seekerUser, event?.slug ?? null, o, { userId: user.id, interviewerName, reportAuthorName })}`
            : m.status === 'no_show'
              ? noShowPanel(request, m, role, user.id, event)
              : html`<p class="panel panel-soft">${
                  m.status === 'declined'
                    ? html`Declined by ${m.declined_by_role === role ? 'you' : `the ${m.declined_by_role ?? 'other side'}`} ${fmtDate(m.declined_at)}${m.decline_reason ? html`: “${m.decline_reason}”` : ''}.`
                    : html`Nobody accepted before ${fmtDate(m.expires_at)}.`
                }</p>`;

    return sendPage(request, reply, {
      title: `Match: ${m.job_title ?? 'job'}`,
      status: o.status ?? (errors ? 400 : 200),
      body: html`<div id="match-state" data-live-region data-state-url="/matches/${m.id}/state.json" data-version="${matchVersion(m)}"${event ? html` data-accent="${event.accent_color}"` : ''}>
<p class="hint"><a href="/matches">All matches</a></p>
${notice(request)}
<h1>${m.job_title ?? 'Match'}${event ? html` at ${event.company_name}` : ''}</h1>
<p class="status-box" role="status">Status: <strong class="state state-${m.status}" data-match-status="${m.status}">${m.status}</strong> — <span data-status-line>${statusLine}</span>
<br><span class="hint">Seeker: ${m.seeker_accepted_at ? html`accepted ${fmtDate(m.seeker_accepted_at)}` : 'not yet accepted'} · Recruiter: ${m.recruiter_accepted_at ? html`accepted ${fmtDate(m.recruiter_accepted_at)}${m.recruiter_auto_accepted ? ' (team auto-accept)' : acceptedBy ? ` by ${acceptedBy.display_name}` : ''}` : 'not yet accepted'}</span></p>
${o.roomError ? html`<p class="error" role="alert">${o.roomError}</p>` : o.status && o.status >= 400 && !errors ? html`<p class="error" role="alert">That did not work: the match changed in the meantime. This is its current state.</p>` : ''}
${actions}
${role === 'recruiter' ? temporalUiLink(m, membership) : ''}
<div class="two-col">
<section aria-labelledby="score-h">
  <h2 id="score-h">Match score: ${m.match_score ?? '—'}${m.match_score !== null ? ' / 100' : ''}</h2>
  ${scoreBreakdown(m)}
</section>
<section aria-labelledby="other-h">
  <h2 id="other-h">${role === 'recruiter' ? 'The candidate' : 'The job'}</h2>
  ${
    role === 'recruiter'
      ? html`${m.seeker_via_agent ? html`<p><span class="badge badge-agent">joined via agent</span> ${m.seeker_agent_identity ?? ''}</p>` : ''}
${
  seekerProfile
    ? html`<h3>${seekerProfile.full_name}</h3>
<p>${seekerProfile.title}${seekerProfile.experience_years ? ` · ${seekerProfile.experience_years} years` : ''}${seekerProfile.location ? ` · ${seekerProfile.location}` : ''}${seekerProfile.remote_preference ? ` · ${choiceWords(seekerProfile.remote_preference)}` : ''}</p>
${seekerProfile.summary ? html`<p>${seekerProfile.summary}</p>` : ''}
${seekerProfile.skills.length ? html`<ul class="skills">${seekerProfile.skills.map((s) => html`<li>${s}</li>`)}</ul>` : ''}`
    : html`<p>${seekerUser?.display_name ?? 'Candidate'}</p>`
}
<p><a href="/recruiter/candidates/${m.seeker_user_id}">Notes and rating</a></p>`
      : html`${job ? jobCard(job, 3, app.config.BILLING_CURRENCY) : html`<p>${m.job_title}</p>`}
${event ? html`<p>At <a href="/events/${event.slug}">${event.company_name}</a>${event.headline ? html`: ${event.headline}` : ''}.</p><p data-interviewer>${seekerMeets(m, event.company_name)}.</p>` : ''}
${m.seeker_via_agent ? html`<p class="hint"><span class="badge badge-agent">joined via agent</span> You joined this queue through ${m.seeker_agent_identity ?? 'an agent'}; the recruiter sees this.</p>` : ''}`
  }
</section>
</div>
</div>`,
    });
  };

  app.get<{ Params: { id: string } }>('/matches/:id', async (request, reply) => matchPage(request, reply));

  app.get<{ Params: { id: string } }>('/matches/:id/state.json', async (request) => {
    const { user } = currentUser(request);
    const { match: m } = await loadView(user.id, request.params.id);
    return { status: m.status, version: matchVersion(m) };
  });

  /** The report card (post/redirect/get): errors re-render the page with the person's input. */
  app.post<{ Params: { id: string } }>('/matches/:id/report', async (request, reply) => {
    const { user } = currentUser(request);
    if (!UUID_RE.test(request.params.id)) throw new NotFoundError('match', request.params.id);
    const b = formBody(request);
    try {
      const report = parseOrThrow(interviewReportBodySchema, {
        fit: str(b, 'fit'),
        communication: str(b, 'communication'),
        technical: str(b, 'technical'),
        outcome: str(b, 'outcome') || undefined,
        notes: str(b, 'notes'),
      });
      await matches.submitReport({ userId: user.id, matchId: request.params.id, report });
    } catch (err) {
      const errors = fieldErrors(err);
      if (errors) return matchPage(request, reply, { errors, reportValues: b });
      if (err instanceof AppError && err.status === 409) return matchPage(request, reply, { status: 409 });
      // A teammate of the interviewer: said on the page; a JSON client gets the envelope.
      if (err instanceof AppError && err.code === 'MATCH_NOT_YOUR_INTERVIEW' && !wantsJson(request))
        return matchPage(request, reply, { status: 403, roomError: errorMessage(err) });
      throw err;
    }
    return reply.redirect(`/matches/${request.params.id}?done=report-saved#report-card`, 303);
  });

  /** Acceptance exists only here: a signed-in human, through the same use-case as nothing else. */
  app.post<{ Params: { id: string } }>('/matches/:id/accept', async (request, reply) => {
    const { user } = currentUser(request);
    if (!UUID_RE.test(request.params.id)) throw new NotFoundError('match', request.params.id);
    try {
      await matches.accept({ userId: user.id, matchId: request.params.id });
    } catch (err) {
      // No free interview slot: said in words; the match stays offered to the team.
      if (err instanceof AppError && err.code === 'MATCH_RECRUITER_AT_CAPACITY')
        return matchPage(request, reply, { status: 409, roomError: errorMessage(err) });
      if (err instanceof AppError && err.status === 409) return matchPage(request, reply, { status: 409 });
      throw err;
    }
    return reply.redirect(`/matches/${request.params.id}`, 303);
  });

  /** The same decline use-case and body schema as POST /api/v1/matches/{id}/decline. */
  app.post<{ Params: { id: string } }>('/matches/:id/decline', async (request, reply) => {
    const { user } = currentUser(request);
    if (!UUID_RE.test(request.params.id)) throw new NotFoundError('match', request.params.id);
    const form = formBody(request);
    const reason = str(form, 'reason');
    // The seeker's second button: decline and leave the queue in one step.
    const leaveQueue = str(form, 'leave_queue') === 'true';
    try {
      const body = parseOrThrow(declineBodySchema, { reason, leave_queue: leaveQueue || undefined });
      await matches.decline({
        userId: user.id,
        matchId: request.params.id,
        reason: body.reason,
        leaveQueue: body.leave_queue === true,
      });
    } catch (err) {
      const errors = fieldErrors(err);
      if (errors) return matchPage(request, reply, { errors, reason });
      // A teammate of the interviewer: said in words (the page then shows who decides).
      if (err instanceof AppError && err.code === 'MATCH_NOT_YOUR_INTERVIEW' && !wantsJson(request))
        return matchPage(request, reply, { status: 403, roomError: errorMessage(err) });
      if (err instanceof AppError && (err.status === 409 || err.status === 403))
        return matchPage(request, reply, { status: err.status });
      throw err;
    }
    return reply.redirect(`/matches/${request.params.id}${leaveQueue ? '?done=declined-left-queue' : ''}`, 303);
  });

  /**
   * Issues the caller's room URL through the video provider adapter and sends the browser there.
   * The built-in room is on PUBLIC_BASE_URL: the redirect is a path, so it stays on whatever
   * origin the page was reached by (an absolute URL on another origin is blocked by the CSP's
   * `form-action`). A hosted provider's origin is allowed in `form-action`; a room elsewhere
   * gets a page with a plain link. A provider failure is told on the match page.
   */
  app.post<{ Params: { id: string } }>('/matches/:id/room', async (request, reply) => {
    const { user } = currentUser(request);
    if (!UUID_RE.test(request.params.id)) throw new NotFoundError('match', request.params.id);
    let roomUrl: string;
    try {
      ({ roomUrl } = await matches.interviewRoomUrl({ userId: user.id, matchId: request.params.id }));
    } catch (err) {
      if (err instanceof AppError && err.status === 409) return matchPage(request, reply, { status: 409 });
      if (err instanceof AppError && err.status === 503)
        return matchPage(request, reply, {
          status: 503,
          roomError: 'The video service could not open the room just now. Please try again in a moment.',
        });
      throw err;
    }
    const target = new URL(roomUrl);
    if (target.origin === new URL(app.config.publicBaseUrl).origin)
      return reply.redirect(`${target.pathname}${target.search}`, 303);
    if (app.config.VIDEO_PROVIDER_URL && target.origin === new URL(app.config.VIDEO_PROVIDER_URL).origin)
      return reply.redirect(roomUrl, 303);
    return sendPage(request, reply, {
      title: 'Your interview room is ready',
      narrow: true,
      body: html`<h1>Your interview room is ready</h1>
<p class="lead">The room is hosted by our video provider.</p>
<p class="actions"><a class="btn btn-primary" href="${roomUrl}" rel="noreferrer">Open the interview room</a> <a class="btn" href="/matches/${request.params.id}">Back to the match</a></p>`,
    });
  });
};

export default matchesPages;
