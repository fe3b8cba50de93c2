import type { FastifyPluginAsync } from 'fastify';
import openapiRoutes from './platform/openapi-routes';
import changelogRoutes from './changelog/changelog-routes';
import profileRoutes from './accounts/profile-routes';
import queueRoutes from './queue/queue-routes';
import matchesRoutes from './matches/matches-routes';
import discoveryRoutes from './events/discovery-routes';
import eventsRoutes from './events/events-routes';
import jobsRoutes from './events/jobs-routes';
import candidatesRoutes from './events/candidates-routes';
import matchingSettingsRoutes from './events/matching-settings-routes';
import settingsRoutes from './accounts/settings-routes';
import invitesRoutes from './accounts/invites-routes';
import webhooksRoutes from './webhooks/webhooks-routes';
import billingRoutes from './billing/billing-routes';
import comparisonRoutes from './matchmaking/comparison-routes';

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
  await app.register(matchingSettingsRoutes);
  await app.register(settingsRoutes);
  await app.register(invitesRoutes);
  await app.register(webhooksRoutes);
  await app.register(billingRoutes);
  await app.register(comparisonRoutes);
};
export default apiV1;
