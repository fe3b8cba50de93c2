import type { Knex } from 'knex';

/**
 * `jobs.skill_tags` (trimmed, lower-cased skill strings, 20261121010001) has had no reader since
 * search moved to the canonical ids in `jobs.skill_ids` (20261126160001); its indexes went then.
 * The column and its function go: every job write computed and stored the array for nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE jobs DROP COLUMN IF EXISTS skill_tags');
  await knex.raw('DROP FUNCTION IF EXISTS jobfair_skill_tags(text[])');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION jobfair_skill_tags(text[]) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT coalesce(array_agg(DISTINCT lower(btrim(s))), '{}') FROM unnest($1) AS s WHERE btrim(s) <> ''
    $$`);
  await knex.raw(
    'ALTER TABLE jobs ADD COLUMN skill_tags text[] GENERATED ALWAYS AS ' +
      '(jobfair_skill_tags(essential_skills || bonus_skills)) STORED',
  );
}
