import type { Knex } from 'knex';

/** Live events and their jobs: descriptive records written by the API; `status` columns by the liveEvent workflow. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('live_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('slug').notNullable().unique();
    t.text('company_name').notNullable();
    t.text('headline');
    t.text('description');
    t.text('accent_color').notNullable().defaultTo('#1f6feb');
    t.text('logo_url');
    t.text('visibility').notNullable().checkIn(['open_invite', 'private']);
    t.text('status').notNullable().defaultTo('draft').checkIn(['draft', 'live', 'paused', 'ended']);
    t.timestamp('planned_start_at', { useTz: true });
    t.timestamp('planned_end_at', { useTz: true });
    t.timestamp('started_at', { useTz: true });
    t.timestamp('ends_at', { useTz: true });
    t.timestamp('ended_at', { useTz: true });
    t.integer('interview_slots').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'created_at']);
  });
  await knex.raw(
    'CREATE INDEX live_events_public_idx ON live_events (started_at DESC, id) WHERE visibility ' +
      "= 'open_invite' AND status IN ('live', 'paused')",
  );

  await knex.schema.createTable('jobs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('live_event_id').notNullable().references('live_events.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.specificType('essential_skills', 'text[]').notNullable().defaultTo('{}');
    t.specificType('bonus_skills', 'text[]').notNullable().defaultTo('{}');
    t.integer('experience_min').notNullable().defaultTo(0);
    t.integer('salary_min');
    t.integer('salary_max');
    t.text('location');
    t.text('remote_preference').checkIn(['remote', 'hybrid', 'onsite']);
    t.text('status').notNullable().defaultTo('open').checkIn(['open', 'closed']);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['live_event_id']);
    t.index(['team_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('jobs');
  await knex.schema.dropTableIfExists('live_events');
}
