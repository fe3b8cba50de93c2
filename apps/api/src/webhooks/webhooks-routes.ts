import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  secretRotationRoutes,
  subscriptionChangeRoutes,
  subscriptionCreateAndReadRoutes,
} from './webhooks-routes/subscription-routes';
import { deadLetterReplayRoutes, testAndDeliveryLogRoutes } from './webhooks-routes/delivery-routes';

/** The webhooks REST routes, registered in this order (the OpenAPI document lists them so). */
const webhooksRoutes: FastifyPluginAsyncZod = async (app) => {
  subscriptionCreateAndReadRoutes(app);
  subscriptionChangeRoutes(app);
  testAndDeliveryLogRoutes(app);
  secretRotationRoutes(app);
  deadLetterReplayRoutes(app);
};
export default webhooksRoutes;
