import type { Knex } from 'knex';

/**
 * A seeker's optional salary expectation (lowest acceptable yearly salary, in the jobs' currency):
 * without it the salary component of the match score always said "no data". API: `salary_expectation`
 * on GET/PATCH /profile (docs/api-changelog.json, 2026-11-22).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('profiles', (t) => {
    t.integer('salary_expectation');
  });
  await knex.raw(
    'ALTER TABLE profiles ADD CONSTRAINT profiles_salary_expectation_nonnegative CHECK ' +
      '(salary_expectation IS NULL OR salary_expectation >= 0)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('profiles', (t) => {
    t.dropColumn('salary_expectation');
  });
}
