import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import type { Config } from '#lib/config';
import type { Repositories } from '#db/repositories';
import type { Paginator } from './pagination';
import type { PublicCache } from './public-cache';

/**
 * What the API's use-case services are built from, once per process (apps/api/src/services.ts).
 * Each service takes the part it needs; queries go through the repositories, `knex` is there for
 * transactions (and a few one-line reads that have no repository method yet).
 */
export interface ServiceDeps {
  knex: Knex;
  repos: Repositories;
  temporal: Client;
  config: Config;
  /** Server master key (APP_SECRET, or the development key under DATA_DIR). */
  appSecret: string;
  paginator: Paginator;
  /** The public discovery cache; writes that change public answers clear it. */
  cache: PublicCache;
}
