import type { ServiceDeps } from '../../plugins/service-deps';

/** What the webhooks use-cases are built from. */
export type WebhooksServiceDeps = Pick<
  ServiceDeps,
  'knex' | 'repos' | 'temporal' | 'config' | 'appSecret' | 'paginator'
>;
