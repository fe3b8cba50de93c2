import type { Knex } from 'knex';
import {
  BILLING_CHARGE_REASONS,
  BILLING_CHARGE_STATUSES,
  BILLING_INTERVALS,
  BILLING_INVOICE_STATUSES,
  BILLING_PLANS,
  BILLING_STATUSES,
} from '#workflows/billing/contract';

/**
 * Billing (decision 0130).
 * - billing_accounts: the projection of the `billing-account:<teamId>` actor (plan, status, consent,
 *   period); written only by its activities. No row = free and active.
 * - billing_customers: the team's customer at the provider; written by the API at the first checkout.
 * - billing_invoices: paid (and failed) invoices as the provider reported them; written by the actor's activity.
 * - billing_charges: every off-session charge we send (upgrade or renewal), recorded `pending` before
 *   the provider call and settled after it, so `npm run billing:reconcile` can find the ones a crash left open.
 * - billing_provider_events: provider event ids received (Stripe webhooks), for the record and to answer a duplicate at once.
 * - billing_local_payments: the built-in local provider's own state (checkout sessions, payments).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('billing_accounts', (t) => {
    t.uuid('team_id').primary().references('teams.id').onDelete('CASCADE');
    t.text('plan')
      .notNullable()
      .checkIn([...BILLING_PLANS]);
    t.text('interval').checkIn([...BILLING_INTERVALS]);
    t.text('status')
      .notNullable()
      .checkIn([...BILLING_STATUSES]);
    t.text('consent_payment_method');
    t.text('consent_display');
    t.timestamp('consent_at', { useTz: true });
    t.timestamp('current_period_end', { useTz: true });
    t.boolean('cancel_at_period_end').notNullable().defaultTo(false);
    t.integer('failed_renewals').notNullable().defaultTo(0);
    t.timestamp('next_retry_at', { useTz: true });
    t.jsonb('pending_authentication');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('billing_customers', (t) => {
    t.uuid('team_id').primary().references('teams.id').onDelete('CASCADE');
    t.text('provider').notNullable().checkIn(['local', 'stripe']);
    t.text('customer_id').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('billing_invoices', (t) => {
    t.text('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('number');
    t.integer('amount_cents').notNullable();
    t.text('currency').notNullable();
    t.text('status')
      .notNullable()
      .checkIn([...BILLING_INVOICE_STATUSES]);
    t.text('plan').checkIn([...BILLING_PLANS]);
    t.text('interval').checkIn([...BILLING_INTERVALS]);
    t.timestamp('period_start', { useTz: true });
    t.timestamp('period_end', { useTz: true });
    t.text('hosted_url');
    t.text('pdf_url');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['team_id', 'created_at', 'id']);
  });
  await knex.schema.createTable('billing_charges', (t) => {
    t.text('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('reason')
      .notNullable()
      .checkIn([...BILLING_CHARGE_REASONS]);
    t.text('plan')
      .notNullable()
      .checkIn([...BILLING_PLANS]);
    t.text('interval')
      .notNullable()
      .checkIn([...BILLING_INTERVALS]);
    t.integer('amount_cents').notNullable();
    t.text('currency').notNullable();
    t.text('status')
      .notNullable()
      .checkIn([...BILLING_CHARGE_STATUSES]);
    t.text('provider_payment_id');
    t.text('decline_code');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['status', 'created_at']);
  });
  await knex.schema.createTable('billing_provider_events', (t) => {
    t.text('id').primary();
    t.text('type').notNullable();
    t.uuid('team_id').references('teams.id').onDelete('CASCADE');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('billing_local_payments', (t) => {
    t.text('id').primary();
    t.text('kind').notNullable().checkIn(['checkout', 'charge']);
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('customer_id').notNullable();
    t.text('idempotency_key').unique();
    t.text('status').notNullable().checkIn(['open', 'requires_action', 'succeeded', 'failed']);
    t.text('mode').checkIn(['hosted', 'embedded']);
    t.integer('amount_cents').notNullable();
    t.text('currency').notNullable();
    t.text('plan').notNullable();
    t.text('interval').notNullable();
    t.text('client_secret');
    t.text('payment_method');
    t.text('card_display');
    t.text('last_error');
    t.text('invoice_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of [
    'billing_local_payments',
    'billing_provider_events',
    'billing_charges',
    'billing_invoices',
    'billing_customers',
    'billing_accounts',
  ])
    await knex.schema.dropTableIfExists(t);
}
