import type { FastifyRequest } from 'fastify';
import { AppError, ForbiddenError } from '#lib/errors';
import { UUID_RE } from '#lib/ids';
import { currentUser } from './core';
import { html } from './html';

// The recruiter console (`/recruiter/**`) is one section per capability: the team's overview and
// invites (accounts/console-team-pages.ts), events (events/console-events-pages.ts), jobs
// (events/console-jobs-pages.ts), candidates (events/console-candidates-pages.ts), with panels
// from queue/ and matches/. This module is what every section shares.

/** How many of the team's events, jobs and candidates the console lists on one page. */
export const LIST_LIMIT = 100;

/** Every console page: a signed-in recruiter with a team. */
export const recruiter = (request: FastifyRequest) => {
  const { user, membership } = currentUser(request);
  if (user.role !== 'recruiter') throw new ForbiddenError('The console is for recruiters', 'ROLE_NOT_ALLOWED');
  if (!membership)
    throw new ForbiddenError('Finish onboarding (create or join a team) to use the console', 'RECRUITER_TEAM_REQUIRED');
  return { user, teamId: membership.team_id, teamName: membership.team_name, teamRole: membership.role };
};

export const consoleNav = (here: string) =>
  html`<nav aria-label="Console" class="actions">${[
    ['/recruiter', 'Overview'],
    ['/recruiter/events/new', 'New event'],
    ['/recruiter/candidates', 'Candidates'],
    ['/matches', 'Matches'],
    ['/recruiter/billing', 'Billing'],
  ].map(
    ([href, label]) => html`<a href="${href}"${here === href ? html` aria-current="page"` : ''}>${label}</a>`,
  )}</nav>`;

/** The `:id` of an event or job page; not a UUID → 404 (the message names a live event for both, as it always has). */
export const eventId = (request: FastifyRequest<{ Params: { id: string } }>) => {
  if (!UUID_RE.test(request.params.id))
    throw new AppError(404, 'NOT_FOUND', `live event ${request.params.id} was not found`);
  return request.params.id;
};

/** '' → undefined (create) or null (update, nullable fields); integers → numbers; anything else is left for zod to refuse. */
export const num = (v: string) => (v.trim() === '' ? undefined : /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v);

/** Drops undefined properties (strict schemas treat a present `undefined` as given). */
export const defined = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
