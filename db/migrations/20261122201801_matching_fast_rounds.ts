import type { Knex } from 'knex';

/**
 * Fast matching rounds (decision 0190):
 *
 * - `matching_job_versions`: per live event a counter bumped in the writer's transaction whenever
 *   any of its jobs is inserted, updated or deleted (statement-level triggers over transition
 *   tables: one upsert per statement, whatever its row count). The matchmaker keeps the open jobs
 *   of live events in memory between rounds and reloads only the events whose counter moved, so a
 *   round no longer reads every open job. No foreign key: the row of an event deleted with its jobs
 *   (cascade) is written after the event row is gone; such rows are never read again.
 *   A TRUNCATE of jobs bumps the nil-uuid row, which invalidates every cached event.
 * - `queue_entries_waiting_order_idx`: waiting entries in the order a round pages through them
 *   (oldest first, across events), so a page costs the same at 100 or 10,000 waiting entries.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE matching_job_versions (
      live_event_id uuid PRIMARY KEY,
      version bigint NOT NULL DEFAULT 1
    );

    CREATE OR REPLACE FUNCTION jobfair_matching_jobs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO matching_job_versions AS v (live_event_id)
          SELECT DISTINCT live_event_id FROM matching_new_jobs WHERE live_event_id IS NOT NULL
          ON CONFLICT (live_event_id) DO UPDATE SET version = v.version + 1;
      END IF;
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO matching_job_versions AS v (live_event_id)
          SELECT DISTINCT live_event_id FROM matching_old_jobs WHERE live_event_id IS NOT NULL
          ON CONFLICT (live_event_id) DO UPDATE SET version = v.version + 1;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER jobs_matching_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS matching_new_jobs
      FOR EACH STATEMENT EXECUTE FUNCTION jobfair_matching_jobs_changed();
    CREATE TRIGGER jobs_matching_update AFTER UPDATE ON jobs REFERENCING OLD TABLE AS matching_old_jobs NEW TABLE AS matching_new_jobs
      FOR EACH STATEMENT EXECUTE FUNCTION jobfair_matching_jobs_changed();
    CREATE TRIGGER jobs_matching_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS matching_old_jobs
      FOR EACH STATEMENT EXECUTE FUNCTION jobfair_matching_jobs_changed();

    -- TRUNCATE names no event: the nil-uuid row is the epoch of every cached event.
    CREATE OR REPLACE FUNCTION jobfair_matching_jobs_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO matching_job_versions AS v (live_event_id) VALUES ('00000000-0000-0000-0000-000000000000')
        ON CONFLICT (live_event_id) DO UPDATE SET version = v.version + 1;
      RETURN NULL;
    END $$;
    CREATE TRIGGER jobs_matching_truncate AFTER TRUNCATE ON jobs FOR EACH STATEMENT EXECUTE FUNCTION jobfair_matching_jobs_truncated();

    CREATE INDEX queue_entries_waiting_order_idx ON queue_entries (entered_at, id) WHERE status = 'waiting';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX IF EXISTS queue_entries_waiting_order_idx;
    DROP TRIGGER IF EXISTS jobs_matching_truncate ON jobs;
    DROP FUNCTION IF EXISTS jobfair_matching_jobs_truncated();
    DROP TRIGGER IF EXISTS jobs_matching_delete ON jobs;
    DROP TRIGGER IF EXISTS jobs_matching_update ON jobs;
    DROP TRIGGER IF EXISTS jobs_matching_insert ON jobs;
    DROP FUNCTION IF EXISTS jobfair_matching_jobs_changed();
    DROP TABLE IF EXISTS matching_job_versions;
  `);
}
