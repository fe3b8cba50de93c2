import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { settingsSchema, patchSchema, toSettings } from './settings-schemas';

/** The caller's user settings and, for recruiters, their team's settings. */
const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.accounts.settings;

  app.get('/settings', {
    config: { scope: 'settings:read', rateClass: 'read' },
    schema: {
      operationId: 'getSettings',
      tags: ['settings'],
      summary: 'User and team settings',
      response: { 200: z.object({ settings: settingsSchema }) },
    },
    handler: async (request) => ({ settings: toSettings(await service.get(requireAuth(request).userId)) }),
  });

  app.patch('/settings', {
    config: { scope: 'settings:write', rateClass: 'write' },
    schema: {
      operationId: 'updateSettings',
      tags: ['settings'],
      summary: 'Change user and/or team settings',
      description:
        'Team settings: only owners and admins of a team (403 TEAM_ROLE_REQUIRED; no team → 403 ' +
        'RECRUITER_TEAM_REQUIRED). Applied together or not at all.',
      body: patchSchema,
      response: { 200: z.object({ settings: settingsSchema }) },
    },
    handler: async (request) => ({
      settings: toSettings(await service.update(requireAuth(request).userId, request.body)),
    }),
  });
};
export default settingsRoutes;
