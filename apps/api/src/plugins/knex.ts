import fp from 'fastify-plugin';
import type { Knex } from 'knex';
import { createKnex } from '#db/knex';
import type { Config } from '#lib/config';

declare module 'fastify' {
  interface FastifyInstance {
    knex: Knex;
  }
}

/** One knex pool per API process; closed with the app. A caller may hand in its own (tests share one). */
export default fp<{ config: Config; knex?: Knex }>(
  async (app, opts) => {
    if (!opts.knex && !opts.config.DATABASE_URL) throw new Error('DATABASE_URL is required for the API');
    const knex = opts.knex ?? createKnex(opts.config.DATABASE_URL!, opts.config.DATABASE_POOL_MAX);
    app.decorate('knex', knex);
    if (!opts.knex) app.addHook('onClose', async () => knex.destroy());
  },
  { name: 'knex' },
);
