import type { Knex } from 'knex';
import { DECLINE_REASON_CODES } from '#workflows/matches/contract';

/**
 * Matching you can trust (decisions 0120–0124):
 * - `recruiter_availability`: a recruiter of the event's team says they take interviews at this
 *   event, with their own concurrent-interview capacity. Once an event has any row, its offers go
 *   to available recruiters only, round-robin by least recent offer (`last_offered_at`); events
 *   without rows keep the event-level capacity alone. `interview_slots` stays the cap.
 * - the offer and the match name the recruiter (`recruiter_user_id`, null for events without
 *   availability rows and for older matches).
 * - the event's quality floor: `match_min_score` (0–100) and `match_require_essential`; null =
 *   the configured default (MATCH_MIN_SCORE; essential required). The floor relaxes in brackets
 *   as the seeker waits (MATCH_FLOOR_BRACKETS).
 * - `matches.decline_reason_code`: the fixed vocabulary beside the free-text reason.
 * - an index for "never re-offer a declined or interviewed (seeker, job) pair".
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('recruiter_availability', (t) => {
    t.uuid('live_event_id').notNullable().references('live_events.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.boolean('available').notNullable().defaultTo(true);
    t.integer('capacity').notNullable().defaultTo(1);
    // Round-robin key: the recruiter whose last offer is oldest (or who never had one) goes first.
    t.timestamp('last_offered_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['live_event_id', 'user_id']);
  });
  await knex.raw(
    'ALTER TABLE recruiter_availability ADD CONSTRAINT recruiter_availability_capacity_check ' +
      'CHECK (capacity BETWEEN 1 AND 50)',
  );

  await knex.schema.alterTable('match_offers', (t) => {
    t.uuid('recruiter_user_id').references('users.id').onDelete('SET NULL');
  });
  await knex.raw(
    'CREATE INDEX match_offers_recruiter_active_idx ON match_offers (recruiter_user_id) WHERE ' +
      "status IN ('offering', 'started')",
  );

  await knex.schema.alterTable('matches', (t) => {
    t.uuid('recruiter_user_id');
    t.text('decline_reason_code');
    t.index(['seeker_user_id', 'job_id']);
  });
  await knex.raw(
    `ALTER TABLE matches ADD CONSTRAINT matches_decline_reason_code_check CHECK ` +
      `(decline_reason_code IS NULL OR decline_reason_code IN (${DECLINE_REASON_CODES.map((c) => `'${c}'`).join(', ')}))`,
  );

  await knex.schema.alterTable('live_events', (t) => {
    t.smallint('match_min_score');
    t.boolean('match_require_essential');
  });
  await knex.raw(
    'ALTER TABLE live_events ADD CONSTRAINT live_events_match_min_score_check CHECK ' +
      '(match_min_score IS NULL OR match_min_score BETWEEN 0 AND 100)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE live_events DROP CONSTRAINT IF EXISTS live_events_match_min_score_check');
  await knex.schema.alterTable('live_events', (t) => {
    t.dropColumn('match_min_score');
    t.dropColumn('match_require_essential');
  });
  await knex.raw('ALTER TABLE matches DROP CONSTRAINT IF EXISTS matches_decline_reason_code_check');
  await knex.schema.alterTable('matches', (t) => {
    t.dropIndex(['seeker_user_id', 'job_id']);
    t.dropColumn('recruiter_user_id');
    t.dropColumn('decline_reason_code');
  });
  await knex.raw('DROP INDEX IF EXISTS match_offers_recruiter_active_idx');
  await knex.schema.alterTable('match_offers', (t) => {
    t.dropColumn('recruiter_user_id');
  });
  await knex.schema.dropTableIfExists('recruiter_availability');
}
