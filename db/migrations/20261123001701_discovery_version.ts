import type { Knex } from 'knex';

/**
 * The data version of public discovery (docs/decisions/0205-discovery-cache-data-version.md):
 * one counter, bumped in the writer's transaction by every statement that changes what a discovery
 * answer shows — any write of `jobs`, any insert/delete of `live_events`, and any update of a
 * `live_events` row other than its live counters (candidates_joined, matches_made, job_titles,
 * updated_at: joins and matches move those all the time; they are age-bounded instead). An API
 * process keeps discovery answers while the version it reads is the one they were built under, so
 * a write — made by any process — is seen by the next read that starts after it commits.
 *
 * Statement-level where a statement names its rows in bulk (a seed of 100,000 jobs bumps once).
 * The live_events update trigger is row-level, for its WHEN condition (a new column of
 * live_events bumps the version without touching this trigger). TRUNCATE bumps too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE discovery_version (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      version bigint NOT NULL DEFAULT 1
    );
    INSERT INTO discovery_version DEFAULT VALUES;

    CREATE OR REPLACE FUNCTION jobfair_discovery_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE discovery_version SET version = version + 1 WHERE id;
      RETURN NULL;
    END $$;

    CREATE TRIGGER jobs_discovery_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON jobs
      FOR EACH STATEMENT EXECUTE FUNCTION jobfair_discovery_changed();
    CREATE TRIGGER live_events_discovery_version AFTER INSERT OR DELETE OR TRUNCATE ON live_events
      FOR EACH STATEMENT EXECUTE FUNCTION jobfair_discovery_changed();
    CREATE TRIGGER live_events_discovery_version_update AFTER UPDATE ON live_events
      FOR EACH ROW
      WHEN ((to_jsonb(OLD) - 'candidates_joined' - 'matches_made' - 'job_titles' - 'updated_at')
            IS DISTINCT FROM (to_jsonb(NEW) - 'candidates_joined' - 'matches_made' - 'job_titles' - 'updated_at'))
      EXECUTE FUNCTION jobfair_discovery_changed();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS live_events_discovery_version_update ON live_events;
    DROP TRIGGER IF EXISTS live_events_discovery_version ON live_events;
    DROP TRIGGER IF EXISTS jobs_discovery_version ON jobs;
    DROP FUNCTION IF EXISTS jobfair_discovery_changed();
    DROP TABLE IF EXISTS discovery_version;
  `);
}
