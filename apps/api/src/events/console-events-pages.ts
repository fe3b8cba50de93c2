import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { parseOrThrow } from '../web/forms';
import { createEventBodySchema, updateEventBodySchema } from './events-schemas';
import { createJobBodySchema } from './jobs-schemas';
import type { LiveEventWithStats } from '#db/events/events-repository';
import { AppError } from '#lib/errors';
import type { LiveEventTransition } from '#workflows/events/contract';
import type { Page } from '../plugins/pagination';
import { eventJoinUrl } from '../plugins/join-urls';
import { formBody, str, type FormBody } from '../web/core';
import { LIST_LIMIT, consoleNav, defined, eventId, num, recruiter } from '../web/console';
import { html, type SafeHtml } from '../web/html';
import { cardTable } from '../web/tables';
import {
  actionButton,
  confirmAction,
  errorSummary,
  fieldErrors,
  fmtDate,
  input,
  notice,
  postForm,
  radios,
  sendPage,
  textarea,
  type FieldErrors,
} from '../web/layout';
import { listWaiting, waitingSection } from '../queue/console-queue-pages';
import { jobFormToBody, jobsSection } from './console-jobs-pages';
import { errorMessage, EVENT_LABELS } from '../web/messages';

const TRANSITION_LABELS: Record<LiveEventTransition, string> = {
  goLive: 'Go live',
  pause: 'Pause',
  resume: 'Resume',
  end: 'End event',
};
const ALLOWED: Record<string, LiveEventTransition[]> = {
  draft: ['goLive'],
  live: ['pause', 'end'],
  paused: ['resume', 'end'],
  ended: [],
};

/** `<input type="datetime-local">` carries no zone: the form labels it UTC. */
const fromLocal = (v: string) =>
  v.trim() === '' ? null : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v.trim()) ? `${v.trim()}:00Z` : v;
const toLocal = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 16) : '');

export function eventFormToBody(b: FormBody, mode: 'create' | 'update') {
  const opt = (k: string) => {
    const v = str(b, k).trim();
    return v === '' ? (mode === 'create' ? undefined : null) : v;
  };
  return {
    ...(mode === 'create' || str(b, 'slug') !== str(b, 'original_slug') ? { slug: str(b, 'slug').trim() } : {}),
    company_name: str(b, 'company_name').trim() || (mode === 'create' ? undefined : ''),
    headline: opt('headline'),
    description: opt('description'),
    accent_color: str(b, 'accent_color') || undefined,
    logo_url: opt('logo_url'),
    visibility: str(b, 'visibility') || undefined,
    planned_start_at:
      mode === 'create' ? (fromLocal(str(b, 'planned_start_at')) ?? undefined) : fromLocal(str(b, 'planned_start_at')),
    planned_end_at:
      mode === 'create' ? (fromLocal(str(b, 'planned_end_at')) ?? undefined) : fromLocal(str(b, 'planned_end_at')),
    interview_slots: num(str(b, 'interview_slots')),
  };
}

/**
 * The console overview's list of the team's events. Live (server-sent events refresh it, as they do
 * the matches waiting above it): "Matches made" counts every match made at the event, whatever its
 * status, so it must not read 0 beside a match waiting for acceptance.
 */
export const eventsSection = (
  list: Page<LiveEventWithStats>,
) => html`<section aria-labelledby="events-h" id="events-section" data-live-region>
<h2 id="events-h">Events</h2>
<p><a class="btn btn-primary" href="/recruiter/events/new">Create an event</a></p>
${
  list.data.length
    ? cardTable(html`<div class="table-wrap"><table><caption class="visually-hidden">Your team's events</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Slots</th><th scope="col">Candidates</th><th scope="col">Matches made</th><th scope="col">Jobs</th></tr></thead>
<tbody>${list.data.map(
        (
          e,
        ) => html`<tr><th scope="row"><a href="/recruiter/events/${e.id}">${e.company_name}</a>${e.headline ? html`<br><span class="hint">${e.headline}</span>` : ''} <span class="hint mono">${e.slug}</span></th><td><span class="state state-${e.status}">${e.status}</span></td>
<td>${e.interview_slots}</td><td>${e.candidates_joined}</td><td data-matches-made>${e.matches_made}</td><td>${e.job_titles.join(', ') || '—'}</td></tr>`,
      )}</tbody></table></div>`)
    : html`<p>No events yet.</p>`
}
</section>`;

/** `/recruiter/events/**`: create an event, then edit it, set its interview slots, move it through its states and add jobs. */
const consoleEventsPages: FastifyPluginAsync = async (app) => {
  const events = app.services.events.liveEvents;
  const jobs = app.services.events.jobs;

  const eventForm = (
    request: FastifyRequest,
    action: string,
    v: (k: string) => string,
    errors: FieldErrors | null,
    e: LiveEventWithStats | null,
  ) => {
    const slugLocked = !!e && e.status !== 'draft';
    return postForm(
      request,
      action,
      html`${e ? html`<input type="hidden" name="original_slug" value="${e.slug}">` : ''}
${
  slugLocked
    ? html`<p><strong>${EVENT_LABELS.slug}:</strong> <span class="mono">${e!.slug}</span> <span class="hint">(fixed once the event has gone live)</span></p><input type="hidden" name="slug" value="${e!.slug}">`
    : input({
        name: 'slug',
        label: EVENT_LABELS.slug,
        value: v('slug'),
        errors,
        required: true,
        hint: 'Lower-case letters, digits and hyphens; the event page is /events/<slug>.',
      })
}
${input({
  name: 'company_name',
  label: EVENT_LABELS.company_name,
  value: v('company_name'),
  errors,
  autocomplete: 'organization',
  hint: e ? undefined : 'Default: your team name.',
})}
${input({ name: 'headline', label: EVENT_LABELS.headline, value: v('headline'), errors })}
${textarea({ name: 'description', label: EVENT_LABELS.description, value: v('description'), errors })}
${input({
  name: 'accent_color',
  label: EVENT_LABELS.accent_color,
  type: 'color',
  value: v('accent_color') || '#1f6feb',
  errors,
})}
${input({ name: 'logo_url', label: EVENT_LABELS.logo_url, type: 'url', value: v('logo_url'), errors })}
${radios({
  name: 'visibility',
  label: EVENT_LABELS.visibility,
  value: v('visibility') || 'open_invite',
  errors,
  options: [
    ['open_invite', 'Open invite', 'listed publicly while live or paused'],
    ['private', 'Private', 'only people with the link can join'],
  ],
})}
${input({
  name: 'planned_start_at',
  label: EVENT_LABELS.planned_start_at,
  type: 'datetime-local',
  value: v('planned_start_at'),
  errors,
})}
${input({
  name: 'planned_end_at',
  label: EVENT_LABELS.planned_end_at,
  type: 'datetime-local',
  value: v('planned_end_at'),
  errors,
})}
${input({
  name: 'interview_slots',
  label: EVENT_LABELS.interview_slots,
  type: 'number',
  value: v('interview_slots') || '1',
  errors,
  hint: 'How many interviews your team can run at the same time: the matchmaker never makes more open matches than this.',
  attrs: html` min="1" max="100" inputmode="numeric"`,
})}
<button type="submit" class="btn btn-primary">${e ? 'Save event' : 'Create event'}</button>`,
      { label: e ? 'Edit event' : 'Create event' },
    );
  };

  const newEventPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    values: FormBody | null,
    errors: FieldErrors | null,
  ) => {
    recruiter(request);
    return sendPage(request, reply, {
      title: 'New event',
      status: errors ? 400 : 200,
      body: html`<h1>New event</h1>
${consoleNav('/recruiter/events/new')}
${errorSummary(errors, EVENT_LABELS)}
${eventForm(request, '/recruiter/events', (k) => (values ? str(values, k) : ''), errors, null)}`,
    });
  };

  app.get('/recruiter/events/new', async (request, reply) => newEventPage(request, reply, null, null));

  app.post('/recruiter/events', async (request, reply) => {
    const r = recruiter(request);
    const b = formBody(request);
    try {
      const body = parseOrThrow(createEventBodySchema, defined(eventFormToBody(b, 'create')));
      const e = await events.create(r.teamId, r.user.id, body);
      return reply.redirect(`/recruiter/events/${e.id}?done=event-saved`, 303);
    } catch (err) {
      const errors =
        fieldErrors(err) ?? (err instanceof AppError && err.code === 'SLUG_TAKEN' ? { slug: errorMessage(err) } : null);
      if (!errors) throw err;
      return newEventPage(request, reply, b, errors);
    }
  });

  const eventPage = async (
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    o: {
      eventErrors?: FieldErrors | null;
      eventValues?: FormBody;
      jobErrors?: FieldErrors | null;
      jobValues?: FormBody;
      problem?: string | SafeHtml;
      status?: number;
    } = {},
  ) => {
    const r = recruiter(request);
    const e = await events.get(r.teamId, request.params.id);
    const [jobPage, waiting] = await Promise.all([
      jobs.list(r.teamId, { limit: LIST_LIMIT, live_event_id: e.id }),
      listWaiting(app, e.id),
    ]);
    const ev = (k: string): string => {
      if (o.eventValues) return str(o.eventValues, k);
      const m: Record<string, string> = {
        slug: e.slug,
        company_name: e.company_name,
        headline: e.headline ?? '',
        description: e.description ?? '',
        accent_color: e.accent_color,
        logo_url: e.logo_url ?? '',
        visibility: e.visibility,
        planned_start_at: toLocal(e.planned_start_at),
        planned_end_at: toLocal(e.planned_end_at),
        interview_slots: String(e.interview_slots),
      };
      return m[k] ?? '';
    };
    return sendPage(request, reply, {
      title: `Event: ${e.company_name}`,
      status: o.status ?? (o.eventErrors || o.jobErrors ? 400 : 200),
      body: html`<div data-accent="${e.accent_color}">
<p class="hint"><a href="/recruiter">Console</a></p>
<h1>${e.company_name} <span class="state state-${e.status}" data-event-status="${e.status}">${e.status}</span></h1>
${notice(request)}
${o.problem ? html`<p class="error" role="alert">${o.problem}</p>` : ''}
<p>Event page (join_url): <a href="/events/${e.slug}">${eventJoinUrl(app.config.publicBaseUrl, e.slug)}</a></p>
<div class="actions" role="group" aria-label="Event status">${ALLOWED[e.status].map((t) =>
        t === 'end'
          ? confirmAction(request, `/recruiter/events/${e.id}/transition`, TRANSITION_LABELS[t], {
              name: 'transition',
              value: t,
              consequence:
                'Ending the event closes its queue: everyone still waiting is sent home (their entries expire). Matches already made go on. It cannot be undone.',
              confirmLabel: 'Yes, end the event',
            })
          : actionButton(request, `/recruiter/events/${e.id}/transition`, TRANSITION_LABELS[t], {
              name: 'transition',
              value: t,
              cls: 'btn btn-primary',
            }),
      )}</div>
<dl class="kv" id="event-stats" data-live-region><dt>Started</dt><dd>${fmtDate(e.started_at)}</dd>${e.status === 'ended' ? html`<dt>Ended</dt><dd>${fmtDate(e.ended_at)}</dd>` : html`<dt>Ends</dt><dd>${fmtDate(e.ends_at)}</dd>`}<dt>Candidates joined</dt><dd>${e.candidates_joined}</dd><dt>Matches made</dt><dd>${e.matches_made}</dd></dl>

${
  e.status === 'ended'
    ? ''
    : html`<section aria-labelledby="cap-h" class="panel panel-soft">
<h2 id="cap-h">Interview slots</h2>
<p>The matchmaker offers at most <strong>${e.interview_slots}</strong> open match${e.interview_slots === 1 ? '' : 'es'} at a time for this event, whoever of your team takes them: the event's cap.</p>
<p><a href="/recruiter/events/${e.id}/matching" data-matching-link>Your availability and the quality floor</a>: whether you take interviews here and how many at once, and which seekers the matchmaker may offer.</p>
${postForm(
  request,
  `/recruiter/events/${e.id}/slots`,
  html`${input({
    name: 'interview_slots',
    label: EVENT_LABELS.interview_slots,
    type: 'number',
    value: String(e.interview_slots),
    errors: o.eventErrors?.interview_slots && !o.eventValues ? o.eventErrors : null,
    attrs: html` min="1" max="100" inputmode="numeric"`,
  })}
<button type="submit" class="btn">Update interview slots</button>`,
  { label: 'Interview slots' },
)}
</section>`
}

${waitingSection(waiting)}

${jobsSection(request, e, jobPage, o)}

${
  e.status !== 'ended'
    ? html`<section aria-labelledby="edit-h"><h2 id="edit-h">Edit the event</h2>
${errorSummary(o.eventErrors ?? null, EVENT_LABELS)}
${eventForm(request, `/recruiter/events/${e.id}`, ev, o.eventErrors ?? null, e)}</section>`
    : ''
}
</div>`,
    });
  };

  app.get<{ Params: { id: string } }>('/recruiter/events/:id', async (request, reply) => {
    eventId(request);
    return eventPage(request, reply);
  });

  app.post<{ Params: { id: string } }>('/recruiter/events/:id', async (request, reply) => {
    const r = recruiter(request);
    const id = eventId(request);
    const b = formBody(request);
    try {
      const body = parseOrThrow(updateEventBodySchema, defined(eventFormToBody(b, 'update')));
      await events.update(r.teamId, id, body);
    } catch (err) {
      const errors =
        fieldErrors(err) ?? (err instanceof AppError && err.status === 409 ? { form: errorMessage(err) } : null);
      if (!errors) throw err;
      return eventPage(request, reply, { eventErrors: errors, eventValues: b });
    }
    return reply.redirect(`/recruiter/events/${id}?done=event-saved`, 303);
  });

  /** The event's interview slots (the matchmaker's event-wide cap), through the same update. */
  app.post<{ Params: { id: string } }>('/recruiter/events/:id/slots', async (request, reply) => {
    const r = recruiter(request);
    const id = eventId(request);
    try {
      const body = parseOrThrow(updateEventBodySchema, {
        interview_slots: num(str(formBody(request), 'interview_slots')),
      });
      await events.update(r.teamId, id, body);
    } catch (err) {
      const errors = fieldErrors(err);
      if (!errors) throw err;
      return eventPage(request, reply, { eventErrors: errors });
    }
    return reply.redirect(`/recruiter/events/${id}?done=event-saved`, 303);
  });

  /** go-live / pause / resume / end: the same Updates as the API's transition routes. */
  app.post<{ Params: { id: string } }>('/recruiter/events/:id/transition', async (request, reply) => {
    const r = recruiter(request);
    const id = eventId(request);
    const t = str(formBody(request), 'transition') as LiveEventTransition;
    if (!(t in TRANSITION_LABELS))
      throw new AppError(400, 'VALIDATION', 'Unknown event transition', {
        issues: [{ path: 'transition', message: 'one of goLive, pause, resume, end' }],
      });
    try {
      await events.transition(r.teamId, r.user.id, id, t);
    } catch (err) {
      // 402 PLAN_LIMIT_REACHED (the plan's live events at once) is shown in place like a conflict: its message names the plan and the Billing page.
      if (err instanceof AppError && (err.status === 409 || err.code === 'PLAN_LIMIT_REACHED'))
        return eventPage(request, reply, {
          problem:
            err.code === 'PLAN_LIMIT_REACHED'
              ? html`${errorMessage(err)} <a href="/recruiter/billing">Go to the Billing page</a>`
              : errorMessage(err),
          status: err.status,
        });
      throw err;
    }
    return reply.redirect(`/recruiter/events/${id}`, 303);
  });

  app.post<{ Params: { id: string } }>('/recruiter/events/:id/jobs', async (request, reply) => {
    const r = recruiter(request);
    const id = eventId(request);
    const b = formBody(request);
    try {
      const body = parseOrThrow(createJobBodySchema, defined({ live_event_id: id, ...jobFormToBody(b, 'create') }));
      // The same defaults as POST /api/v1/jobs.
      await jobs.create(r.teamId, {
        ...body,
        bonus_skills: body.bonus_skills ?? [],
        experience_min: body.experience_min ?? 0,
        salary_min: body.salary_min ?? null,
        salary_max: body.salary_max ?? null,
        location: body.location ?? null,
        remote_preference: body.remote_preference ?? null,
      });
    } catch (err) {
      const errors =
        fieldErrors(err) ?? (err instanceof AppError && err.status === 409 ? { form: errorMessage(err) } : null);
      if (!errors) throw err;
      return eventPage(request, reply, { jobErrors: errors, jobValues: b });
    }
    return reply.redirect(`/recruiter/events/${id}?done=job-saved`, 303);
  });
};

export default consoleEventsPages;
