import type { Knex } from 'knex';

/**
 * Decision 0195: first attempts of emitted events go through the webhook dispatcher (one
 * workflow per task queue) instead of a workflow per delivery.
 * - `first_attempt_due_at`: set by the fan-out when it records the delivery; cleared when the
 *   dispatcher has recorded the first attempt (or the end without a request). Its partial index is
 *   the dispatcher's queue.
 * - `dispatch_lease_until`: a claimed row is not claimed again until the lease runs out (a worker
 *   that died mid-batch: its rows are attempted again — at-least-once).
 * - `replay_op`: the operation tag (token + Idempotency-Key) of the replay that created this run,
 *   so a keyed retry of a replay answers with the run it created (decision 0197).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.timestamp('first_attempt_due_at', { useTz: true });
    t.timestamp('dispatch_lease_until', { useTz: true });
    t.text('replay_op');
  });
  await knex.raw(
    'CREATE INDEX webhook_deliveries_first_attempt_due ON webhook_deliveries ' +
      '(first_attempt_due_at) WHERE first_attempt_due_at IS NOT NULL',
  );
  await knex.raw(
    'CREATE INDEX webhook_deliveries_event_retrying ON webhook_deliveries (next_attempt_at) ' +
      "WHERE state = 'retrying' AND source = 'event'",
  );
  await knex.raw(
    'CREATE INDEX webhook_deliveries_replay_op ON webhook_deliveries (subscription_id, ' +
      'replay_op) WHERE replay_op IS NOT NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_replay_op');
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_event_retrying');
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_first_attempt_due');
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('replay_op');
    t.dropColumn('dispatch_lease_until');
    t.dropColumn('first_attempt_due_at');
  });
}
