import type { Knex } from 'knex';

/**
 * Idempotency claims record the lease epoch of the API process that holds them (decision 0161):
 * a claim whose process is gone (its advisory lock released) can be taken over at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.integer('lease_owner');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumn('lease_owner');
  });
}
