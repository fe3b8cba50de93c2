import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { queueBoxes, WEB_AGENT_IDENTITY, type SeekerQueue } from '../queue/queue-pages';
import { type LiveEventRow } from '#db/events/events-repository';
import { type JobWithEvent } from '#db/events/jobs-repository';
import { AppError, NotFoundError } from '#lib/errors';
import { currentUser } from '../web/core';
import { html, type SafeHtml } from '../web/html';
import { fmtDate, sendPage } from '../web/layout';
import { choiceWords, errorMessage, salaryRange } from '../web/messages';
import { eventStructuredData, jsonLdText } from './structured-data';

export function jobCard(
  j: Pick<
    JobWithEvent,
    | 'title'
    | 'essential_skills'
    | 'bonus_skills'
    | 'experience_min'
    | 'salary_min'
    | 'salary_max'
    | 'location'
    | 'remote_preference'
  >,
  headingLevel: 2 | 3,
  currency: string,
): SafeHtml {
  const salary = salaryRange(j.salary_min, j.salary_max, currency);
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

/**
 * An event as people tell events apart on a list: its company and its headline ("Acme
 * Compilers: hiring day for tool builders"), the address (slug) when it has no headline; a team
 * may run several events.
 */
export function eventTitle(e: Pick<LiveEventRow, 'company_name' | 'headline' | 'slug'>): string {
  return `${e.company_name}: ${e.headline ?? e.slug}`;
}

const eventsPages: FastifyPluginAsync = async (app) => {
  const { events, jobs } = app.services.deps.repos;
  const queue = app.services.queue;
  const { queueBox, seekerQueue } = queueBoxes(app);
  const eventsService = app.services.events.liveEvents;

  app.get('/', async (request, reply) => {
    const live = await eventsService.liveNow();
    const s = request.webSession;
    return sendPage(request, reply, {
      title: 'Live events',
      body: html`<h1>${s ? html`Welcome, ${s.user.display_name}` : 'Meet recruiters live, today'}</h1>
${
  !s
    ? html`<p class="lead">Companies run live hiring events. Join a queue, get matched with a recruiter whose job fits your profile, accept, and meet by video, all in a few minutes.</p>
<p class="actions"><a class="btn btn-primary" href="/signup">Create an account</a> <a class="btn" href="/login">Sign in</a></p>`
    : ''
}
${s && !s.user.onboarding_completed_at ? html`<p class="panel panel-soft">Finish <a href="/onboarding">your profile</a> before joining a queue.</p>` : ''}
${s?.user.role === 'recruiter' ? html`<p><a class="btn btn-primary" href="/recruiter">Open the recruiter console</a></p>` : ''}
<h2>Live now</h2>
${
  live.length
    ? html`<ul class="cards">${live.map(
        (e) => html`<li class="card" data-accent="${e.accent_color}">
  <h3><a href="/events/${e.slug}">${eventTitle(e)}</a> ${statusBadge(e.status)}</h3>
  ${e.job_titles.length ? html`<p class="hint">Hiring: ${e.job_titles.slice(0, 5).join(', ')}${e.job_titles.length > 5 ? '…' : ''}</p>` : ''}
  <p class="hint">${e.candidates_joined} candidates joined · ${e.matches_made} matches</p>
</li>`,
      )}</ul>`
    : html`<p>No event is live right now.${s?.user.role === 'seeker' ? html` You can still <a href="/queue">join the queue for any event</a>.` : ''}</p>`
}
${s?.user.role === 'seeker' ? html`<p><a href="/queue">Queue for any event</a> · <a href="/matches">Your matches</a></p>` : ''}`,
    });
  });

  const eventPage = async (
    request: FastifyRequest<{ Params: { slug: string } }>,
    reply: FastifyReply,
    error?: string,
    status = 200,
  ) => {
    const event = await events.findBySlug(request.params.slug);
    const s = request.webSession;
    const ownTeam = !!event && s?.membership?.team_id === event.team_id;
    if (!event || (event.status === 'draft' && !ownTeam)) throw new NotFoundError('event', request.params.slug);
    const list = await jobs.listOpenForEvent(event.id, 100);
    const q: SeekerQueue =
      s?.user.role === 'seeker' ? await seekerQueue(s.user.id) : { v: null, match: null, finished: false };
    const v = q.v;
    const structured = eventStructuredData(event, list, {
      publicBaseUrl: app.config.publicBaseUrl,
      currency: app.config.BILLING_CURRENCY,
      name: eventTitle(event),
    });
    return sendPage(request, reply, {
      title: event.company_name,
      status,
      jsonLd: structured ? jsonLdText(structured) : undefined,
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
  ${
    event.status === 'ended'
      ? event.ended_at
        ? html`<dt>Ended</dt><dd>${fmtDate(event.ended_at)}</dd>`
        : ''
      : event.ends_at
        ? html`<dt>Ends</dt><dd>${fmtDate(event.ends_at)}</dd>`
        : ''
  }
</dl>
${
  event.status === 'live'
    ? queueBox(
        request,
        q,
        `/events/${event.slug}/join`,
        { id: event.id, slug: event.slug, company: event.company_name },
        error,
      )
    : event.status === 'paused'
      ? html`<p class="panel panel-soft">The event is paused; matching resumes when the recruiters are back.${v && v.entry.live_event_id === event.id && v.entry.status === 'waiting' ? ' You keep your place in the queue.' : ''}</p>${
          v && v.entry.live_event_id === event.id && v.entry.status !== 'left' && v.entry.status !== 'expired'
            ? queueBox(request, q, `/events/${event.slug}/join`, {
                id: event.id,
                slug: event.slug,
                company: event.company_name,
              })
            : ''
        }`
      : event.status === 'ended'
        ? html`<p class="panel panel-soft">This event has ended.</p>`
        : html`<p class="panel panel-soft">This event has not started yet.</p>`
}
${
  event.status === 'ended'
    ? html`<h2>Jobs at this event (${list.length})</h2>
${list.length ? html`<p class="hint">The event has ended: these jobs are no longer offered here.</p>` : ''}`
    : html`<h2>Open jobs (${list.length})</h2>`
}
${list.length ? html`<ul class="cards">${list.map((j) => html`<li class="card">${jobCard(j, 3, app.config.BILLING_CURRENCY)}</li>`)}</ul>` : html`<p>No open jobs yet.</p>`}
</div>`,
    });
  };

  app.get<{ Params: { slug: string } }>('/events/:slug', async (request, reply) => eventPage(request, reply));

  /** The same use-case as POST /api/v1/queue/join, from a browser session (viaAgent: false). */
  app.post<{ Params: { slug: string } }>('/events/:slug/join', async (request, reply) => {
    const { user } = currentUser(request);
    try {
      await queue.join({
        userId: user.id,
        eventRef: request.params.slug,
        agentIdentity: WEB_AGENT_IDENTITY,
        viaAgent: false,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'ONBOARDING_INCOMPLETE')
        return reply.redirect(`/onboarding?next=${encodeURIComponent(`/events/${request.params.slug}`)}`, 303);
      if (err instanceof AppError && err.status < 500 && err.status !== 404)
        return eventPage(request, reply, errorMessage(err), err.status);
      throw err;
    }
    return reply.redirect(`/events/${encodeURIComponent(request.params.slug)}`, 303);
  });
};

export default eventsPages;
