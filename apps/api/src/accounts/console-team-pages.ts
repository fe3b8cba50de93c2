import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { parseOrThrow } from '../web/forms';
import { createInviteBodySchema } from './invites-schemas';
import { AppError } from '#lib/errors';
import { formBody, setFlash, str, takeFlash, type FormBody } from '../web/core';
import { LIST_LIMIT, consoleNav, recruiter } from '../web/console';
import { html } from '../web/html';
import {
  errorSummary,
  fieldErrors,
  fmtDate,
  input,
  notice,
  postForm,
  select,
  sendPage,
  type FieldErrors,
} from '../web/layout';
import { eventsSection } from '../events/console-events-pages';
import { awaitingAcceptanceSection, listAwaitingAcceptance } from '../matches/console-matches-pages';
import { TEAM_MANAGER_ROLES } from '#db/accounts/accounts-repository';
import { errorMessage, INVITE_LABELS } from '../web/messages';

/**
 * `/recruiter`: the console's home for the recruiter's team — matches waiting for acceptance, the
 * team's events and, for owners and admins, inviting colleagues (`POST /recruiter/invites`, which
 * redirects back here; the outcome is shown once).
 */
const consoleTeamPages: FastifyPluginAsync = async (app) => {
  const events = app.services.events.liveEvents;
  const invites = app.services.accounts.invites;

  const overview = async (
    request: FastifyRequest,
    reply: FastifyReply,
    o: { inviteErrors?: FieldErrors | null; inviteValues?: FormBody; invited?: string } = {},
  ) => {
    const r = recruiter(request);
    const [list, awaiting] = await Promise.all([
      events.list(r.teamId, { limit: LIST_LIMIT }),
      listAwaitingAcceptance(app, r.user.id),
    ]);
    const manager = TEAM_MANAGER_ROLES.has(r.teamRole);
    const pendingInvites = manager ? (await invites.list(r.user.id, { limit: 50 })).data : [];
    return sendPage(request, reply, {
      title: 'Recruiter console',
      status: o.inviteErrors ? 400 : 200,
      body: html`<h1>Recruiter console <span class="hint">· ${r.teamName}</span></h1>
${consoleNav('/recruiter')}
${notice(request)}
${awaitingAcceptanceSection(awaiting, r.user.id)}
${eventsSection(list)}
${
  manager
    ? html`<section aria-labelledby="invite-h" class="panel">
<h2 id="invite-h">Invite a colleague</h2>
${o.invited ? html`<p class="notice" role="status">Invite sent to ${o.invited}. The e-mail carries their personal link.</p>` : ''}
${errorSummary(o.inviteErrors ?? null, { email: 'E-mail address', role: 'Role' })}
${postForm(
  request,
  '/recruiter/invites',
  html`${input({
    name: 'email',
    label: INVITE_LABELS.email,
    type: 'email',
    value: o.inviteValues ? str(o.inviteValues, 'email') : '',
    errors: o.inviteErrors,
    required: true,
    autocomplete: 'off',
  })}
${select({
  name: 'role',
  label: INVITE_LABELS.role,
  value: o.inviteValues ? str(o.inviteValues, 'role') : 'member',
  errors: o.inviteErrors,
  options: [
    ['member', 'Member'],
    ['admin', 'Admin (can invite)'],
  ],
})}
<button type="submit" class="btn">Send invite</button>`,
  { label: 'Invite a colleague' },
)}
${pendingInvites.length ? html`<h3>Invites</h3><ul>${pendingInvites.map((i) => html`<li>${i.email} · ${i.role} · ${i.status} · until ${fmtDate(i.expires_at)}</li>`)}</ul>` : ''}
</section>`
    : ''
}`,
    });
  };

  app.get('/recruiter', async (request, reply) =>
    overview(request, reply, { invited: takeFlash<string>(request, reply, 'invited') ?? undefined }),
  );

  app.post('/recruiter/invites', async (request, reply) => {
    const r = recruiter(request);
    const b = formBody(request);
    const email = str(b, 'email').trim();
    try {
      const body = parseOrThrow(createInviteBodySchema, { email, role: str(b, 'role') || undefined });
      await invites.create(r.user.id, body);
    } catch (err) {
      const errors =
        fieldErrors(err) ?? (err instanceof AppError && err.status === 409 ? { email: errorMessage(err) } : null);
      if (!errors) throw err;
      return overview(request, reply, { inviteErrors: errors, inviteValues: b });
    }
    setFlash(request, reply, 'invited', email);
    return reply.redirect('/recruiter', 303);
  });
};

export default consoleTeamPages;
