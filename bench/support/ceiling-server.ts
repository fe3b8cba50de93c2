/**
 * The bench's ceilings, in their own process (as the API is), so each row compares two processes
 * of the same kind on the same machine in the same run:
 *
 * - `GET /bare/<name>`: a bare Fastify route answering the JSON body in BENCH_BODIES_FILE under
 *   <name> (a body our own route answered, so the same size), serialised per request.
 * - `GET /api/v1/queue/status` with `x-bench-user: <user id>`: the app's own queue route, service
 *   and response schema over the same database — without the auth and rate-limit plugins (and the
 *   other platform conventions: input sanitation, idempotency, deprecation, OpenAPI).
 *
 * Environment: the app's config (DATABASE_URL, PORT, …) plus BENCH_BODIES_FILE.
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { appSecret, loadConfig } from '#lib/config';
import { createPaginator } from '#apps/api/src/plugins/pagination';
import knexPlugin from '#apps/api/src/plugins/knex';
import temporalPlugin from '#apps/api/src/plugins/temporal';
import servicesPlugin from '#apps/api/src/plugins/services';
import errorsPlugin from '#apps/api/src/plugins/errors';
import queueRoutes from '#apps/api/src/queue/queue-routes';
import '#apps/api/src/plugins/route-config';
import type { AuthContext } from '#apps/api/src/plugins/auth';

async function main() {
  const config = loadConfig();
  const bodies = JSON.parse(fs.readFileSync(process.env.BENCH_BODIES_FILE ?? '', 'utf8')) as Record<string, unknown>;
  const app = Fastify({ logger: false });
  app.get<{ Params: { name: string } }>('/bare/:name', async (request) => bodies[request.params.name] ?? {});

  await app.register(async (scoped) => {
    scoped.decorate('config', config);
    scoped.decorate('appSecret', appSecret(config));
    scoped.decorate('paginator', createPaginator(scoped.appSecret));
    scoped.setValidatorCompiler(validatorCompiler);
    scoped.setSerializerCompiler(serializerCompiler);
    await scoped.register(knexPlugin, { config });
    await scoped.register(temporalPlugin, { config });
    await scoped.register(servicesPlugin);
    await scoped.register(errorsPlugin);
    scoped.decorateRequest('auth', null);
    scoped.addHook('onRequest', async (request) => {
      const userId = request.headers['x-bench-user'];
      if (typeof userId === 'string')
        request.auth = { userId, scopes: new Set(['queue:read']) } as unknown as AuthContext;
    });
    await scoped.register(queueRoutes, { prefix: '/api/v1' });
    // The same body after one trivial PostgreSQL round trip: the floor of any answer that asks the
    // database, so an uncached discovery row can be read as "query work" against "design".
    scoped.get<{ Params: { name: string } }>('/bare-db/:name', async (request) => {
      await scoped.knex.raw('SELECT 1');
      return bodies[request.params.name] ?? {};
    });
  });
  await app.listen({ host: '127.0.0.1', port: config.PORT });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
