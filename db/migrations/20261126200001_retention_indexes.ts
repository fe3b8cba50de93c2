import type { Knex } from 'knex';

/**
 * Decision 0267: the retention workflow deletes rows past their retention in batches of
 * `RETENTION_BATCH_SIZE`. Each batch's predicate needs an index, or every batch would scan what is
 * kept. Already indexed: `idempotency_keys (created_at)`, `oauth_codes (expires_at)`,
 * `web_sessions (expires_at)`. Added here:
 * - finished deliveries by `finished_at`, partial: only the final states (never pending, retrying);
 * - deliveries by `event_id`: an event is deleted only when no delivery of it is left;
 * - `domain_events (created_at)`, `oauth_tokens (expires_at)`, `signup_requests (expires_at)`;
 * - sent and failed e-mails by `created_at`, partial (the pending ones have their own index).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX webhook_deliveries_finished_final ON webhook_deliveries (finished_at) ' +
      "WHERE finished_at IS NOT NULL AND state IN ('delivered', 'dead_letter', 'not_accepted_paused', 'oversize', 'cancelled')",
  );
  await knex.raw('CREATE INDEX webhook_deliveries_event_id ON webhook_deliveries (event_id)');
  await knex.raw('CREATE INDEX domain_events_created_at ON domain_events (created_at)');
  await knex.raw('CREATE INDEX oauth_tokens_expires_at ON oauth_tokens (expires_at)');
  await knex.raw('CREATE INDEX signup_requests_expires_at ON signup_requests (expires_at)');
  await knex.raw("CREATE INDEX email_outbox_done_created ON email_outbox (created_at) WHERE status <> 'pending'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS email_outbox_done_created');
  await knex.raw('DROP INDEX IF EXISTS signup_requests_expires_at');
  await knex.raw('DROP INDEX IF EXISTS oauth_tokens_expires_at');
  await knex.raw('DROP INDEX IF EXISTS domain_events_created_at');
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_event_id');
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_finished_final');
}
