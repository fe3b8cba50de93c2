import type { Knex } from 'knex';

/**
 * Decision 0258: the API reads the domain's state gauges from PostgreSQL at scrape time. Each
 * count runs over a partial index holding exactly the rows it counts, so a scrape costs the size
 * of the state (dead letters of the last day, pending e-mails, paused subscriptions), never a
 * scan of the growing delivery log or outbox.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX webhook_deliveries_dead_letter_finished ON webhook_deliveries (finished_at) WHERE state = 'dead_letter'",
  );
  await knex.raw("CREATE INDEX email_outbox_pending ON email_outbox (created_at) WHERE status = 'pending'");
  await knex.raw("CREATE INDEX webhook_subscriptions_paused ON webhook_subscriptions (id) WHERE status = 'paused'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS webhook_subscriptions_paused');
  await knex.raw('DROP INDEX IF EXISTS email_outbox_pending');
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_dead_letter_finished');
}
