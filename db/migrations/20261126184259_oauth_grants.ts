import type { Knex } from 'knex';

/**
 * The OAuth authorization server (decision 0260). A grant (one person's consent to one client for
 * one resource) is an `api_tokens` row with the client's name, origin and the resource, so its
 * scopes, owner, rate-limit buckets, idempotency claims, last use and revocation are those of a
 * personal token. Its access and refresh tokens live in `oauth_tokens`, its codes in
 * `oauth_codes`; all three hold only SHA-256 hashes. Dynamically registered clients (RFC 7591) in
 * `oauth_clients`; clients identified by a metadata document URL are not stored.
 *
 * The auth-change trigger also announces `k:<api_tokens.id>`: the verified-token cache keys an
 * OAuth caller by its access token's hash, which the grant row does not know.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_tokens', (t) => {
    t.text('oauth_client_id');
    t.text('oauth_client_name');
    t.text('oauth_client_origin');
    t.text('oauth_resource');
  });
  await knex.schema.createTable('oauth_clients', (t) => {
    t.text('client_id').primary();
    t.text('client_name').notNullable();
    t.text('client_uri');
    t.specificType('redirect_uris', 'text[]').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('oauth_codes', (t) => {
    t.text('code_hash').primary();
    t.text('client_id').notNullable();
    t.text('client_name').notNullable();
    t.text('client_origin').notNullable();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.specificType('scopes', 'text[]').notNullable();
    t.text('resource').notNullable();
    t.text('redirect_uri').notNullable();
    t.text('code_challenge').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('replayed_at', { useTz: true });
    // The grant the code was exchanged for: a replayed code revokes it.
    t.uuid('token_id').references('api_tokens.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['expires_at']);
  });
  await knex.schema.createTable('oauth_tokens', (t) => {
    t.text('token_hash').primary();
    t.uuid('token_id').notNullable().references('api_tokens.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['access', 'refresh']);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    // A refresh token is revoked when it is used (rotation); using it again revokes the grant.
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['token_id']);
  });
  await knex.raw(`
    CREATE OR REPLACE FUNCTION jobfair_auth_changed_token() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('jobfair_auth_changed', 't:' || OLD.token_hash);
      IF OLD.oauth_client_id IS NOT NULL THEN
        PERFORM pg_notify('jobfair_auth_changed', 'k:' || OLD.id::text);
      END IF;
      RETURN NULL;
    END $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION jobfair_auth_changed_token() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('jobfair_auth_changed', 't:' || OLD.token_hash);
      RETURN NULL;
    END $$;
  `);
  await knex.schema.dropTableIfExists('oauth_tokens');
  await knex.schema.dropTableIfExists('oauth_codes');
  await knex.schema.dropTableIfExists('oauth_clients');
  await knex.schema.alterTable('api_tokens', (t) => {
    t.dropColumn('oauth_resource');
    t.dropColumn('oauth_client_origin');
    t.dropColumn('oauth_client_name');
    t.dropColumn('oauth_client_id');
  });
}
