import type { Knex } from 'knex';

/**
 * What a relaxed quality floor may never give up unless the event says so:
 * - `match_relax_essential`: the brackets of MATCH_FLOOR_BRACKETS that lift the essential-skill
 *   rule lift it at this event (null/false: a pair sharing none of a job's essential skills is
 *   never offered, however long the seeker has waited);
 * - `match_allow_remote_mismatch`: pairs whose remote modes cannot meet (a seeker who wants fully
 *   remote work and an on-site job) may be offered (null/false: never).
 * Null = the default (false), as the other floor columns.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('live_events', (t) => {
    t.boolean('match_relax_essential');
    t.boolean('match_allow_remote_mismatch');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('live_events', (t) => {
    t.dropColumn('match_relax_essential');
    t.dropColumn('match_allow_remote_mismatch');
  });
}
