import type { Knex } from 'knex';
import type { SkillResolver } from '#domain/matchmaking/skills';

/**
 * The database's copy of the skill vocabulary and the re-resolution of stored skills.
 *
 * `jobfair_skill_spellings()` returns the resolver's lookup (domain/matchmaking/skills.ts) as a
 * jsonb constant; the triggers on jobs and profiles resolve what people typed with it (SQL
 * function `jobfair_skill_ids`, the same normalisation as the resolver's) into `jobs.skill_ids` and
 * `profiles.skill_ids`, so every writer — the API, the demo seed, a bench's bulk insert — stores
 * canonical ids. When the vocabulary changes (an operator adds an alias or a skill), `sync` replaces
 * the copy and re-resolves the rows whose ids it changes, so past jobs and profiles match too.
 */
export interface SkillSyncResult {
  spellings: number;
  jobs: number;
  profiles: number;
}

/** The copy and the re-resolution, in the caller's transaction (a migration's or sync's). */
export async function syncSkillVocabulary(trx: Knex, resolver: SkillResolver): Promise<SkillSyncResult> {
  const rows = resolver.spellings();
  const lookup: Record<string, string> = {};
  for (const r of rows) lookup[`${r.form === 'exact' ? 'e' : 'c'}:${r.spelling}`] = r.skill_id;
  // A constant (a table read per skill per row made a 100,000-job insert ~15× slower). JSON escapes
  // keep `?` (knex's placeholder) and `$` (the body's quote) out of the text; `'` is doubled.
  const literal = JSON.stringify(lookup)
    .replace(/[?$]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/'/g, "''");
  await trx.raw(
    'CREATE OR REPLACE FUNCTION jobfair_skill_spellings() RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE ' +
      `AS $skills$ SELECT '${literal}'::jsonb $skills$`,
  );
  const jobs = await trx.raw(
    'UPDATE jobs SET skill_ids = r.ids FROM (SELECT id, jobfair_skill_ids(essential_skills || bonus_skills) AS ids ' +
      'FROM jobs) r WHERE r.id = jobs.id AND jobs.skill_ids IS DISTINCT FROM r.ids',
  );
  const profiles = await trx.raw(
    'UPDATE profiles SET skill_ids = r.ids FROM (SELECT id, jobfair_skill_ids(skills) AS ids FROM profiles) r ' +
      'WHERE r.id = profiles.id AND profiles.skill_ids IS DISTINCT FROM r.ids',
  );
  return { spellings: rows.length, jobs: jobs.rowCount ?? 0, profiles: profiles.rowCount ?? 0 };
}

export function createSkillsRepository(knex: Knex) {
  return {
    /** Replaces the database's copy of the vocabulary and re-resolves stored skills, in one transaction. */
    async sync(resolver: SkillResolver): Promise<SkillSyncResult> {
      return knex.transaction(async (trx) => {
        // One sync at a time (two deploys, or a deploy and an operator's add).
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['skill_spellings']);
        return syncSkillVocabulary(trx, resolver);
      });
    },
    /** What the database resolves typed skills to (its copy of the vocabulary): for tests and checks. */
    async resolve(typed: string[], trx: Knex = knex): Promise<string[]> {
      const { rows } = await trx.raw('SELECT jobfair_skill_ids(?::text[]) AS ids', [typed]);
      return rows[0].ids;
    },
  };
}
export type SkillsRepository = ReturnType<typeof createSkillsRepository>;
