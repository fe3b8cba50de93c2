import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DependencyUnavailableError } from '#lib/errors';

const checkSchema = z.object({ status: z.enum(['ok', 'unavailable']), error: z.string().optional() });

/** Liveness (`/healthz`: the process is up) and readiness (`/readyz`: PostgreSQL and Temporal answer). */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', {
    schema: {
      operationId: 'healthz',
      tags: ['operations'],
      hide: true,
      response: { 200: z.object({ status: z.literal('ok') }) },
    },
    handler: async () => ({ status: 'ok' as const }),
  });

  app.get('/readyz', {
    schema: {
      operationId: 'readyz',
      tags: ['operations'],
      hide: true,
      response: {
        200: z.object({
          status: z.literal('ready'),
          checks: z.object({ postgres: checkSchema, temporal: checkSchema }),
        }),
      },
    },
    handler: async () => {
      const withTimeout = <T>(p: Promise<T>) =>
        Promise.race([
          p,
          new Promise<T>((_, rej) => setTimeout(() => rej(new Error('timed out after 2 s')), 2000).unref()),
        ]);
      const [pg, tp] = await Promise.allSettled([
        withTimeout(app.knex.raw('SELECT 1')),
        withTimeout(app.temporal.connection.workflowService.getSystemInfo({})),
      ]);
      const checks = {
        postgres:
          pg.status === 'fulfilled'
            ? { status: 'ok' as const }
            : { status: 'unavailable' as const, error: String((pg.reason as Error)?.message ?? pg.reason) },
        temporal:
          tp.status === 'fulfilled'
            ? { status: 'ok' as const }
            : { status: 'unavailable' as const, error: String((tp.reason as Error)?.message ?? tp.reason) },
      };
      if (pg.status !== 'fulfilled' || tp.status !== 'fulfilled') {
        const down = [pg.status !== 'fulfilled' ? 'PostgreSQL' : null, tp.status !== 'fulfilled' ? 'Temporal' : null]
          .filter(Boolean)
          .join(' and ');
        const err = new DependencyUnavailableError(down);
        Object.assign(err.details!, { checks });
        throw err;
      }
      return { status: 'ready' as const, checks };
    },
  });
};
export default healthRoutes;
