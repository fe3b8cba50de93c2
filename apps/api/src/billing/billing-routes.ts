import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { billingReadRoutes } from './billing-routes/read-routes';
import { checkoutRoutes, planChangeRoutes } from './billing-routes/payment-routes';

/** The billing REST routes, registered in this order (the OpenAPI document lists them so). */
const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  billingReadRoutes(app);
  checkoutRoutes(app);
  planChangeRoutes(app);
};
export default billingRoutes;
