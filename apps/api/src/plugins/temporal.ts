import fp from 'fastify-plugin';
import { Client } from '@temporalio/client';
import { lazyClosable } from '../../../../lib/temporal-connection';
import type { Config } from '../../../../lib/config';

declare module 'fastify' {
  interface FastifyInstance {
    temporal: Client;
  }
}

/**
 * The Temporal client. Connects lazily so the API can start (and /readyz can say 503)
 * while Temporal is still coming up.
 */
export default fp<{ config: Config; temporal?: Client }>(
  async (app, opts) => {
    if (opts.temporal) {
      app.decorate('temporal', opts.temporal);
      return;
    }
    if (!opts.config.TEMPORAL_ADDRESS) throw new Error('TEMPORAL_ADDRESS is required for the API');
    const { connection, close } = lazyClosable({ address: opts.config.TEMPORAL_ADDRESS });
    app.decorate('temporal', new Client({ connection, namespace: opts.config.TEMPORAL_NAMESPACE }));
    app.addHook('onClose', close);
  },
  { name: 'temporal' },
);
