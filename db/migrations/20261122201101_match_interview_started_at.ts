import type { Knex } from 'knex';

/**
 * When both people were first in the interview room together: the interview clock starts there
 * (decision 0172). Null until then, and for matches whose room was never shared.
 * Written by the match workflow's projection, like every other lifecycle column of `matches`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('matches', (t) => {
    t.timestamp('interview_started_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('matches', (t) => {
    t.dropColumn('interview_started_at');
  });
}
