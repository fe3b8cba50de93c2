import { randomBytes } from 'node:crypto';
import { Client } from '@temporalio/client';
import type { Config } from '#lib/config';
import { createKnex } from '#db/knex';
import { lazyClosable } from '#lib/temporal-connection';
import { createServices, type Services } from '../../api/src/services';

/** Where a script finds the embedded servers of `npm start` when DATABASE_URL / TEMPORAL_ADDRESS are unset. */
export const scriptDatabaseUrl = (config: Config) =>
  config.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${config.EMBEDDED_PG_PORT}/jobfair`;
export const scriptTemporalAddress = (config: Config) => config.TEMPORAL_ADDRESS ?? `127.0.0.1:${config.TEMPORAL_PORT}`;

/**
 * The API's composition root for a command-line script: one small pool and a Temporal client that
 * connects only when a use-case needs it (minting a token never does). `close()` releases both.
 */
export function openServices(
  config: Config,
  opts: { databaseUrl?: string; temporalAddress?: string; poolMax?: number } = {},
): { services: Services; close: () => Promise<void> } {
  const knex = createKnex(opts.databaseUrl ?? scriptDatabaseUrl(config), opts.poolMax ?? 2);
  const temporal = lazyClosable({ address: opts.temporalAddress ?? scriptTemporalAddress(config) });
  const services = createServices({
    knex,
    temporal: new Client({ connection: temporal.connection, namespace: config.TEMPORAL_NAMESPACE }),
    config,
    // Scripts never announce the API changelog: no need to read (and validate) docs/api-changelog.json.
    changelogEntries: [],
    // Nor do they sign cursors, room links or webhook secrets: without APP_SECRET they need no key
    // (none is created under DATA_DIR, and production does not demand one); a throwaway key makes
    // anything signed by mistake verify nowhere.
    appSecret: config.APP_SECRET ?? randomBytes(32).toString('hex'),
  });
  return {
    services,
    close: async () => {
      await temporal.close();
      await knex.destroy();
    },
  };
}
