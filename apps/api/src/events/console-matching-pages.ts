import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { parseOrThrow } from '../web/forms';
import { availabilityBodySchema, floorBodySchema } from './matching-settings-schemas';
import { formBody, str, type FormBody } from '../web/core';
import { consoleNav, eventId, num, recruiter } from '../web/console';
import { html } from '../web/html';
import { cardTable } from '../web/tables';
import {
  errorSummary,
  fieldErrors,
  fmtDate,
  input,
  notice,
  postForm,
  radios,
  select,
  sendPage,
  type FieldErrors,
} from '../web/layout';
import type { LiveEventWithStats } from '#db/events/events-repository';
import type { MatchingSettingsView } from './matching-settings-service';
import { AVAILABILITY_LABELS, QUALITY_FLOOR_LABELS } from '../web/messages';

type MatchingForm = { values: FormBody; errors: FieldErrors; which: 'availability' | 'floor' };

/** The caller's own availability and capacity, with its form. */
function availabilitySection(
  request: FastifyRequest,
  event: LiveEventWithStats,
  mine: MatchingSettingsView['recruiters'][number] | undefined,
  av: MatchingForm | null,
) {
  return html`<section aria-labelledby="mine-h" class="panel">
<h2 id="mine-h">Your availability</h2>
<p>${
    mine
      ? mine.available
        ? `You take up to ${mine.capacity} interview${mine.capacity === 1 ? '' : 's'} at a time here ` +
          `(${mine.active} open now).`
        : 'You are not taking new interviews here. Your open matches stay yours.'
      : 'You have not said whether you take interviews at this event.'
  }</p>
${errorSummary(av?.errors ?? null, { available: 'Available', capacity: 'Capacity' })}
${postForm(
  request,
  `/recruiter/events/${event.id}/availability`,
  html`${radios({
    name: 'available',
    label: AVAILABILITY_LABELS.available,
    value: av ? str(av.values, 'available') : mine && !mine.available ? 'false' : 'true',
    errors: av?.errors ?? null,
    options: [
      ['true', 'Available', 'new matches are offered to you in turn with your colleagues'],
      ['false', 'Not available', 'no new offers; open ones stay'],
    ],
  })}
${input({
  name: 'capacity',
  label: AVAILABILITY_LABELS.capacity,
  type: 'number',
  value: av ? str(av.values, 'capacity') : String(mine?.capacity ?? 1),
  errors: av?.errors ?? null,
  hint: '1–50',
  attrs: html` min="1" max="50"`,
})}
<button type="submit" class="btn btn-primary">Save availability</button>`,
  { label: 'Your availability' },
)}
</section>`;
}

/** Who else takes interviews at the event. */
function teamSection(event: LiveEventWithStats, m: MatchingSettingsView) {
  return html`<section aria-labelledby="team-h">
<h2 id="team-h">Recruiters at this event</h2>
${
  m.recruiters.length
    ? html`${cardTable(html`<div class="table-wrap"><table><caption class="visually-hidden">Recruiters and their availability</caption>
<thead><tr><th scope="col">Recruiter</th><th scope="col">Available</th><th scope="col">Open / capacity</th><th scope="col">Last offer</th></tr></thead>
<tbody>${m.recruiters.map((x) => html`<tr><th scope="row">${x.display_name}</th><td>${x.available ? 'Yes' : 'No'}</td><td>${x.active} / ${x.capacity}</td><td>${x.last_offered_at ? fmtDate(x.last_offered_at) : '—'}</td></tr>`)}</tbody></table></div>`)}
<p class="hint">New matches go to the available recruiter with room whose last offer is the oldest. The event's interview slots (${event.interview_slots}) remain the cap.</p>`
    : html`<p>Nobody has set availability: the event's ${event.interview_slots} interview slot${event.interview_slots === 1 ? '' : 's'} are shared by the whole team.</p>`
}
</section>`;
}

const waitedFor = (ms: number) =>
  ms === 0 ? 'From the start' : ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
const yesNo = (v: boolean | null) => (v === null ? '' : String(v));

/** The event's quality floor: what it allows as a seeker waits, and its form. */
function floorSection(
  request: FastifyRequest,
  event: LiveEventWithStats,
  m: MatchingSettingsView,
  fl: MatchingForm | null,
) {
  return html`<section aria-labelledby="floor-h" class="panel">
<h2 id="floor-h">Quality floor</h2>
<p>A seeker is offered a job only when the pair passes the floor, which relaxes as they wait. What it allows at this event:</p>
<div class="table-wrap" tabindex="0" role="region" aria-label="What the quality floor allows"><table data-floor-table><caption class="visually-hidden">What the quality floor allows as a seeker waits</caption>
<thead><tr><th scope="col">Waited</th><th scope="col">Min. score</th><th scope="col">Essential skill</th><th scope="col">Fully remote seeker, on-site job</th></tr></thead>
<tbody>${m.floors.map(
    (f, i) =>
      html`<tr><th scope="row">${waitedFor(m.brackets[i]?.afterMs ?? 0)}</th><td>${f.min_score}</td><td>${f.essential_required ? 'Required' : 'Not required'}</td><td>${f.remote_mismatch_allowed ? 'Offered' : 'Never offered'}</td></tr>`,
  )}</tbody></table></div>
${errorSummary(fl?.errors ?? null, {
  min_score: 'Minimum score',
  require_essential: 'Essential skill',
  relax_essential: 'Essential skill when relaxed',
  allow_remote_mismatch: 'Remote mismatch',
})}
${postForm(
  request,
  `/recruiter/events/${event.id}/floor`,
  html`${input({
    name: 'min_score',
    label: QUALITY_FLOOR_LABELS.min_score,
    type: 'number',
    value: fl ? str(fl.values, 'min_score') : m.minScore === null ? '' : String(m.minScore),
    errors: fl?.errors ?? null,
    hint: `Empty: the default, ${m.defaultMinScore}`,
    attrs: html` min="0" max="100"`,
  })}
${select({
  name: 'require_essential',
  label: QUALITY_FLOOR_LABELS.require_essential,
  value: fl ? str(fl.values, 'require_essential') : m.requireEssential === null ? '' : String(m.requireEssential),
  errors: fl?.errors ?? null,
  options: [
    ['', 'Default (yes)'],
    ['true', 'Yes'],
    ['false', 'No'],
  ],
})}
${select({
  name: 'relax_essential',
  label: QUALITY_FLOOR_LABELS.relax_essential,
  value: fl ? str(fl.values, 'relax_essential') : yesNo(m.relaxEssential),
  errors: fl?.errors ?? null,
  options: [
    ['', 'Default (no)'],
    ['true', 'Yes'],
    ['false', 'No'],
  ],
})}
${select({
  name: 'allow_remote_mismatch',
  label: QUALITY_FLOOR_LABELS.allow_remote_mismatch,
  value: fl ? str(fl.values, 'allow_remote_mismatch') : yesNo(m.allowRemoteMismatch),
  errors: fl?.errors ?? null,
  options: [
    ['', 'Default (no)'],
    ['true', 'Yes'],
    ['false', 'No'],
  ],
})}
<button type="submit" class="btn btn-primary">Save floor</button>`,
  { label: 'Quality floor' },
)}
</section>`;
}

/**
 * `/recruiter/events/:id/matching`: the recruiter console's matching section for one event:
 * the caller's own availability and capacity, who else takes interviews, and the event's
 * quality floor. Its own page (and file) so the event pages stay as they are; the same use-cases
 * and body schemas as the API (GET/PATCH /team/live-events/{id}/matching, PUT …/availability).
 */
const consoleMatchingPages: FastifyPluginAsync = async (app) => {
  const matching = app.services.events.matching;
  const liveEvents = app.services.events.liveEvents;

  const page = async (
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    form: MatchingForm | null,
  ) => {
    const r = recruiter(request);
    const id = eventId(request);
    const [event, m] = await Promise.all([liveEvents.get(r.teamId, id), matching.get(r.teamId, id)]);
    const mine = m.recruiters.find((x) => x.user_id === r.user.id);
    const av = form?.which === 'availability' ? form : null;
    const fl = form?.which === 'floor' ? form : null;
    return sendPage(request, reply, {
      title: `Matching · ${event.company_name}`,
      status: form ? 400 : 200,
      body: html`<p class="hint"><a href="/recruiter/events/${event.id}">${event.company_name} (${event.slug})</a></p>
<h1>Matching</h1>
${consoleNav('')}
${notice(request)}
${availabilitySection(request, event, mine, av)}
${teamSection(event, m)}
${floorSection(request, event, m, fl)}`,
    });
  };

  app.get<{ Params: { id: string } }>('/recruiter/events/:id/matching', async (request, reply) =>
    page(request, reply, null),
  );

  app.post<{ Params: { id: string } }>('/recruiter/events/:id/availability', async (request, reply) => {
    const r = recruiter(request);
    const id = eventId(request);
    const b = formBody(request);
    try {
      const body = parseOrThrow(availabilityBodySchema, {
        available:
          str(b, 'available') === 'true' ? true : str(b, 'available') === 'false' ? false : str(b, 'available'),
        capacity: num(str(b, 'capacity')),
      });
      await matching.setAvailability(r.teamId, r.user.id, id, body);
    } catch (err) {
      const errors = fieldErrors(err);
      if (!errors) throw err;
      return page(request, reply, { values: b, errors, which: 'availability' });
    }
    return reply.redirect(`/recruiter/events/${id}/matching?done=availability-saved`, 303);
  });

  app.post<{ Params: { id: string } }>('/recruiter/events/:id/floor', async (request, reply) => {
    const r = recruiter(request);
    const id = eventId(request);
    const b = formBody(request);
    /** '' → null (the default), 'true'/'false' → booleans; anything else is left for zod to refuse. */
    const tri = (k: string) => {
      const v = str(b, k);
      return v === '' ? null : v === 'true' ? true : v === 'false' ? false : v;
    };
    try {
      const minScore = str(b, 'min_score');
      const body = parseOrThrow(floorBodySchema, {
        min_score: minScore.trim() === '' ? null : num(minScore),
        require_essential: tri('require_essential'),
        relax_essential: tri('relax_essential'),
        allow_remote_mismatch: tri('allow_remote_mismatch'),
      });
      await matching.setFloor(r.teamId, id, body);
    } catch (err) {
      const errors = fieldErrors(err);
      if (!errors) throw err;
      return page(request, reply, { values: b, errors, which: 'floor' });
    }
    return reply.redirect(`/recruiter/events/${id}/matching?done=floor-saved`, 303);
  });
};

export default consoleMatchingPages;
