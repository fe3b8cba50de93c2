import type { Knex } from 'knex';
import { INTERVIEW_OUTCOMES } from '../matches/interview-reports-repository';

/**
 * The recruiter's report card after an interview (docs/decisions/0111-interview-report-card.md):
 * one per match, written by a recruiter of the match's team; kept on the candidate for the team.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('interview_reports', (t) => {
    t.uuid('match_id').primary().references('matches.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('seeker_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('author_user_id').references('users.id').onDelete('SET NULL');
    t.smallint('fit').notNullable();
    t.smallint('communication').notNullable();
    t.smallint('technical').notNullable();
    t.text('outcome')
      .notNullable()
      .checkIn([...INTERVIEW_OUTCOMES]);
    t.text('notes').notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'seeker_user_id']);
  });
  await knex.raw(
    `ALTER TABLE interview_reports ADD CONSTRAINT interview_reports_scores CHECK (fit BETWEEN ` +
      `1 AND 5 AND communication BETWEEN 1 AND 5 AND technical BETWEEN 1 AND 5)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('interview_reports');
}
