import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { parseOrThrow } from '../web/forms';
import { updateJobBodySchema } from './jobs-schemas';
import type { LiveEventWithStats } from '#db/events/events-repository';
import type { JobWithEvent } from '#db/events/jobs-repository';
import { AppError } from '#lib/errors';
import type { Page } from '../plugins/pagination';
import { formBody, str, type FormBody } from '../web/core';
import { defined, eventId, num, recruiter } from '../web/console';
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
  select,
  sendPage,
  skillInputAttrs,
  skillSuggestions,
  type FieldErrors,
} from '../web/layout';
import { errorMessage, JOB_LABELS } from '../web/messages';

const skills = (v: string) =>
  v
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

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

export const jobForm = (
  request: FastifyRequest,
  action: string,
  v: (k: string) => string,
  errors: FieldErrors | null,
  submit: string,
): SafeHtml =>
  postForm(
    request,
    action,
    html`${input({ name: 'title', label: JOB_LABELS.title, value: v('title'), errors, required: true })}
${input({
  name: 'essential_skills',
  label: JOB_LABELS.essential_skills,
  value: v('essential_skills'),
  errors,
  required: true,
  hint: 'Separated by commas.',
  attrs: skillInputAttrs,
})}
${input({
  name: 'bonus_skills',
  label: JOB_LABELS.bonus_skills,
  value: v('bonus_skills'),
  errors,
  hint: 'Separated by commas.',
  attrs: skillInputAttrs,
})}${skillSuggestions()}
${input({
  name: 'experience_min',
  label: JOB_LABELS.experience_min,
  type: 'number',
  value: v('experience_min'),
  errors,
  attrs: html` min="0" max="60" inputmode="numeric"`,
})}
${input({
  name: 'salary_min',
  label: JOB_LABELS.salary_min,
  type: 'number',
  value: v('salary_min'),
  errors,
  attrs: html` min="0" inputmode="numeric"`,
})}
${input({
  name: 'salary_max',
  label: JOB_LABELS.salary_max,
  type: 'number',
  value: v('salary_max'),
  errors,
  attrs: html` min="0" inputmode="numeric"`,
})}
${input({ name: 'location', label: JOB_LABELS.location, value: v('location'), errors })}
${select({
  name: 'remote_preference',
  label: JOB_LABELS.remote_preference,
  value: v('remote_preference'),
  errors,
  options: [
    ['', 'Not specified'],
    ['remote', 'Remote'],
    ['hybrid', 'Hybrid'],
    ['onsite', 'On site'],
  ],
})}
<button type="submit" class="btn btn-primary">${submit}</button>`,
    { label: submit },
  );

/** The event page's jobs: the list, and the form that adds one (its route is in console-events-pages.ts, which renders the event page again on errors). */
export const jobsSection = (
  request: FastifyRequest,
  e: LiveEventWithStats,
  jobPage: Page<JobWithEvent>,
  o: { jobErrors?: FieldErrors | null; jobValues?: FormBody },
) => {
  const jv = (k: string) => (o.jobValues ? str(o.jobValues, k) : '');
  return html`<section aria-labelledby="jobs-h">
<h2 id="jobs-h">Jobs (${jobPage.data.length})</h2>
${
  jobPage.data.length
    ? cardTable(html`<div class="table-wrap"><table><caption class="visually-hidden">Jobs of this event</caption>
<thead><tr><th scope="col">Title</th><th scope="col">Essential skills</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${jobPage.data.map(
        (
          j,
        ) => html`<tr><th scope="row"><a href="/recruiter/jobs/${j.id}">${j.title}</a></th><td>${j.essential_skills.join(', ')}</td><td><span class="state">${e.status === 'ended' && j.status === 'open' ? 'event ended' : j.status}</span></td>
<td>${
          j.status === 'open' && e.status !== 'ended'
            ? confirmAction(request, `/recruiter/jobs/${j.id}/close`, 'Close', {
                small: true,
                ariaLabel: `Close job ${j.title}`,
                consequence: `Closing “${j.title}” stops new matches for it; open matches stay.`,
                confirmLabel: 'Yes, close the job',
              })
            : ''
        }</td></tr>`,
      )}</tbody></table></div>`)
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
</section>`;
};

/** `/recruiter/jobs/<id>`: one job of the team's events, edited or closed. */
const consoleJobsPages: FastifyPluginAsync = async (app) => {
  const jobs = app.services.events.jobs;

  const jobPage = async (
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    values: FormBody | null,
    errors: FieldErrors | null,
  ) => {
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
<div class="actions">${confirmAction(request, `/recruiter/jobs/${j.id}/close`, 'Close this job', {
        consequence: 'Closing the job stops new matches for it; open matches stay. It cannot be reopened.',
        confirmLabel: 'Yes, close the job',
      })}</div>`
    : html`<p>This job is closed (${fmtDate(j.closed_at)}) and can no longer be edited.</p>`
}`,
    });
  };

  app.get<{ Params: { id: string } }>('/recruiter/jobs/:id', async (request, reply) =>
    jobPage(request, reply, null, null),
  );

  app.post<{ Params: { id: string } }>('/recruiter/jobs/:id', async (request, reply) => {
    const r = recruiter(request);
    const id = eventId(request);
    const b = formBody(request);
    try {
      const body = parseOrThrow(updateJobBodySchema, defined(jobFormToBody(b, 'update')));
      await jobs.update(r.teamId, id, body);
    } catch (err) {
      const errors =
        fieldErrors(err) ?? (err instanceof AppError && err.status === 409 ? { form: errorMessage(err) } : null);
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
};

export default consoleJobsPages;
