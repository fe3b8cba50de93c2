import type { FastifyPluginAsync } from 'fastify';

/** `GET /api/v1/openapi.json`: the generated OpenAPI 3.1 document, cacheable and open to all origins. */
const openapiRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600, stale-while-revalidate=86400');
    reply.header('access-control-allow-origin', '*');
    reply.header('content-type', 'application/json; charset=utf-8');
    return app.swagger();
  });
};
export default openapiRoutes;
