import type { Knex } from 'knex';

/**
 * Webhook subscriptions, deliveries and the delivery log.
 * - webhook_subscriptions: settings (target, events, description, secret salts) are written by the
 *   API; the lifecycle columns (status, consecutive_failures, paused_at …) only by the
 *   webhookSubscription workflow's activities. No plain secret is stored (see docs/decisions).
 * - webhook_deliveries: one row per (subscription, event, run); written only by the
 *   webhookDelivery workflow's activities. PostgreSQL is the record of dead letters (Temporal's
 *   dev server forgets closed workflows after 24 h).
 * - webhook_delivery_attempts: the delivery log, one row per attempt (`dlv_` id), plus one row
 *   for each delivery that ended without a request (not accepted while paused, oversize, cancelled).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.text('id').primary();
    t.uuid('owner_team_id').references('teams.id').onDelete('CASCADE');
    t.uuid('owner_user_id').references('users.id').onDelete('CASCADE');
    t.uuid('created_by_user_id').references('users.id').onDelete('SET NULL');
    t.text('target_url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.text('description');
    t.text('status').notNullable().defaultTo('active').checkIn(['active', 'paused', 'disabled', 'deleted']);
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.timestamp('paused_at', { useTz: true });
    t.timestamp('disabled_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
    t.text('secret_hash').notNullable();
    t.text('secret_salt').notNullable();
    t.text('previous_secret_salt');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.timestamp('secret_rotated_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['owner_team_id', 'created_at']);
    t.index(['owner_user_id', 'created_at']);
  });
  await knex.raw(
    'ALTER TABLE webhook_subscriptions ADD CONSTRAINT webhook_subscriptions_one_owner CHECK ' +
      '((owner_team_id IS NULL) <> (owner_user_id IS NULL))',
  );
  await knex.raw('CREATE INDEX webhook_subscriptions_events_idx ON webhook_subscriptions USING gin (events)');

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.text('subscription_id').notNullable().references('webhook_subscriptions.id').onDelete('CASCADE');
    t.text('event_id').notNullable();
    t.integer('run').notNullable();
    t.text('event_type').notNullable();
    t.text('source').notNullable().checkIn(['event', 'test', 'replay']);
    t.text('state')
      .notNullable()
      .checkIn(['pending', 'retrying', 'delivered', 'dead_letter', 'not_accepted_paused', 'oversize', 'cancelled']);
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('body_bytes');
    t.integer('last_http_status');
    t.text('last_error_kind');
    t.timestamp('last_attempt_at', { useTz: true });
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['subscription_id', 'event_id', 'run']);
    t.index(['subscription_id', 'state', 'finished_at']);
  });

  await knex.schema.createTable('webhook_delivery_attempts', (t) => {
    t.text('id').primary();
    t.text('subscription_id').notNullable();
    t.text('event_id').notNullable();
    t.integer('run').notNullable();
    t.text('event_type').notNullable();
    // Null when no request was made (not accepted while paused, oversize, cancelled).
    t.integer('attempt');
    t.text('outcome').notNullable().checkIn(['success', 'failure', 'not_sent']);
    t.integer('http_status');
    t.text('error_kind');
    t.integer('latency_ms');
    t.text('response_snippet');
    t.timestamp('attempted_at', { useTz: true }).notNullable();
    t.foreign(['subscription_id', 'event_id', 'run'])
      .references(['subscription_id', 'event_id', 'run'])
      .inTable('webhook_deliveries')
      .onDelete('CASCADE');
    t.index(['subscription_id', 'attempted_at']);
    t.index(['subscription_id', 'event_id', 'run']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_delivery_attempts');
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_subscriptions');
}
