import fp from 'fastify-plugin';
import { createServices, type Services } from '../services';

declare module 'fastify' {
  interface FastifyInstance {
    /** The use-cases of every capability, built once (apps/api/src/services.ts). */
    services: Services;
  }
}

/** Builds the services once, after knex and Temporal; routes and pages read them off the instance. */
export default fp(
  async (app) => {
    app.decorate(
      'services',
      createServices({
        knex: app.knex,
        temporal: app.temporal,
        config: app.config,
        appSecret: app.appSecret,
        paginator: app.paginator,
      }),
    );
  },
  { name: 'services', dependencies: ['knex', 'temporal'] },
);
