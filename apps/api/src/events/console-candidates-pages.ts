import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { parseOrThrow } from '../web/forms';
import { candidateNoteBodySchema } from './candidates-schemas';
import { formBody, str, type FormBody } from '../web/core';
import { LIST_LIMIT, consoleNav, num, recruiter } from '../web/console';
import { html } from '../web/html';
import { cardTable } from '../web/tables';
import {
  errorSummary,
  fieldErrors,
  fmtDate,
  notice,
  postForm,
  select,
  sendPage,
  textarea,
  type FieldErrors,
} from '../web/layout';
import { CANDIDATE_NOTE_LABELS, choiceWords } from '../web/messages';

/** `/recruiter/candidates/**`: everyone who met the team's events, with the team's note and rating. */
const consoleCandidatesPages: FastifyPluginAsync = async (app) => {
  const candidates = app.services.events.candidates;

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
    ? html`${cardTable(html`<div class="table-wrap"><table><caption class="visually-hidden">Candidates</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Title</th><th scope="col">Skills</th><th scope="col">Events</th><th scope="col">Matches</th><th scope="col">Rating</th></tr></thead>
<tbody>${page.data.map(
        (
          c,
        ) => html`<tr><th scope="row"><a href="/recruiter/candidates/${c.id}">${c.full_name ?? c.display_name}</a>${c.agent_identity ? html` <span class="badge badge-agent" title="${c.agent_identity}">joined via agent</span> <span class="hint">${c.agent_identity}</span>` : ''}</th><td>${c.title ?? ''}</td><td>${(c.skills ?? []).slice(0, 6).join(', ')}</td>
<td>${c.event_slugs.join(', ')}</td><td>${c.matches_count}</td><td>${c.rating ? `${c.rating}/5` : '—'}</td></tr>`,
      )}</tbody></table></div>`)}
${page.has_more && page.next_cursor ? html`<p><a href="/recruiter/candidates?cursor=${encodeURIComponent(page.next_cursor)}">More candidates</a></p>` : ''}`
    : html`<p>No candidates yet.</p>`
}`,
    });
  });

  const candidatePage = async (
    request: FastifyRequest<{ Params: { userId: string } }>,
    reply: FastifyReply,
    values: FormBody | null,
    errors: FieldErrors | null,
  ) => {
    const r = recruiter(request);
    const { candidate: c, matches: history } = await candidates.get(r.teamId, request.params.userId);
    const reports = await app.services.deps.repos.interviewReports.listForCandidate(
      r.teamId,
      request.params.userId,
      50,
    );
    return sendPage(request, reply, {
      title: c.full_name ?? c.display_name,
      status: errors ? 400 : 200,
      body: html`<p class="hint"><a href="/recruiter/candidates">Candidates</a></p>
<h1>${c.full_name ?? c.display_name}</h1>
${notice(request)}
<p>${c.title ?? ''}${c.experience_years ? ` · ${c.experience_years} years` : ''}${c.location ? ` · ${c.location}` : ''}${c.remote_preference ? ` · ${choiceWords(c.remote_preference)}` : ''}</p>
${c.summary ? html`<p>${c.summary}</p>` : ''}
${c.skills?.length ? html`<ul class="skills">${c.skills.map((s) => html`<li>${s}</li>`)}</ul>` : ''}
<section aria-labelledby="note-h" class="panel">
<h2 id="note-h">Your team's note</h2>
${errorSummary(errors, { note: 'Note', rating: 'Rating' })}
${postForm(
  request,
  `/recruiter/candidates/${c.id}/note`,
  html`${textarea({
    name: 'note',
    label: CANDIDATE_NOTE_LABELS.note,
    value: values ? str(values, 'note') : (c.note ?? ''),
    errors,
    hint: 'Seen only by your team.',
  })}
${select({
  name: 'rating',
  label: CANDIDATE_NOTE_LABELS.rating,
  value: values ? str(values, 'rating') : c.rating ? String(c.rating) : '',
  errors,
  options: [
    ['', 'No rating'],
    ['1', '1 — poor fit'],
    ['2', '2'],
    ['3', '3'],
    ['4', '4'],
    ['5', '5 — excellent'],
  ],
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
}
<h2>Interview report cards</h2>
${
  reports.length
    ? cardTable(html`<div class="table-wrap"><table><caption class="visually-hidden">Report cards, newest first</caption>
<thead><tr><th scope="col">Job</th><th scope="col">Fit</th><th scope="col">Communication</th><th scope="col">Technical</th><th scope="col">Next step</th><th scope="col">Notes</th><th scope="col">By</th></tr></thead>
<tbody>${reports.map(
        (x) =>
          html`<tr><th scope="row"><a href="/matches/${x.match_id}">${x.job_title ?? 'Job'}</a></th><td>${x.fit}/5</td><td>${x.communication}/5</td><td>${x.technical}/5</td><td>${x.outcome.replace('_', ' ')}</td><td>${x.notes}</td><td>${x.author_name ?? '—'} · ${fmtDate(x.updated_at)}</td></tr>`,
      )}</tbody></table></div>`)
    : html`<p>No report cards yet: they are written on the match page after an interview.</p>`
}`,
    });
  };

  app.get<{ Params: { userId: string } }>('/recruiter/candidates/:userId', async (request, reply) =>
    candidatePage(request, reply, null, null),
  );

  /** The same body schema and use-case as PUT /api/v1/candidates/{userId}/note. */
  app.post<{ Params: { userId: string } }>('/recruiter/candidates/:userId/note', async (request, reply) => {
    const r = recruiter(request);
    const b = formBody(request);
    try {
      const body = parseOrThrow(candidateNoteBodySchema, {
        note: str(b, 'note'),
        rating: str(b, 'rating') === '' ? null : num(str(b, 'rating')),
      });
      await candidates.putNote(r.teamId, r.user.id, request.params.userId, {
        note: body.note,
        rating: body.rating ?? null,
      });
    } catch (err) {
      const errors = fieldErrors(err);
      if (!errors) throw err;
      return candidatePage(request, reply, b, errors);
    }
    return reply.redirect(`/recruiter/candidates/${request.params.userId}?done=note-saved`, 303);
  });
};

export default consoleCandidatesPages;
