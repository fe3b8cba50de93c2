import type { FastifyPluginAsync } from 'fastify';
import openapiRoutes from './openapi';
import profileRoutes from './profile';
import queueRoutes from './queue';

/** Every `/api/v1` route module, one line per capability. */
const apiV1: FastifyPluginAsync = async (app) => {
  await app.register(openapiRoutes);
  await app.register(profileRoutes);
  await app.register(queueRoutes);
};
export default apiV1;
