import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changelogEntrySchema } from './changelog-service';

const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';
const RETRY_MS = 30_000;

/**
 * `GET /api/v1/changelog`: the API changelog (docs/api-changelog.json), public and cacheable.
 * At start the API announces entries not announced before (one `changelog.api` event each);
 * this runs in the background so a Temporal outage never keeps the API from serving, and retries.
 */
const changelogRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.changelog;
  const body = { entries: service.list() };
  const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;

  app.get('/changelog', {
    schema: {
      operationId: 'getApiChangelog',
      tags: ['meta'],
      summary: 'The API changelog',
      description:
        'Every change to API v1, newest first (additive unless `kind` is `deprecated`). Each new ' +
        'entry is also announced once by the `changelog.api` webhook event. Cacheable for 5 ' +
        'minutes; send `If-None-Match` with the ETag to get 304 Not Modified.',
      response: { 200: z.object({ entries: z.array(changelogEntrySchema) }) },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', CACHE_CONTROL);
      reply.header('access-control-allow-origin', '*');
      reply.header('etag', etag);
      if (request.headers['if-none-match'] === etag) return (reply as FastifyReply).code(304).send();
      return body;
    },
  });

  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const announce = () => {
    running = service.announcePending().then(
      (started) => {
        if (started.length) app.log.info({ entries: started }, 'announced API changelog entries');
      },
      (err: unknown) => {
        app.log.warn({ err }, `could not announce API changelog entries; retrying in ${RETRY_MS / 1000} s`);
        if (!closed) timer = setTimeout(announce, RETRY_MS).unref();
      },
    );
  };
  app.addHook('onReady', async () => announce());
  app.addHook('onClose', async () => {
    closed = true;
    if (timer) clearTimeout(timer);
    await running;
  });
};
export default changelogRoutes;
