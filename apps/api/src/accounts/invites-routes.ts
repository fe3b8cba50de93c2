import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { mapPage, pageSchema, paginationQuerySchema } from '../plugins/pagination';
import { inviteSchema, toInvite, createInviteBodySchema } from './invites-schemas';

/**
 * Team invites (owners and admins; scope settings:write / settings:read). The invite link goes
 * only by e-mail; the invitee accepts in the web application.
 */
const invitesRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.accounts.invites;
  const inviteEnvelope = z.object({ invite: inviteSchema });

  app.post('/team/invites', {
    config: { scope: 'settings:write', rateClass: 'write' },
    schema: {
      operationId: 'createTeamInvite',
      tags: ['team'],
      summary: 'Invite someone to the team by e-mail',
      description:
        'Sends an e-mail with a one-time link to the web application, where the invitee (a ' +
        'recruiter account with that address) accepts. The token is never returned by the API. ' +
        'Pending invite for the address → 409 INVITE_ALREADY_PENDING; already a member → 409 ' +
        'ALREADY_MEMBER; not an owner/admin → 403 TEAM_ROLE_REQUIRED.',
      body: createInviteBodySchema,
      response: { 201: inviteEnvelope },
    },
    handler: async (request, reply) => {
      const invite = await service.create(requireAuth(request).userId, request.body, request.operationKey);
      return reply.code(201).send({ invite: toInvite(invite) });
    },
  });

  app.get('/team/invites', {
    config: { scope: 'settings:read', rateClass: 'read' },
    schema: {
      operationId: 'listTeamInvites',
      tags: ['team'],
      summary: "The team's invites, paginated",
      description: 'Every status, newest first.',
      querystring: paginationQuerySchema(),
      response: { 200: pageSchema(inviteSchema) },
    },
    handler: async (request) => mapPage(await service.list(requireAuth(request).userId, request.query), toInvite),
  });

  app.delete('/team/invites/:inviteId', {
    config: { scope: 'settings:write', rateClass: 'write' },
    schema: {
      operationId: 'revokeTeamInvite',
      tags: ['team'],
      summary: 'Revoke an invite',
      description: 'The link stops working. Already revoked → 200 unchanged; accepted → 409 INVITE_ALREADY_ACCEPTED.',
      params: z.object({ inviteId: z.uuid() }),
      response: { 200: inviteEnvelope },
    },
    handler: async (request) => ({
      invite: toInvite(await service.revoke(requireAuth(request).userId, request.params.inviteId)),
    }),
  });
};
export default invitesRoutes;
