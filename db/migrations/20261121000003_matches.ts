import type { Knex } from 'knex';

/** Projection of the match workflow (one writer: its activities). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('matches', (t) => {
    t.uuid('id').primary();
    t.text('status').notNullable().checkIn(['matched', 'accepted', 'declined', 'expired', 'completed']);
    t.uuid('seeker_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('queue_entry_id').notNullable();
    t.uuid('job_id').notNullable().references('jobs.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('live_event_id').notNullable().references('live_events.id').onDelete('CASCADE');
    t.double('match_score');
    t.jsonb('score_breakdown');
    t.text('score_version');
    t.boolean('seeker_via_agent').notNullable().defaultTo(false);
    t.text('seeker_agent_identity');
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('seeker_accepted_at', { useTz: true });
    t.timestamp('recruiter_accepted_at', { useTz: true });
    t.uuid('recruiter_accepted_by');
    t.timestamp('declined_at', { useTz: true });
    t.uuid('declined_by');
    t.text('declined_by_role');
    t.text('decline_reason');
    t.timestamp('accepted_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['seeker_user_id', 'created_at']);
    t.index(['team_id', 'created_at']);
    t.index(['job_id', 'status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('matches');
}
