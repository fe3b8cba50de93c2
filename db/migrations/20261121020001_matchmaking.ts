import type { Knex } from 'knex';

/**
 * Matchmaking: the matchmaker's own record of the offers it makes (`match_offers`, one writer:
 * the matching activity), plus the columns the match workflow projects beyond the first cut of
 * `matches`.
 *
 * An offer row is written before the seeker's queue entry is asked (`offering`), so the slot is
 * held while the entry decides; it becomes `started` (the match workflow runs), `refused` (the
 * entry was no longer waiting) or `closed` (its match ended, so the slot is free again). Capacity
 * of an event = its `interview_slots` minus its `offering` + `started` offers.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('match_offers', (t) => {
    // The offer id is the match id (and `match:<id>` the match workflow id).
    t.uuid('id').primary();
    t.uuid('queue_entry_id').notNullable();
    // The queue the entry waited in: its event, or null for "any event" (estimated wait is per queue).
    t.uuid('queue_live_event_id');
    t.uuid('seeker_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('job_id').notNullable().references('jobs.id').onDelete('CASCADE');
    t.uuid('live_event_id').notNullable().references('live_events.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.double('match_score').notNullable();
    t.jsonb('score_breakdown').notNullable();
    t.text('score_version').notNullable();
    t.text('status').notNullable().defaultTo('offering').checkIn(['offering', 'started', 'refused', 'closed']);
    t.text('refusal_reason');
    t.timestamp('entered_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['queue_entry_id']);
    t.index(['queue_live_event_id', 'created_at']);
  });
  // Slots held per event: only the open offers are counted, so the index stays small.
  await knex.raw(
    "CREATE INDEX match_offers_active_idx ON match_offers (live_event_id) WHERE status IN ('offering', 'started')",
  );
  // One open offer per queue entry at a time (the entry's own `offer` Update is the final arbiter).
  await knex.raw(
    "CREATE UNIQUE INDEX match_offers_one_offering_idx ON match_offers (queue_entry_id) WHERE status = 'offering'",
  );

  await knex.schema.alterTable('matches', (t) => {
    t.text('live_event_slug');
    t.timestamp('interview_ends_at', { useTz: true });
    t.timestamp('expired_at', { useTz: true });
    t.uuid('completed_by');
    t.boolean('recruiter_auto_accepted').notNullable().defaultTo(false);
    t.index(['live_event_id', 'status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('matches', (t) => {
    t.dropIndex(['live_event_id', 'status']);
    t.dropColumn('live_event_slug');
    t.dropColumn('interview_ends_at');
    t.dropColumn('expired_at');
    t.dropColumn('completed_by');
    t.dropColumn('recruiter_auto_accepted');
  });
  await knex.schema.dropTableIfExists('match_offers');
}
