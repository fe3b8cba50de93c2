import type { Knex } from 'knex';

/**
 * Sign-up with an e-mail confirmation step (decision 0182): a sign-up is a request until the link
 * e-mailed to the address is opened. Only a hash of the link's token is stored (like invites).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('signup_requests', (t) => {
    t.uuid('id').primary();
    t.text('token_hash').notNullable().unique();
    t.text('email').notNullable();
    t.text('display_name').notNullable();
    t.text('role').notNullable().checkIn(['seeker', 'recruiter']);
    t.text('password_hash').notNullable();
    /** Where the person was going (an invite link), kept across the confirmation. */
    t.text('next').notNullable().defaultTo('/');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX signup_requests_email ON signup_requests (lower(email))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('signup_requests');
}
