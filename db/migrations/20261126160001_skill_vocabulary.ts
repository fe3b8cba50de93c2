import type { Knex } from 'knex';
import { skills } from '#domain/matchmaking/skills';
import { syncSkillVocabulary } from '../matchmaking/skills-repository';

/**
 * Skills as one vocabulary (domain/matchmaking/skills.ts): jobs and profiles keep what people
 * typed and store the canonical ids it resolves to (`skill_ids`), set by a trigger from the
 * database's copy of the vocabulary (the constant of `jobfair_skill_spellings()`, written by the
 * sync) so every writer stores them. Search reads
 * `jobs.skill_ids`: the covering index and the GIN index move from skill_tags to it (same keys,
 * same predicates), and the old ones go. Existing rows are resolved here (the backfill).
 *
 * `jobfair_skill_norm` is the resolver's normalisation in SQL (NFKC, trim, whitespace runs as one
 * space, lower-case by Unicode rules whatever the database's locale: pg_c_utf8, PostgreSQL 17+); the compact form drops spaces, dots, hyphens, underscores and slashes. A test
 * holds the two implementations to the same answers.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION jobfair_skill_norm(text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT lower(regexp_replace(regexp_replace(normalize($1, NFKC), '^\\s+|\\s+$', '', 'g'), '\\s+', ' ', 'g')
        COLLATE pg_c_utf8)
    $$;

    -- The vocabulary's lookup as a constant ('e:' || spelling, 'c:' || compact form → skill id),
    -- rewritten by the sync; folded into each caller's cached plan, so a lookup reads no table.
    CREATE FUNCTION jobfair_skill_spellings() RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT '{}'::jsonb $$;

    CREATE FUNCTION jobfair_skill_ids(typed text[]) RETURNS text[]
    LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
    DECLARE
      spellings jsonb := jobfair_skill_spellings();
      ids text[] := '{}';
      s text;
      n text;
    BEGIN
      FOREACH s IN ARRAY typed LOOP
        n := jobfair_skill_norm(s);
        CONTINUE WHEN n IS NULL OR n = '';
        ids := ids || coalesce(spellings ->> ('e:' || n),
                               spellings ->> ('c:' || regexp_replace(n, '[\\s._/-]+', '', 'g')), n);
      END LOOP;
      RETURN ARRAY(SELECT DISTINCT x FROM unnest(ids) AS x ORDER BY x);
    END $$;

    CREATE FUNCTION jobfair_jobs_skill_ids() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.skill_ids := jobfair_skill_ids(NEW.essential_skills || NEW.bonus_skills);
      RETURN NEW;
    END $$;
    CREATE FUNCTION jobfair_profiles_skill_ids() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.skill_ids := jobfair_skill_ids(NEW.skills);
      RETURN NEW;
    END $$;

    ALTER TABLE jobs ADD COLUMN skill_ids text[] NOT NULL DEFAULT '{}';
    ALTER TABLE profiles ADD COLUMN skill_ids text[] NOT NULL DEFAULT '{}';
    CREATE TRIGGER jobs_skill_ids BEFORE INSERT OR UPDATE OF essential_skills, bonus_skills ON jobs
      FOR EACH ROW EXECUTE FUNCTION jobfair_jobs_skill_ids();
    CREATE TRIGGER profiles_skill_ids BEFORE INSERT OR UPDATE OF skills ON profiles
      FOR EACH ROW EXECUTE FUNCTION jobfair_profiles_skill_ids();
  `);
  await syncSkillVocabulary(knex, skills);
  await knex.raw(`
    CREATE INDEX jobs_open_skill_ids_gin ON jobs USING gin (skill_ids) WHERE status = 'open';
    CREATE INDEX jobs_open_search_ids_idx ON jobs (created_at DESC, id DESC)
      INCLUDE (skill_ids, live_event_id, remote_preference, salary_max, location) WHERE status = 'open';
    DROP INDEX IF EXISTS jobs_open_search_idx;
    DROP INDEX IF EXISTS jobs_open_skill_tags_gin;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX jobs_open_skill_tags_gin ON jobs USING gin (skill_tags) WHERE status = 'open';
    CREATE INDEX jobs_open_search_idx ON jobs (created_at DESC, id DESC)
      INCLUDE (skill_tags, live_event_id, remote_preference, salary_max, location) WHERE status = 'open';
    DROP INDEX IF EXISTS jobs_open_search_ids_idx;
    DROP INDEX IF EXISTS jobs_open_skill_ids_gin;
    DROP TRIGGER IF EXISTS profiles_skill_ids ON profiles;
    DROP TRIGGER IF EXISTS jobs_skill_ids ON jobs;
    ALTER TABLE profiles DROP COLUMN skill_ids;
    ALTER TABLE jobs DROP COLUMN skill_ids;
    DROP FUNCTION IF EXISTS jobfair_profiles_skill_ids();
    DROP FUNCTION IF EXISTS jobfair_jobs_skill_ids();
    DROP FUNCTION IF EXISTS jobfair_skill_ids(text[]);
    DROP FUNCTION IF EXISTS jobfair_skill_spellings();
    DROP FUNCTION IF EXISTS jobfair_skill_norm(text);
  `);
}
