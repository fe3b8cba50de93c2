import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { joinRoute } from './queue-routes/join-route';
import { leaveRoute } from './queue-routes/leave-route';
import { statusRoute } from './queue-routes/status-route';

export { HUMANS_ONLY_NOTE } from './queue-routes/join-route';

/** The queue's API, one route group a file in `queue-routes/` (registered in this order: the OpenAPI order). */
const queueRoutes: FastifyPluginAsyncZod = async (app) => {
  joinRoute(app);
  leaveRoute(app);
  statusRoute(app);
};
export default queueRoutes;
