import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { parseOrThrow } from '../accounts/accounts-service';
import { createEventBodySchema, updateEventBodySchema } from './events-routes';
import { createJobBodySchema, updateJobBodySchema } from './jobs-routes';
import { candidateNoteBodySchema } from './candidates-routes';
import { createInviteBodySchema } from '../accounts/invites-routes';
import { createEventsRepository, type LiveEventWithStats } from '../../../../db/events/events-repository';
import type { JobWithEvent } from '../../../../db/events/jobs-repository';
import { AppError, ForbiddenError } from '../../../../lib/errors';
import type { LiveEventTransition } from '../../../../workflows/events/contract';
import { currentUser, formBody, str, type FormBody } from '../web/core';
import { html, type SafeHtml } from '../web/html';
import { actionButton, errorSummary, fieldErrors, fmtDate, input, notice, postForm, radios, select, sendPage, textarea, type FieldErrors } from '../web/layout';
import { UUID_RE } from '../../../../lib/ids';
import { eventJoinUrl } from '../lib/join-urls';

/** How many of the team's events, jobs and candidates the console lists on one page. */
const LIST_LIMIT = 100;
const WAITING_LIST_LIMIT = 50;

const EVENT_LABELS: Record<string, string> = {
  slug: 'Address (slug)',
  company_name: 'Company name',
  headline: 'Headline',
  description: 'Description',
  accent_color: 'Accent colour',
  logo_url: 'Logo URL',
  visibility: 'Visibility',
  planned_start_at: 'Planned start (UTC)',
  planned_end_at: 'Planned end (UTC)',
  interview_slots: 'Interview slots',
};
const JOB_LABELS: Record<string, string> = {
  title: 'Job title',
  essential_skills: 'Essential skills',
  bonus_skills: 'Bonus skills',
  experience_min: 'Minimum years of experience',
  salary_min: 'Salary from',
  salary_max: 'Salary to',
  location: 'Location',
  remote_preference: 'Remote work',
};
const TRANSITION_LABELS: Record<LiveEventTransition, string> = { goLive: 'Go live', pause: 'Pause', resume: 'Resume', end: 'End event' };
const ALLOWED: Record<string, LiveEventTransition[]> = { draft: ['goLive'], live: ['pause', 'end'], paused: ['resume', 'end'], ended: [] };

/** '' → undefined (create) or null (update, nullable fields); integers → numbers; anything else is left for zod to refuse. */
const num = (v: string) => (v.trim() === '' ? undefined : /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v);
const skills = (v: string) =>
  v
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
/** `<input type="datetime-local">` carries no zone: the form labels it UTC. */
const fromLocal = (v: string) => (v.trim() === '' ? null : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v.trim()) ? `${v.trim()}:00Z` : v);
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
    planned_start_at: mode === 'create' ? (fromLocal(str(b, 'planned_start_at')) ?? undefined) : fromLocal(str(b, 'planned_start_at')),
    planned_end_at: mode === 'create' ? (fromLocal(str(b, 'planned_end_at')) ?? undefined) : fromLocal(str(b, 'planned_end_at')),
    interview_slots: num(str(b, 'interview_slots')),
  };
}

export function jobFormToBody(b: FormBody, mode: 'create' | 'update') {
  const nullable = (v: string) => (v.trim() === '' ? (mode === 'create' ? undefined : null) : v.trim());
  const n = (k: string) => {
    const v = num(str(b, k));
    return v === undefined && mode === 'update' ? null : v;
  };
  return {
    title: str(b, 'title'),
    essential_skills: skills(str(b, 'essential_skills')),
    bonus_skills: skills(str(b, 'bonus_skills')),
    experience_min: num(str(b, 'experience_min')) ?? (mode === 'update' ? 0 : undefined),
    salary_min: n('salary_min'),
    salary_max: n('salary_max'),
    location: nullable(str(b, 'location')),
    remote_preference: nullable(str(b, 'remote_preference')),
  };
}

/** Drops undefined properties (strict schemas treat a present `undefined` as given). */
const defined = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const recruiterPages: FastifyPluginAsync = async (app) => {
  const events = app.services.events.liveEvents;
  const jobs = app.services.events.jobs;
  const candidates = app.services.events.candidates;
  const invites = app.services.accounts.invites;
  const matches = app.services.matches;
  const profiles = app.services.accounts.profiles;
  const eventsRepo = createEventsRepository(app.knex);

  /** Every console page: a signed-in recruiter with a team. */
  const recruiter = (request: FastifyRequest) => {
    const { user, membership } = currentUser(request);
    if (user.role !== 'recruiter') throw new ForbiddenError('The console is for recruiters', 'ROLE_NOT_ALLOWED');
    if (!membership) throw new ForbiddenError('Finish onboarding (create or join a team) to use the console', 'RECRUITER_TEAM_REQUIRED');
    return { user, teamId: membership.team_id, teamName: membership.team_name, teamRole: membership.role };
  };

  const consoleNav = (here: string) =>
    html`<nav aria-label="Console" class="actions">${[
      ['/recruiter', 'Overview'],
      ['/recruiter/events/new', 'New event'],
      ['/recruiter/candidates', 'Candidates'],
      ['/matches', 'Matches'],
    ].map(([href, label]) => html`<a href="${href}"${here === href ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>`;

  // ---------- overview ----------
  const overview = async (request: FastifyRequest, reply: FastifyReply, o: { inviteErrors?: FieldErrors | null; inviteValues?: FormBody; invited?: string } = {}) => {
    const r = recruiter(request);
    const [list, recent] = await Promise.all([events.list(r.teamId, { limit: LIST_LIMIT }), matches.list({ userId: r.user.id, limit: 50 })]);
    const awaiting = recent.filter((v) => v.match.status === 'matched' && !v.match.recruiter_accepted_at);
    const manager = r.teamRole === 'owner' || r.teamRole === 'admin';
    const pendingInvites = manager ? (await invites.list(r.user.id, { limit: 50 })).data : [];
    return sendPage(request, reply, {
      title: 'Recruiter console',
      status: o.inviteErrors ? 400 : 200,
      body: html`<h1>Recruiter console <span class="hint">· ${r.teamName}</span></h1>
${consoleNav('/recruiter')}
${notice(request)}
<section aria-labelledby="await-h">
<h2 id="await-h">Matches waiting for your acceptance (${awaiting.length})</h2>
${
  awaiting.length
    ? html`<ul>${awaiting.map(
        ({ match: m }) =>
          html`<li><a href="/matches/${m.id}">${m.job_title ?? 'Job'}</a> · score ${m.match_score ?? '—'}${m.seeker_via_agent ? html` <span class="badge badge-agent">joined via agent</span>` : ''} · accept by ${fmtDate(m.expires_at)}</li>`,
      )}</ul>`
    : html`<p>None right now.</p>`
}
</section>
<section aria-labelledby="events-h">
<h2 id="events-h">Events</h2>
<p><a class="btn btn-primary" href="/recruiter/events/new">Create an event</a></p>
${
  list.data.length
    ? html`<div class="table-wrap"><table><caption class="visually-hidden">Your team's events</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Slots</th><th scope="col">Candidates</th><th scope="col">Matches</th><th scope="col">Jobs</th></tr></thead>
<tbody>${list.data.map(
        (e) => html`<tr><th scope="row"><a href="/recruiter/events/${e.id}">${e.company_name}</a> <span class="hint mono">${e.slug}</span></th><td><span class="state state-${e.status}">${e.status}</span></td>
<td>${e.interview_slots}</td><td>${e.candidates_joined}</td><td>${e.matches_made}</td><td>${e.job_titles.join(', ') || '—'}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No events yet.</p>`
}
</section>
${
  manager
    ? html`<section aria-labelledby="invite-h" class="panel">
<h2 id="invite-h">Invite a colleague</h2>
${o.invited ? html`<p class="notice" role="status">Invite sent to ${o.invited}. The e-mail carries their personal link.</p>` : ''}
${errorSummary(o.inviteErrors ?? null, { email: 'E-mail address', role: 'Role' })}
${postForm(
  request,
  '/recruiter/invites',
  html`${input({ name: 'email', label: 'E-mail address', type: 'email', value: o.inviteValues ? str(o.inviteValues, 'email') : '', errors: o.inviteErrors, required: true, autocomplete: 'off' })}
${select({ name: 'role', label: 'Role', value: o.inviteValues ? str(o.inviteValues, 'role') : 'member', errors: o.inviteErrors, options: [['member', 'Member'], ['admin', 'Admin (can invite)']] })}
<button type="submit" class="btn">Send invite</button>`,
  { label: 'Invite a colleague' },
)}
${pendingInvites.length ? html`<h3>Invites</h3><ul>${pendingInvites.map((i) => html`<li>${i.email} · ${i.role} · ${i.status} · until ${fmtDate(i.expires_at)}</li>`)}</ul>` : ''}
</section>`
    : ''
}`,
    });
  };

  app.get('/recruiter', async (request, reply) => overview(request, reply));

  app.post('/recruiter/invites', async (request, reply) => {
    const r = recruiter(request);
    const b = formBody(request);
    const email = str(b, 'email').trim();
    try {
      const body = parseOrThrow(createInviteBodySchema, { email, role: str(b, 'role') || undefined });
      await invites.create(r.user.id, body);
    } catch (err) {
      const errors = fieldErrors(err) ?? (err instanceof AppError && err.status === 409 ? { email: err.message } : null);
      if (!errors) throw err;
      return overview(request, reply, { inviteErrors: errors, inviteValues: b });
    }
    return overview(request, reply, { invited: email });
  });

  // ---------- events ----------
  const eventForm = (request: FastifyRequest, action: string, v: (k: string) => string, errors: FieldErrors | null, e: LiveEventWithStats | null) => {
    const slugLocked = !!e && e.status !== 'draft';
    return postForm(
      request,
      action,
      html`${e ? html`<input type="hidden" name="original_slug" value="${e.slug}">` : ''}
${
  slugLocked
    ? html`<p><strong>${EVENT_LABELS.slug}:</strong> <span class="mono">${e!.slug}</span> <span class="hint">(fixed once the event has gone live)</span></p><input type="hidden" name="slug" value="${e!.slug}">`
    : input({ name: 'slug', label: EVENT_LABELS.slug, value: v('slug'), errors, required: true, hint: 'Lower-case letters, digits and hyphens; the event page is /events/<slug>.' })
}
${input({ name: 'company_name', label: EVENT_LABELS.company_name, value: v('company_name'), errors, autocomplete: 'organization', hint: e ? undefined : 'Default: your team name.' })}
${input({ name: 'headline', label: EVENT_LABELS.headline, value: v('headline'), errors })}
${textarea({ name: 'description', label: EVENT_LABELS.description, value: v('description'), errors })}
${input({ name: 'accent_color', label: EVENT_LABELS.accent_color, type: 'color', value: v('accent_color') || '#1f6feb', errors })}
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
${input({ name: 'planned_start_at', label: EVENT_LABELS.planned_start_at, type: 'datetime-local', value: v('planned_start_at'), errors })}
${input({ name: 'planned_end_at', label: EVENT_LABELS.planned_end_at, type: 'datetime-local', value: v('planned_end_at'), errors })}
${input({ name: 'interview_slots', label: EVENT_LABELS.interview_slots, type: 'number', value: v('interview_slots') || '1', errors, hint: 'How many interviews your team can run at the same time: the matchmaker never makes more open matches than this.', attrs: html` min="1" max="100" inputmode="numeric"` })}
<button type="submit" class="btn btn-primary">${e ? 'Save event' : 'Create event'}</button>`,
      { label: e ? 'Edit event' : 'Create event' },
    );
  };

  const newEventPage = (request: FastifyRequest, reply: FastifyReply, values: FormBody | null, errors: FieldErrors | null) => {
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
      const errors = fieldErrors(err) ?? (err instanceof AppError && err.code === 'SLUG_TAKEN' ? { slug: err.message } : null);
      if (!errors) throw err;
      return newEventPage(request, reply, b, errors);
    }
  });

  const eventPage = async (
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    o: { eventErrors?: FieldErrors | null; eventValues?: FormBody; jobErrors?: FieldErrors | null; jobValues?: FormBody; problem?: string; status?: number } = {},
  ) => {
    const r = recruiter(request);
    const e = await events.get(r.teamId, request.params.id);
    const [jobPage, waitingIds] = await Promise.all([
      jobs.list(r.teamId, { limit: LIST_LIMIT, live_event_id: e.id }),
      eventsRepo.listWaitingSeekerIds(e.id, { afterUserId: null, limit: WAITING_LIST_LIMIT }),
    ]);
    const waiting = await Promise.all(waitingIds.map(async (id) => ({ id, profile: await profiles.get(id) })));
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
    const jv = (k: string) => (o.jobValues ? str(o.jobValues, k) : '');
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
        actionButton(request, `/recruiter/events/${e.id}/transition`, TRANSITION_LABELS[t], { name: 'transition', value: t, cls: t === 'end' ? 'btn btn-danger' : 'btn btn-primary' }),
      )}</div>
<dl class="kv"><dt>Started</dt><dd>${fmtDate(e.started_at)}</dd><dt>Ends</dt><dd>${fmtDate(e.ends_at)}</dd><dt>Candidates joined</dt><dd>${e.candidates_joined}</dd><dt>Matches made</dt><dd>${e.matches_made}</dd></dl>

<section aria-labelledby="cap-h" class="panel panel-soft">
<h2 id="cap-h">Your availability</h2>
<p>The matchmaker offers at most <strong>${e.interview_slots}</strong> open match${e.interview_slots === 1 ? '' : 'es'} at a time for this event. Raise it when more of your team are free to interview; lower it when fewer are.</p>
${postForm(
  request,
  `/recruiter/events/${e.id}/slots`,
  html`${input({ name: 'interview_slots', label: 'Interview slots', type: 'number', value: String(e.interview_slots), errors: o.eventErrors?.interview_slots && !o.eventValues ? o.eventErrors : null, attrs: html` min="1" max="100" inputmode="numeric"` })}
<button type="submit" class="btn">Update availability</button>`,
  { label: 'Availability' },
)}
</section>

<section aria-labelledby="waiting-h">
<h2 id="waiting-h">Waiting in the queue (${waiting.length}${waiting.length === WAITING_LIST_LIMIT ? '+' : ''})</h2>
${
  waiting.length
    ? html`<ul>${waiting.map((w) => html`<li><a href="/recruiter/candidates/${w.id}">${w.profile?.full_name ?? 'Candidate'}</a>${w.profile ? html` · ${w.profile.title}${w.profile.skills.length ? ` · ${w.profile.skills.slice(0, 6).join(', ')}` : ''}` : ''}</li>`)}</ul>`
    : html`<p>Nobody is waiting right now.</p>`
}
</section>

<section aria-labelledby="jobs-h">
<h2 id="jobs-h">Jobs (${jobPage.data.length})</h2>
${
  jobPage.data.length
    ? html`<div class="table-wrap"><table><caption class="visually-hidden">Jobs of this event</caption>
<thead><tr><th scope="col">Title</th><th scope="col">Essential skills</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${jobPage.data.map(
        (j) => html`<tr><th scope="row"><a href="/recruiter/jobs/${j.id}">${j.title}</a></th><td>${j.essential_skills.join(', ')}</td><td><span class="state">${j.status}</span></td>
<td>${j.status === 'open' ? actionButton(request, `/recruiter/jobs/${j.id}/close`, 'Close', { cls: 'btn btn-small btn-danger', ariaLabel: `Close job ${j.title}` }) : ''}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No jobs yet: add one so the matchmaker has something to match.</p>`
}
${
  e.status !== 'ended'
    ? html`<details class="panel"${o.jobErrors ? html` open` : ''}><summary><strong>Add a job</strong></summary>
${errorSummary(o.jobErrors ?? null, JOB_LABELS)}
${jobForm(request, `/recruiter/events/${e.id}/jobs`, jv, o.jobErrors ?? null, 'Add job')}
</details>`
    : ''
}
</section>

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

  const jobForm = (request: FastifyRequest, action: string, v: (k: string) => string, errors: FieldErrors | null, submit: string): SafeHtml =>
    postForm(
      request,
      action,
      html`${input({ name: 'title', label: JOB_LABELS.title, value: v('title'), errors, required: true })}
${input({ name: 'essential_skills', label: JOB_LABELS.essential_skills, value: v('essential_skills'), errors, required: true, hint: 'Separated by commas.' })}
${input({ name: 'bonus_skills', label: JOB_LABELS.bonus_skills, value: v('bonus_skills'), errors, hint: 'Separated by commas.' })}
${input({ name: 'experience_min', label: JOB_LABELS.experience_min, type: 'number', value: v('experience_min'), errors, attrs: html` min="0" max="60" inputmode="numeric"` })}
${input({ name: 'salary_min', label: JOB_LABELS.salary_min, type: 'number', value: v('salary_min'), errors, attrs: html` min="0" inputmode="numeric"` })}
${input({ name: 'salary_max', label: JOB_LABELS.salary_max, type: 'number', value: v('salary_max'), errors, attrs: html` min="0" inputmode="numeric"` })}
${input({ name: 'location', label: JOB_LABELS.location, value: v('location'), errors })}
${select({ name: 'remote_preference', label: JOB_LABELS.remote_preference, value: v('remote_preference'), errors, options: [['', 'Not specified'], ['remote', 'Remote'], ['hybrid', 'Hybrid'], ['onsite', 'On site']] })}
<button type="submit" class="btn btn-primary">${submit}</button>`,
      { label: submit },
    );

  const eventId = (request: FastifyRequest<{ Params: { id: string } }>) => {
    if (!UUID_RE.test(request.params.id)) throw new AppError(404, 'NOT_FOUND', `live event ${request.params.id} was not found`);
    return request.params.id;
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
      const errors = fieldErrors(err) ?? (err instanceof AppError && err.status === 409 ? { form: err.message } : null);
      if (!errors) throw err;
      return eventPage(request, reply, { eventErrors: errors, eventValues: b });
    }
    return reply.redirect(`/recruiter/events/${id}?done=event-saved`, 303);
  });

  /** Availability: the event's interview slots (the matchmaker's capacity), through the same update. */
  app.post<{ Params: { id: string } }>('/recruiter/events/:id/slots', async (request, reply) => {
    const r = recruiter(request);
    const id = eventId(request);
    try {
      const body = parseOrThrow(updateEventBodySchema, { interview_slots: num(str(formBody(request), 'interview_slots')) });
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
    if (!(t in TRANSITION_LABELS)) throw new AppError(400, 'VALIDATION', 'Unknown event transition', { issues: [{ path: 'transition', message: 'one of goLive, pause, resume, end' }] });
    try {
      await events.transition(r.teamId, r.user.id, id, t);
    } catch (err) {
      if (err instanceof AppError && err.status === 409) return eventPage(request, reply, { problem: err.message, status: 409 });
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
      const errors = fieldErrors(err) ?? (err instanceof AppError && err.status === 409 ? { form: err.message } : null);
      if (!errors) throw err;
      return eventPage(request, reply, { jobErrors: errors, jobValues: b });
    }
    return reply.redirect(`/recruiter/events/${id}?done=job-saved`, 303);
  });

  // ---------- jobs ----------
  const jobPage = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, values: FormBody | null, errors: FieldErrors | null) => {
    const r = recruiter(request);
    const j: JobWithEvent = await jobs.get(r.teamId, eventId(request));
    const v = (k: string): string => {
      if (values) return str(values, k);
      const m: Record<string, string> = {
        title: j.title,
        essential_skills: j.essential_skills.join(', '),
        bonus_skills: j.bonus_skills.join(', '),
        experience_min: String(j.experience_min),
        salary_min: j.salary_min === null ? '' : String(j.salary_min),
        salary_max: j.salary_max === null ? '' : String(j.salary_max),
        location: j.location ?? '',
        remote_preference: j.remote_preference ?? '',
      };
      return m[k] ?? '';
    };
    return sendPage(request, reply, {
      title: `Job: ${j.title}`,
      status: errors ? 400 : 200,
      body: html`<p class="hint"><a href="/recruiter/events/${j.live_event_id}">Back to ${j.company_name}</a></p>
<h1>${j.title} <span class="state">${j.status}</span></h1>
${notice(request)}
${
  j.status === 'open'
    ? html`${errorSummary(errors, JOB_LABELS)}${jobForm(request, `/recruiter/jobs/${j.id}`, v, errors, 'Save job')}
<div class="actions">${actionButton(request, `/recruiter/jobs/${j.id}/close`, 'Close this job', { cls: 'btn btn-danger' })}</div>`
    : html`<p>This job is closed (${fmtDate(j.closed_at)}) and can no longer be edited.</p>`
}`,
    });
  };

  app.get<{ Params: { id: string } }>('/recruiter/jobs/:id', async (request, reply) => jobPage(request, reply, null, null));

  app.post<{ Params: { id: string } }>('/recruiter/jobs/:id', async (request, reply) => {
    const r = recruiter(request);
    const id = eventId(request);
    const b = formBody(request);
    try {
      const body = parseOrThrow(updateJobBodySchema, defined(jobFormToBody(b, 'update')));
      await jobs.update(r.teamId, id, body);
    } catch (err) {
      const errors = fieldErrors(err) ?? (err instanceof AppError && err.status === 409 ? { form: err.message } : null);
      if (!errors) throw err;
      return jobPage(request, reply, b, errors);
    }
    return reply.redirect(`/recruiter/jobs/${id}?done=job-saved`, 303);
  });

  app.post<{ Params: { id: string } }>('/recruiter/jobs/:id/close', async (request, reply) => {
    const r = recruiter(request);
    const j = await jobs.close(r.teamId, eventId(request));
    return reply.redirect(`/recruiter/events/${j.live_event_id}?done=job-saved`, 303);
  });

  // ---------- candidates ----------
  app.get<{ Querystring: { cursor?: string } }>('/recruiter/candidates', async (request, reply) => {
    const r = recruiter(request);
    const page = await candidates.list(r.teamId, { limit: LIST_LIMIT, cursor: request.query.cursor || undefined });
    return sendPage(request, reply, {
      title: 'Candidates',
      body: html`<h1>Candidates</h1>
${consoleNav('/recruiter/candidates')}
<p class="lead">Everyone who joined one of your events' queues or was matched with one of your jobs, newest contact first.</p>
${
  page.data.length
    ? html`<div class="table-wrap"><table><caption class="visually-hidden">Candidates</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Title</th><th scope="col">Skills</th><th scope="col">Events</th><th scope="col">Matches</th><th scope="col">Rating</th></tr></thead>
<tbody>${page.data.map(
        (c) => html`<tr><th scope="row"><a href="/recruiter/candidates/${c.id}">${c.full_name ?? c.display_name}</a></th><td>${c.title ?? ''}</td><td>${(c.skills ?? []).slice(0, 6).join(', ')}</td>
<td>${c.event_slugs.join(', ')}</td><td>${c.matches_count}</td><td>${c.rating ? `${c.rating}/5` : '—'}</td></tr>`,
      )}</tbody></table></div>
${page.has_more && page.next_cursor ? html`<p><a href="/recruiter/candidates?cursor=${encodeURIComponent(page.next_cursor)}">More candidates</a></p>` : ''}`
    : html`<p>No candidates yet.</p>`
}`,
    });
  });

  const candidatePage = async (request: FastifyRequest<{ Params: { userId: string } }>, reply: FastifyReply, values: FormBody | null, errors: FieldErrors | null) => {
    const r = recruiter(request);
    const { candidate: c, matches: history } = await candidates.get(r.teamId, request.params.userId);
    return sendPage(request, reply, {
      title: c.full_name ?? c.display_name,
      status: errors ? 400 : 200,
      body: html`<p class="hint"><a href="/recruiter/candidates">Candidates</a></p>
<h1>${c.full_name ?? c.display_name}</h1>
${notice(request)}
<p>${c.title ?? ''}${c.experience_years ? ` · ${c.experience_years} years` : ''}${c.location ? ` · ${c.location}` : ''}${c.remote_preference ? ` · ${c.remote_preference.replace('_', ' ')}` : ''}</p>
${c.summary ? html`<p>${c.summary}</p>` : ''}
${c.skills?.length ? html`<ul class="skills">${c.skills.map((s) => html`<li>${s}</li>`)}</ul>` : ''}
<section aria-labelledby="note-h" class="panel">
<h2 id="note-h">Your team's note</h2>
${errorSummary(errors, { note: 'Note', rating: 'Rating' })}
${postForm(
  request,
  `/recruiter/candidates/${c.id}/note`,
  html`${textarea({ name: 'note', label: 'Note', value: values ? str(values, 'note') : (c.note ?? ''), errors, hint: 'Seen only by your team.' })}
${select({
  name: 'rating',
  label: 'Rating',
  value: values ? str(values, 'rating') : c.rating ? String(c.rating) : '',
  errors,
  options: [['', 'No rating'], ['1', '1 — poor fit'], ['2', '2'], ['3', '3'], ['4', '4'], ['5', '5 — excellent']],
})}
<button type="submit" class="btn btn-primary">Save note</button>`,
  { label: 'Note and rating' },
)}
${c.note_updated_at ? html`<p class="hint">Last saved ${fmtDate(c.note_updated_at)}.</p>` : ''}
</section>
<h2>Matches with your team</h2>
${
  history.length
    ? html`<ul>${history.map((m) => html`<li><a href="/matches/${m.id}">${m.job_title}</a> · ${m.event_slug} · <span class="state state-${m.status}">${m.status}</span> · ${fmtDate(m.created_at)}</li>`)}</ul>`
    : html`<p>No matches yet.</p>`
}`,
    });
  };

  app.get<{ Params: { userId: string } }>('/recruiter/candidates/:userId', async (request, reply) => candidatePage(request, reply, null, null));

  /** The same body schema and use-case as PUT /api/v1/candidates/{userId}/note. */
  app.post<{ Params: { userId: string } }>('/recruiter/candidates/:userId/note', async (request, reply) => {
    const r = recruiter(request);
    const b = formBody(request);
    try {
      const body = parseOrThrow(candidateNoteBodySchema, { note: str(b, 'note'), rating: str(b, 'rating') === '' ? null : num(str(b, 'rating')) });
      await candidates.putNote(r.teamId, r.user.id, request.params.userId, { note: body.note, rating: body.rating ?? null });
    } catch (err) {
      const errors = fieldErrors(err);
      if (!errors) throw err;
      return candidatePage(request, reply, b, errors);
    }
    return reply.redirect(`/recruiter/candidates/${request.params.userId}?done=note-saved`, 303);
  });
};

export default recruiterPages;
