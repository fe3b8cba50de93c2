import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';

/**
 * `GET /api/v1/openapi.json`: the generated OpenAPI 3.1 document (it lists itself too), cacheable
 * (1 h fresh + 24 h stale, an ETag for revalidation) and open to every origin. The routes are fixed
 * once the app is ready, so the document is rendered once per process.
 */
const openapiRoutes: FastifyPluginAsyncZod = async (app) => {
  let rendered: { body: string; etag: string } | undefined;
  app.get('/openapi.json', {
    // Not an MCP tool: the tools already carry these schemas, and the document is ~100 KB of context.
    config: { mcp: { exclude: true } },
    schema: {
      operationId: 'getOpenApiDocument',
      tags: ['meta'],
      summary: 'This OpenAPI 3.1 document',
      description:
        'The canonical reference of the API, generated from the schemas that validate requests. ' +
        '`Cache-Control: public, max-age=3600, stale-while-revalidate=86400`; CORS open to every ' +
        'origin. Send `If-None-Match` with the ETag to get 304 Not Modified.',
      response: { 200: z.record(z.string(), z.unknown()).describe('An OpenAPI 3.1 document') },
    },
    handler: async (request, reply) => {
      if (!rendered) {
        const body = JSON.stringify(app.swagger());
        rendered = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      }
      reply.header('cache-control', CACHE_CONTROL);
      reply.header('access-control-allow-origin', '*');
      reply.header('etag', rendered.etag);
      if (request.headers['if-none-match'] === rendered.etag) return (reply as FastifyReply).code(304).send();
      reply.header('content-type', 'application/json; charset=utf-8');
      return (reply as FastifyReply).send(rendered.body);
    },
  });
};
export default openapiRoutes;
