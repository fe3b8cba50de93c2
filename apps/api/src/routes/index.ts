import type { FastifyPluginAsync } from 'fastify';
import openapiRoutes from './openapi';
import changelogRoutes from './changelog';
import profileRoutes from './profile';
import queueRoutes from './queue';
import matchesRoutes from './matches';
import discoveryRoutes from './discovery';
import eventsRoutes from './events';
import jobsRoutes from './jobs';
import candidatesRoutes from './candidates';
import settingsRoutes from './settings';
import invitesRoutes from './invites';
import webhooksRoutes from './webhooks';

/** Every `/api/v1` route module, one line per capability. */
const apiV1: FastifyPluginAsync = async (app) => {
  await app.register(openapiRoutes);
  await app.register(changelogRoutes);
  await app.register(profileRoutes);
  await app.register(queueRoutes);
  await app.register(matchesRoutes);
  await app.register(discoveryRoutes);
  await app.register(eventsRoutes);
  await app.register(jobsRoutes);
  await app.register(candidatesRoutes);
  await app.register(settingsRoutes);
  await app.register(invitesRoutes);
  await app.register(webhooksRoutes);
};
export default apiV1;
