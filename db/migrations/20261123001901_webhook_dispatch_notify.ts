import type { Knex } from 'knex';

/**
 * Decision 0217: the webhook dispatcher waits for work with LISTEN instead of polling PostgreSQL
 * every 100 ms. A statement-level trigger on `webhook_deliveries` sends one NOTIFY on
 * `webhook_dispatch` per inserting statement that queued a first attempt (`first_attempt_due_at`);
 * PostgreSQL delivers it at commit, so the dispatcher never wakes before the rows are visible,
 * whichever process wrote them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION webhook_dispatch_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM inserted WHERE first_attempt_due_at IS NOT NULL) THEN
        PERFORM pg_notify('webhook_dispatch', '');
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER webhook_deliveries_dispatch_notify
      AFTER INSERT ON webhook_deliveries
      REFERENCING NEW TABLE AS inserted
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_dispatch_notify()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS webhook_deliveries_dispatch_notify ON webhook_deliveries');
  await knex.raw('DROP FUNCTION IF EXISTS webhook_dispatch_notify()');
}
