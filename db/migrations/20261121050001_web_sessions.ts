import type { Knex } from 'knex';

/**
 * Browser sessions of the web application. The cookie carries a random token; only its
 * SHA-256 is stored, so a database leak does not hand out live sessions.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('web_sessions', (t) => {
    t.text('id').primary().comment('sha256 hex of the cookie token');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('ip');
    t.text('user_agent');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['user_id']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('web_sessions');
}
