import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type QueueEntryView } from '../queue/queue-service';
import { type LiveEventRow } from '../../../../db/events/events-repository';
import { type JobWithEvent } from '../../../../db/events/jobs-repository';
import type { MatchWithJob } from '../../../../db/matches/matches-repository';
import { AppError, NotFoundError } from '../../../../lib/errors';
import { currentUser } from '../web/core';
import { html, type SafeHtml } from '../web/html';
import { actionButton, fmtDate, sendPage } from '../web/layout';
import { choiceWords, errorMessage } from '../web/messages';

/** What the browser sends as the agent identity of a queue entry made in the web app (viaAgent: false). */
export const WEB_AGENT_IDENTITY = 'jobfair/web (browser session)';
/** The page polls queue status this often (the API asks agents for ≥ 5 s; the page follows suit). */
const QUEUE_POLL_MS = 3000;

interface SeekerQueue {
  v: QueueEntryView | null;
  match: MatchWithJob | null;
  finished: boolean;
}

const money = (n: number | null) => (n === null ? null : new Intl.NumberFormat('en-US').format(n));

export function jobCard(j: Pick<JobWithEvent, 'title' | 'essential_skills' | 'bonus_skills' | 'experience_min' | 'salary_min' | 'salary_max' | 'location' | 'remote_preference'>, headingLevel: 2 | 3 = 3): SafeHtml {
  const salary = j.salary_min !== null || j.salary_max !== null ? `${money(j.salary_min) ?? '…'} – ${money(j.salary_max) ?? '…'}` : null;
  const title = headingLevel === 2 ? html`<h2>${j.title}</h2>` : html`<h3>${j.title}</h3>`;
  return html`${title}
<dl class="kv">
  ${j.location ? html`<dt>Location</dt><dd>${j.location}</dd>` : ''}
  ${j.remote_preference ? html`<dt>Work</dt><dd>${choiceWords(j.remote_preference)}</dd>` : ''}
  ${salary ? html`<dt>Salary</dt><dd>${salary}</dd>` : ''}
  ${j.experience_min ? html`<dt>Experience</dt><dd>${j.experience_min}+ years</dd>` : ''}
</dl>
${j.essential_skills.length ? html`<p class="hint">Essential skills</p><ul class="skills">${j.essential_skills.map((s) => html`<li>${s}</li>`)}</ul>` : ''}
${j.bonus_skills.length ? html`<p class="hint">Bonus skills</p><ul class="skills">${j.bonus_skills.map((s) => html`<li>${s}</li>`)}</ul>` : ''}`;
}

function statusBadge(status: LiveEventRow['status']): SafeHtml {
  return html`<span class="badge badge-${status}">${status === 'live' ? 'Live now' : status}</span>`;
}

const eventsPages: FastifyPluginAsync = async (app) => {
  const { events, jobs, matches: matchesRepo } = app.services.deps.repos;
  const queue = app.services.queue;
  const eventsService = app.services.events.liveEvents;
  const matchUrl = (id: string | null) => (id ? `/matches/${id}` : null);

  const statusJson = (v: QueueEntryView | null) => ({
    queue_entry: v
      ? {
          id: v.entry.id,
          status: v.entry.status,
          live_event_slug: v.entry.live_event_slug,
          position: v.position,
          estimated_wait_seconds: v.estimatedWaitSeconds,
          match_id: v.entry.match_id,
          match_url: matchUrl(v.entry.match_id),
        }
      : null,
  });

  const waitText = (s: number | null) => (s === null ? 'not known yet' : s < 60 ? 'under a minute' : `about ${Math.round(s / 60)} minute${Math.round(s / 60) === 1 ? '' : 's'}`);

  /** The seeker's queue box: join button, or live position/wait, or the match link. */
  const queueBox = (request: FastifyRequest, q: SeekerQueue, joinAction: string, forEvent: { id: string; slug: string; company: string } | null, error?: string): SafeHtml =>
    html`<div id="queue-box" data-live-region>${error ? html`<p class="error" role="alert">${error}</p>` : ''}${queueState(request, q, joinAction, forEvent)}</div>`;

  /**
   * The seeker's latest entry and, when it holds a match, that match: an entry whose match was
   * accepted or completed has done its work (the run finished; its status stays `matched`), so
   * the box shows the outcome and "Join again" instead of "You have a match".
   */
  const seekerQueue = async (userId: string): Promise<SeekerQueue> => {
    const v = await queue.status(userId);
    const match = v?.entry.status === 'matched' && v.entry.match_id ? ((await matchesRepo.findById(v.entry.match_id)) ?? null) : null;
    const finished = !!v && v.entry.status === 'matched' && (v.entry.ended_at !== null || (match !== null && match.status !== 'matched'));
    return { v, match, finished };
  };

  const outcome = (m: MatchWithJob): SafeHtml =>
    m.status === 'accepted'
      ? html`<h2>Your interview is on</h2><p>Both sides accepted the match for <strong>${m.job_title ?? 'the job'}</strong>. The interview room is open until ${fmtDate(m.interview_ends_at)}.</p><p><a class="btn btn-primary" href="/matches/${m.id}">Go to the interview</a></p><p class="hint">After the interview you can join a queue again.</p>`
      : m.status === 'completed'
        ? html`<h2>Your interview is done</h2><p>Your interview for <strong>${m.job_title ?? 'the job'}</strong> ended ${fmtDate(m.completed_at)}. The recruiter will tell you the next step on <a href="/matches/${m.id}">the match page</a>.</p>`
        : html`<h2>Your last match ended</h2><p>The match for <strong>${m.job_title ?? 'the job'}</strong> is ${m.status}. <a href="/matches/${m.id}">See the match</a>.</p>`;

  const queueState = (request: FastifyRequest, q: SeekerQueue, joinAction: string, forEvent: { id: string; slug: string; company: string } | null): SafeHtml => {
    const v = q.v;
    const s = request.webSession;
    if (!s) {
      const here = forEvent ? `/events/${forEvent.slug}` : '/queue';
      return html`<div class="panel panel-soft"><p>Sign in as a job seeker to join the queue${forEvent ? html` for ${forEvent.company}` : ''}.</p>
<p class="actions"><a class="btn btn-primary" href="/signup?next=${encodeURIComponent(here)}">Sign up</a> <a class="btn" href="/login?next=${encodeURIComponent(here)}">Sign in</a></p></div>`;
    }
    if (s.user.role !== 'seeker') return html`<p class="panel panel-soft">Recruiters do not queue; seekers who join this event are matched with your team's open jobs.</p>`;
    if (q.finished && q.match) {
      const joinAgain = q.match.status !== 'accepted';
      return html`<div class="panel panel-success" role="status" data-queue-outcome="${q.match.status}">${outcome(q.match)}</div>
${joinAgain ? html`<div class="actions">${actionButton(request, joinAction, forEvent ? `Join again for ${forEvent.company}` : 'Join again for any event', { cls: 'btn btn-primary' })}</div>` : ''}`;
    }
    const active = v && (v.entry.status === 'waiting' || (v.entry.status === 'matched' && !q.finished)) ? v : null;
    const sameQueue = active && (forEvent ? active.entry.live_event_id === forEvent.id : true);
    if (active && !sameQueue) {
      return html`<div class="panel panel-soft"><p>You are already in the queue ${active.entry.live_event_slug ? html`for <a href="/events/${active.entry.live_event_slug}">${active.entry.live_event_slug}</a>` : html`for <a href="/queue">any event</a>`}. One queue at a time.</p></div>`;
    }
    if (active) {
      const matched = active.entry.status === 'matched';
      return html`<div id="queue-status" class="status-box" data-status-url="/queue/status.json" data-poll-ms="${QUEUE_POLL_MS}" data-status="${active.entry.status}" aria-live="polite">
  <p>You are in the queue${active.entry.via_agent ? html` <span class="badge badge-agent">joined via agent</span>` : ''}. Status: <strong data-field="status">${active.entry.status}</strong></p>
  <p><span class="hint">Your position</span> <span class="big-number" data-field="position">${active.position ?? '—'}</span></p>
  <p><span class="hint">Estimated wait:</span> <span data-field="wait">${waitText(active.estimatedWaitSeconds)}</span></p>
  <p class="hint">This page updates by itself. You can leave it open in a tab; joined ${fmtDate(active.entry.entered_at)}.</p>
</div>
${matched ? '' : html`<div class="actions">${actionButton(request, '/queue/leave', 'Leave the queue', { cls: 'btn' })}</div>`}
<div id="matched-box" class="panel panel-success" tabindex="-1"${matched ? '' : html` hidden`} role="status">
  <h2>You have a match</h2>
  <p>A recruiter's job fits your profile. Review it and accept before the deadline.</p>
  <p><a id="matched-link" class="btn btn-primary" href="${matchUrl(active.entry.match_id) ?? '#'}">Open the match</a></p>
</div>`;
    }
    return html`${v && (v.entry.status === 'expired' || v.entry.status === 'left') ? html`<p class="hint">Your last queue entry ${v.entry.status === 'expired' ? 'expired' : 'was left'}${v.entry.end_reason ? ` (${v.entry.end_reason})` : ''}.</p>` : ''}
<div class="actions">${actionButton(request, joinAction, forEvent ? `Join the queue for ${forEvent.company}` : 'Join the queue for any event', { cls: 'btn btn-primary' })}</div>`;
  };

  app.get('/', async (request, reply) => {
    const live = await eventsService.liveNow();
    const s = request.webSession;
    return sendPage(request, reply, {
      title: 'Live events',
      body: html`<h1>${s ? html`Welcome, ${s.user.display_name}` : 'Meet recruiters live, today'}</h1>
${!s ? html`<p class="lead">Companies run live hiring events. Join a queue, get matched with a recruiter whose job fits your profile, accept, and meet by video, all in a few minutes.</p>
<p class="actions"><a class="btn btn-primary" href="/signup">Create an account</a> <a class="btn" href="/login">Sign in</a></p>` : ''}
${s && !s.user.onboarding_completed_at ? html`<p class="panel panel-soft">Finish <a href="/onboarding">your profile</a> before joining a queue.</p>` : ''}
${s?.user.role === 'recruiter' ? html`<p><a class="btn btn-primary" href="/recruiter">Open the recruiter console</a></p>` : ''}
<h2>Live now</h2>
${
  live.length
    ? html`<ul class="cards">${live.map(
        (e) => html`<li class="card" data-accent="${e.accent_color}">
  <h3><a href="/events/${e.slug}">${e.company_name}</a> ${statusBadge(e.status)}</h3>
  ${e.headline ? html`<p>${e.headline}</p>` : ''}
  ${e.job_titles.length ? html`<p class="hint">Hiring: ${e.job_titles.slice(0, 5).join(', ')}${e.job_titles.length > 5 ? '…' : ''}</p>` : ''}
  <p class="hint">${e.candidates_joined} candidates joined · ${e.matches_made} matches</p>
</li>`,
      )}</ul>`
    : html`<p>No event is live right now.${s?.user.role === 'seeker' ? html` You can still <a href="/queue">join the queue for any event</a>.` : ''}</p>`
}
${s?.user.role === 'seeker' ? html`<p><a href="/queue">Queue for any event</a> · <a href="/matches">Your matches</a></p>` : ''}`,
    });
  });

  const eventPage = async (request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply, error?: string, status = 200) => {
    const event = await events.findBySlug(request.params.slug);
    const s = request.webSession;
    const ownTeam = !!event && s?.membership?.team_id === event.team_id;
    if (!event || (event.status === 'draft' && !ownTeam)) throw new NotFoundError('event', request.params.slug);
    const list = await jobs.listOpenForEvent(event.id, 100);
    const q: SeekerQueue = s?.user.role === 'seeker' ? await seekerQueue(s.user.id) : { v: null, match: null, finished: false };
    const v = q.v;
    return sendPage(request, reply, {
      title: event.company_name,
      status,
      body: html`<div data-accent="${event.accent_color}">
<div class="event-hero">
  ${event.logo_url ? html`<img src="${event.logo_url}" alt="${event.company_name} logo">` : ''}
  <h1>${event.company_name} ${statusBadge(event.status)}</h1>
  ${event.headline ? html`<p class="lead">${event.headline}</p>` : ''}
</div>
${ownTeam ? html`<p><a href="/recruiter/events/${event.id}">Manage this event in the console</a></p>` : ''}
${event.description ? html`<p>${event.description}</p>` : ''}
<dl class="kv">
  ${event.started_at ? html`<dt>Started</dt><dd>${fmtDate(event.started_at)}</dd>` : event.planned_start_at ? html`<dt>Starts</dt><dd>${fmtDate(event.planned_start_at)}</dd>` : ''}
  ${event.ends_at ? html`<dt>Ends</dt><dd>${fmtDate(event.ends_at)}</dd>` : ''}
</dl>
${
  event.status === 'live'
    ? queueBox(request, q, `/events/${event.slug}/join`, { id: event.id, slug: event.slug, company: event.company_name }, error)
    : event.status === 'paused'
      ? html`<p class="panel panel-soft">The event is paused; matching resumes when the recruiters are back.${v && v.entry.live_event_id === event.id && v.entry.status === 'waiting' ? ' You keep your place in the queue.' : ''}</p>${v && v.entry.live_event_id === event.id && v.entry.status !== 'left' && v.entry.status !== 'expired' ? queueBox(request, q, `/events/${event.slug}/join`, { id: event.id, slug: event.slug, company: event.company_name }) : ''}`
      : event.status === 'ended'
        ? html`<p class="panel panel-soft">This event has ended.</p>`
        : html`<p class="panel panel-soft">This event has not started yet.</p>`
}
<h2>Open jobs (${list.length})</h2>
${list.length ? html`<ul class="cards">${list.map((j) => html`<li class="card">${jobCard(j)}</li>`)}</ul>` : html`<p>No open jobs yet.</p>`}
</div>`,
    });
  };

  app.get<{ Params: { slug: string } }>('/events/:slug', async (request, reply) => eventPage(request, reply));

  /** The same use-case as POST /api/v1/queue/join, from a browser session (viaAgent: false). */
  app.post<{ Params: { slug: string } }>('/events/:slug/join', async (request, reply) => {
    const { user } = currentUser(request);
    try {
      await queue.join({ userId: user.id, eventRef: request.params.slug, agentIdentity: WEB_AGENT_IDENTITY, viaAgent: false });
    } catch (err) {
      if (err instanceof AppError && err.code === 'ONBOARDING_INCOMPLETE') return reply.redirect(`/onboarding?next=${encodeURIComponent(`/events/${request.params.slug}`)}`, 303);
      if (err instanceof AppError && err.status < 500 && err.status !== 404) return eventPage(request, reply, errorMessage(err), err.status);
      throw err;
    }
    return reply.redirect(`/events/${encodeURIComponent(request.params.slug)}`, 303);
  });

  const anyQueuePage = async (request: FastifyRequest, reply: FastifyReply, error?: string, status = 200) => {
    const { user } = currentUser(request);
    const q: SeekerQueue = user.role === 'seeker' ? await seekerQueue(user.id) : { v: null, match: null, finished: false };
    return sendPage(request, reply, {
      title: 'Queue for any event',
      status,
      body: html`<h1>Queue for any event</h1>
<p class="lead">Join once and be matched with the best-fitting open job of any live event.</p>
${queueBox(request, q, '/queue/join', null, error)}
<p><a href="/">See live events</a> to queue for one company instead.</p>`,
    });
  };

  app.get('/queue', async (request, reply) => anyQueuePage(request, reply));

  app.post('/queue/join', async (request, reply) => {
    const { user } = currentUser(request);
    try {
      await queue.join({ userId: user.id, eventRef: null, agentIdentity: WEB_AGENT_IDENTITY, viaAgent: false });
    } catch (err) {
      if (err instanceof AppError && err.code === 'ONBOARDING_INCOMPLETE') return reply.redirect('/onboarding?next=%2Fqueue', 303);
      if (err instanceof AppError && err.status < 500) return anyQueuePage(request, reply, errorMessage(err), err.status);
      throw err;
    }
    return reply.redirect('/queue', 303);
  });

  /** The same use-case as POST /api/v1/queue/leave; back to the page the seeker came from. */
  app.post('/queue/leave', async (request, reply) => {
    const { user } = currentUser(request);
    const latest = await queue.status(user.id);
    try {
      await queue.leave(user.id);
    } catch (err) {
      if (!(err instanceof AppError && err.status < 500)) throw err;
    }
    const slug = latest?.entry.live_event_slug;
    return reply.redirect(slug ? `/events/${encodeURIComponent(slug)}` : '/queue', 303);
  });

  /** What the queue box polls (session-authenticated). */
  app.get('/queue/status.json', async (request) => {
    const { user } = currentUser(request);
    return statusJson(await queue.status(user.id));
  });
};

export default eventsPages;
