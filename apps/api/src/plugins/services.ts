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
    const services = createServices({
      knex: app.knex,
      temporal: app.temporal,
      config: app.config,
      appSecret: app.appSecret,
      paginator: app.paginator,
      log: app.log,
    });
    app.decorate('services', services);
    // The room hub's own LISTEN connection opens once the API is ready. It stops before the server
    // does (preClose): its people are marked away while the database is still there, so the pages
    // reconnect, to another replica, within the grace.
    app.addHook('onReady', async () => services.room.hub.start());
    app.addHook('preClose', async () => services.room.hub.shutdown());
  },
  { name: 'services', dependencies: ['knex', 'temporal'] },
);
