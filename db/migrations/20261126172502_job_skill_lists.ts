import type { Knex } from 'knex';

/**
 * Per-skill recency lists for job search (decision 0257): `job_skills` holds one row per open job
 * and canonical skill id, with the columns the search filters on, and its index orders each
 * skill's jobs newest first. A search walks the list of its rarest skill (index-only) instead of
 * the recency index of every open job, so a rare combination of common skills reads that list, not
 * much of the whole index.
 *
 * Kept by statement-level triggers on `jobs` (transition tables: one set-based write per statement,
 * so a bulk insert of jobs stays one insert of their postings): a write rewrites the postings of the
 * rows it touched, from their final values (after the `skill_ids` trigger, whose ids are distinct);
 * only open jobs are listed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE job_skills (
      skill_id text NOT NULL,
      created_at timestamptz NOT NULL,
      job_id uuid NOT NULL,
      skill_ids text[] NOT NULL,
      live_event_id uuid NOT NULL,
      remote_preference text,
      salary_max integer,
      location text
    );
    CREATE UNIQUE INDEX job_skills_list_idx ON job_skills (skill_id, created_at DESC, job_id DESC)
      INCLUDE (skill_ids, live_event_id, remote_preference, salary_max, location);
    CREATE INDEX job_skills_job_idx ON job_skills (job_id);

    CREATE FUNCTION jobfair_job_skills_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM job_skills s USING old_jobs o WHERE s.job_id = o.id;
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO job_skills (skill_id, created_at, job_id, skill_ids, live_event_id, remote_preference, salary_max, location)
        SELECT k.skill_id, n.created_at, n.id, n.skill_ids, n.live_event_id,
               n.remote_preference, n.salary_max, n.location
        FROM new_jobs n CROSS JOIN LATERAL unnest(n.skill_ids) AS k(skill_id)
        WHERE n.status = 'open';
      END IF;
      RETURN NULL;
    END $$;
    CREATE FUNCTION jobfair_job_skills_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      TRUNCATE job_skills;
      RETURN NULL;
    END $$;

    CREATE TRIGGER job_skills_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_jobs
      FOR EACH STATEMENT EXECUTE FUNCTION jobfair_job_skills_sync();
    CREATE TRIGGER job_skills_update AFTER UPDATE ON jobs REFERENCING OLD TABLE AS old_jobs NEW TABLE AS new_jobs
      FOR EACH STATEMENT EXECUTE FUNCTION jobfair_job_skills_sync();
    CREATE TRIGGER job_skills_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS old_jobs
      FOR EACH STATEMENT EXECUTE FUNCTION jobfair_job_skills_sync();
    CREATE TRIGGER job_skills_truncate AFTER TRUNCATE ON jobs
      FOR EACH STATEMENT EXECUTE FUNCTION jobfair_job_skills_truncate();

    INSERT INTO job_skills (skill_id, created_at, job_id, skill_ids, live_event_id, remote_preference, salary_max, location)
    SELECT k.skill_id, j.created_at, j.id, j.skill_ids, j.live_event_id,
           j.remote_preference, j.salary_max, j.location
    FROM jobs j CROSS JOIN LATERAL unnest(j.skill_ids) AS k(skill_id)
    WHERE j.status = 'open';
    ANALYZE job_skills;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS job_skills_truncate ON jobs;
    DROP TRIGGER IF EXISTS job_skills_delete ON jobs;
    DROP TRIGGER IF EXISTS job_skills_update ON jobs;
    DROP TRIGGER IF EXISTS job_skills_insert ON jobs;
    DROP FUNCTION IF EXISTS jobfair_job_skills_truncate();
    DROP FUNCTION IF EXISTS jobfair_job_skills_sync();
    DROP TABLE IF EXISTS job_skills;
  `);
}
