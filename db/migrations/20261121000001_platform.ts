import type { Knex } from 'knex';

/** Accounts, tokens, and the platform's shared tables (idempotency, rate limits, events, outbox). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pgcrypto');

  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('email').notNullable();
    t.text('display_name').notNullable();
    t.text('role').notNullable().checkIn(['seeker', 'recruiter']);
    t.text('password_hash');
    t.timestamp('onboarding_completed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX users_email_lower_idx ON users (lower(email))');

  await knex.schema.createTable('teams', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('team_members', (t) => {
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE').unique();
    t.text('role').notNullable().checkIn(['owner', 'admin', 'member']);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['team_id', 'user_id']);
  });

  await knex.schema.createTable('profiles', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().unique().references('users.id').onDelete('CASCADE');
    t.text('full_name').notNullable();
    t.text('title').notNullable().defaultTo('');
    t.text('summary');
    t.specificType('skills', 'text[]').notNullable().defaultTo('{}');
    t.integer('experience_years').notNullable().defaultTo(0);
    t.text('location');
    t.text('remote_preference');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('api_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('display_prefix').notNullable();
    t.text('token_hash').notNullable().unique();
    t.specificType('scopes', 'text[]').notNullable();
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'created_at']);
  });

  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('token_id').notNullable().references('api_tokens.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('method').notNullable();
    t.text('route').notNullable();
    t.text('request_hash').notNullable();
    t.text('state').notNullable().checkIn(['in_progress', 'completed']);
    t.integer('response_status');
    t.jsonb('response_body');
    t.jsonb('response_headers');
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['token_id', 'key']);
    t.index(['created_at']);
  });

  // GCRA state: one row per (token, class); tat = theoretical arrival time in epoch ms.
  await knex.schema.createTable('rate_limit_buckets', (t) => {
    t.text('bucket').primary();
    t.bigInteger('tat_ms').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // GCRA in one round trip, on the database clock so every API replica agrees on time.
  // period_ms = window (60 000), interval_ms = period / limit; a request is allowed when the new
  // theoretical arrival time is at most one period ahead of now (burst = limit, then smooth).
  await knex.raw(`
    CREATE FUNCTION rate_limit_take(p_bucket text, p_interval_ms bigint, p_period_ms bigint)
    RETURNS TABLE (allowed boolean, tat_ms bigint, now_ms bigint) LANGUAGE plpgsql AS $$
    DECLARE
      v_now bigint := (extract(epoch from clock_timestamp()) * 1000)::bigint;
      v_tat bigint;
      v_new bigint;
    BEGIN
      INSERT INTO rate_limit_buckets AS b (bucket, tat_ms) VALUES (p_bucket, v_now)
        ON CONFLICT (bucket) DO UPDATE SET bucket = b.bucket
        RETURNING b.tat_ms INTO v_tat;
      v_new := GREATEST(v_tat, v_now) + p_interval_ms;
      IF v_new - v_now <= p_period_ms THEN
        UPDATE rate_limit_buckets SET tat_ms = v_new, updated_at = now() WHERE bucket = p_bucket;
        RETURN QUERY SELECT true, v_new, v_now;
      ELSE
        RETURN QUERY SELECT false, GREATEST(v_tat, v_now), v_now;
      END IF;
    END $$`);

  // The event emitter's record: every domain event, whoever owns it. Webhook fan-out reads from here.
  await knex.schema.createTable('domain_events', (t) => {
    t.text('id').primary();
    t.text('type').notNullable();
    // Who may receive it: user-owned subscriptions of these users, team-owned ones of this team.
    t.specificType('owner_user_ids', 'uuid[]').notNullable().defaultTo('{}');
    t.uuid('owner_team_id');
    t.jsonb('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['type', 'created_at']);
  });

  await knex.schema.createTable('email_outbox', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('to_address').notNullable();
    t.text('subject').notNullable();
    t.text('body').notNullable();
    t.text('kind').notNullable();
    t.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'sent', 'failed']);
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
  });

  // Projection of the queueEntry workflow; written only by its activities.
  await knex.schema.createTable('queue_entries', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('status').notNullable().checkIn(['waiting', 'matched', 'left', 'expired']);
    t.uuid('live_event_id');
    t.text('live_event_slug');
    t.text('agent_identity');
    t.boolean('via_agent').notNullable().defaultTo(false);
    t.uuid('match_id');
    t.specificType('job_ids', 'uuid[]').notNullable().defaultTo('{}');
    t.text('end_reason');
    t.timestamp('entered_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('ended_at', { useTz: true });
    t.index(['user_id', 'entered_at']);
  });
  await knex.raw(
    "CREATE INDEX queue_entries_waiting_idx ON queue_entries (live_event_id, entered_at) WHERE status = 'waiting'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS rate_limit_take(text, bigint, bigint)');
  for (const table of [
    'queue_entries',
    'email_outbox',
    'domain_events',
    'rate_limit_buckets',
    'idempotency_keys',
    'api_tokens',
    'profiles',
    'team_members',
    'teams',
    'users',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
