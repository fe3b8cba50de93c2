import type { Knex } from 'knex';

/**
 * One row per API changelog entry whose `changelog.api` announcement has been claimed. The row is
 * the once-only guard across API replicas (INSERT … ON CONFLICT DO NOTHING); `state` says whether
 * the announcement workflow was started, so a replica that died in between is repaired at the
 * next start.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('changelog_announcements', (t) => {
    t.text('entry_id').primary();
    t.text('workflow_id').notNullable();
    t.text('state').notNullable().defaultTo('pending').checkIn(['pending', 'started']);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('changelog_announcements');
}
