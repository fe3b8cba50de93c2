import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type MatchView } from './matches-service';
import { declineBodySchema, interviewReportBodySchema } from './matches-schemas';
import { AppError, NotFoundError } from '#lib/errors';
import { parseOrThrow } from '../web/forms';
import { currentUser, formBody, str, wantsJson } from '../web/core';
import { html, type SafeHtml } from '../web/html';
import { cardTable } from '../web/tables';
import { fieldErrors, fmtDate, notice, sendPage } from '../web/layout';
import { eventTitle, jobCard } from '../events/events-pages';
import { candidateLine } from './console-matches-pages';
import type { MatchWithJob } from '#db/matches/matches-repository';
import { UUID_RE } from '#lib/ids';
import { choiceWords, errorMessage, MATCH_PEOPLE_WORDS } from '../web/messages';
import { matchStatusLine } from './match-status-line';
import { matchWorkflowId } from '#workflows/matches/contract';
import { loadMatchPageData, type MatchPageData } from './match-page/match-page-data';
import { scoreBreakdown } from './match-page/score-breakdown';
import { statePanel, type MatchPageOptions } from './match-page/state-panel';

export { noShowClause } from './match-page/no-show-panel';

/** What the page polls: a version that changes whenever the projection does. */
export const matchVersion = (m: Pick<MatchWithJob, 'status' | 'updated_at'>) =>
  `${m.status}:${new Date(m.updated_at).getTime()}`;

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

/**
 * For the team's owners when TEMPORAL_UI_URL is set: the match's workflow in the Temporal UI
 * (history, timers, pending activities). Owners only: the UI shows every workflow of the
 * namespace, so the link is for whoever runs the fair, not every recruiter (decision 0173).
 */
function temporalUiLink(
  app: FastifyInstance,
  m: MatchWithJob,
  membership: { team_id: string; role: string } | null | undefined,
): SafeHtml {
  const base = app.config.TEMPORAL_UI_URL;
  if (!base || !membership || membership.role !== 'owner' || membership.team_id !== m.team_id) return html``;
  const href = `${base.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(app.config.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(matchWorkflowId(m.id))}`;
  return html`<p class="hint" id="temporal-ui-link">For operators: <a href="${href}" target="_blank" rel="noopener noreferrer">this match's workflow in the Temporal UI</a> (opens in a new tab).</p>`;
}

/** The other side of the match: the candidate for a recruiter, the job and its company for the seeker. */
function otherSide(app: FastifyInstance, { m, role, job, event, seekerProfile, seekerUser }: MatchPageData): SafeHtml {
  return role === 'recruiter'
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
${m.seeker_via_agent ? html`<p class="hint"><span class="badge badge-agent">joined via agent</span> You joined this queue through ${m.seeker_agent_identity ?? 'an agent'}; the recruiter sees this.</p>` : ''}`;
}

/** One match's page: its status, the panel of its state, the score and the other side. */
async function matchPage(
  app: FastifyInstance,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
  o: MatchPageOptions = {},
) {
  const { user, membership } = currentUser(request);
  const d = await loadMatchPageData(app, await loadView(app, user.id, request.params.id));
  const { m, role, event, acceptedBy } = d;
  const statusLine = matchStatusLine(m, { role, userId: user.id });
  const errors = o.errors ?? null;
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
${statePanel(request, d, user.id, o)}
${role === 'recruiter' ? temporalUiLink(app, m, membership) : ''}
<div class="two-col">
<section aria-labelledby="score-h">
  <h2 id="score-h">Match score: ${m.match_score ?? '—'}${m.match_score !== null ? ' / 100' : ''}</h2>
  ${scoreBreakdown(m)}
</section>
<section aria-labelledby="other-h">
  <h2 id="other-h">${role === 'recruiter' ? 'The candidate' : 'The job'}</h2>
  ${otherSide(app, d)}
</section>
</div>
</div>`,
  });
}

async function loadView(app: FastifyInstance, userId: string, matchId: string): Promise<MatchView> {
  if (!UUID_RE.test(matchId)) throw new NotFoundError('match', matchId);
  return app.services.matches.get({ userId, matchId });
}

const matchesPages: FastifyPluginAsync = async (app) => {
  const matches = app.services.matches;
  const events = app.services.deps.repos.events;

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

  app.get<{ Params: { id: string } }>('/matches/:id', async (request, reply) => matchPage(app, request, reply));

  app.get<{ Params: { id: string } }>('/matches/:id/state.json', async (request) => {
    const { user } = currentUser(request);
    const { match: m } = await loadView(app, user.id, request.params.id);
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
      if (errors) return matchPage(app, request, reply, { errors, reportValues: b });
      if (err instanceof AppError && err.status === 409) return matchPage(app, request, reply, { status: 409 });
      // A teammate of the interviewer: said on the page; a JSON client gets the envelope.
      if (err instanceof AppError && err.code === 'MATCH_NOT_YOUR_INTERVIEW' && !wantsJson(request))
        return matchPage(app, request, reply, { status: 403, roomError: errorMessage(err) });
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
        return matchPage(app, request, reply, { status: 409, roomError: errorMessage(err) });
      if (err instanceof AppError && err.status === 409) return matchPage(app, request, reply, { status: 409 });
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
      if (errors) return matchPage(app, request, reply, { errors, reason });
      // A teammate of the interviewer: said in words (the page then shows who decides).
      if (err instanceof AppError && err.code === 'MATCH_NOT_YOUR_INTERVIEW' && !wantsJson(request))
        return matchPage(app, request, reply, { status: 403, roomError: errorMessage(err) });
      if (err instanceof AppError && (err.status === 409 || err.status === 403))
        return matchPage(app, request, reply, { status: err.status });
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
      if (err instanceof AppError && err.status === 409) return matchPage(app, request, reply, { status: 409 });
      if (err instanceof AppError && err.status === 503)
        return matchPage(app, request, reply, {
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
