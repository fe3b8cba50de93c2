import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, NotFoundError } from '#lib/errors';
import { currentUser } from '../web/core';
import { html } from '../web/html';
import { actionButton, fmtDate, sendPage } from '../web/layout';
import { errorMessage } from '../web/messages';

/** `/invites/<token>`: the link of a team-invite e-mail. The invitee signs in (or up) and joins. */
const invitesPages: FastifyPluginAsync = async (app) => {
  const invites = app.services.accounts.invites;

  const invitePage = async (
    request: FastifyRequest<{ Params: { token: string } }>,
    reply: FastifyReply,
    problem?: string,
    status = 200,
  ) => {
    const preview = await invites.previewInvite(request.params.token);
    if (!preview) throw new NotFoundError('invite');
    const here = `/invites/${request.params.token}`;
    const s = request.webSession;
    const usable = preview.status === 'pending';
    return sendPage(request, reply, {
      title: `Join ${preview.team_name}`,
      narrow: true,
      status,
      body: html`<h1>Join ${preview.team_name}</h1>
<p class="lead">You are invited as <strong>${preview.role}</strong> for <strong>${preview.email}</strong>${usable ? html`, until ${fmtDate(preview.expires_at)}` : ''}.</p>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
${
  !usable
    ? html`<p class="panel panel-soft">This invite is ${preview.status}. ${preview.status === 'accepted' ? '' : 'Ask the team for a new one.'}</p>`
    : !s
      ? html`<p>Sign in with the recruiter account for ${preview.email}, or create one with that address.</p>
<p class="actions"><a class="btn btn-primary" href="/signup?next=${encodeURIComponent(here)}">Create a recruiter account</a> <a class="btn" href="/login?next=${encodeURIComponent(here)}">Sign in</a></p>`
      : html`<div class="actions">${actionButton(request, here, `Join ${preview.team_name}`, { cls: 'btn btn-primary' })}</div>`
}`,
    });
  };

  app.get<{ Params: { token: string } }>('/invites/:token', async (request, reply) => {
    // The token is in the path: keep it out of Referer headers to other sites (site policy same-origin).
    return invitePage(request, reply);
  });

  app.post<{ Params: { token: string } }>('/invites/:token', async (request, reply) => {
    const { user } = currentUser(request);
    try {
      await invites.acceptInvite(user.id, request.params.token);
    } catch (err) {
      if (err instanceof AppError && (err.status === 403 || err.status === 409))
        return invitePage(request, reply, errorMessage(err), err.status);
      throw err;
    }
    return reply.redirect(user.onboarding_completed_at ? '/recruiter?done=joined-team' : '/onboarding', 303);
  });
};

export default invitesPages;
