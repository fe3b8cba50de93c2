import type { Knex } from 'knex';

/**
 * The public counters of a LiveEvent (candidates_joined, matches_made, job_titles) as columns of
 * live_events, kept by the writes that change them instead of recomputed by every discovery read
 * (docs/decisions/0185-live-event-stats-columns.md). Statement-level triggers with
 * transition tables run in the writer's transaction — the queue-entry projection, the match
 * projections, the jobs API, seeds and imports alike — once per statement, so a bulk insert of
 * 100,000 jobs refreshes each event's titles once.
 *
 * - candidates_joined: distinct seekers who ever had an entry for the event (an insert adds the
 *   seekers new to the event; a delete recounts);
 * - matches_made: every match of the event;
 * - job_titles: distinct titles of the event's open jobs, most recently created first, at most
 *   JOB_TITLES_PER_EVENT (50) — recomputed for the events a job write touched.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE live_events
      ADD COLUMN candidates_joined integer NOT NULL DEFAULT 0,
      ADD COLUMN matches_made integer NOT NULL DEFAULT 0,
      ADD COLUMN job_titles text[] NOT NULL DEFAULT '{}';

    CREATE OR REPLACE FUNCTION live_event_job_titles(event_id uuid) RETURNS text[] LANGUAGE sql STABLE AS $$
      SELECT coalesce(array_agg(t.title ORDER BY t.latest DESC, t.title), '{}') FROM (
        SELECT j.title, max(j.created_at) AS latest FROM jobs j
         WHERE j.live_event_id = event_id AND j.status = 'open'
         GROUP BY j.title ORDER BY latest DESC, j.title LIMIT 50) t
    $$;

    CREATE OR REPLACE FUNCTION live_event_stats_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE live_events e SET job_titles = live_event_job_titles(e.id)
         WHERE e.id IN (SELECT DISTINCT live_event_id FROM new_rows);
      END IF;
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE live_events e SET job_titles = live_event_job_titles(e.id)
         WHERE e.id IN (SELECT DISTINCT live_event_id FROM old_rows);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER jobs_stats_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION live_event_stats_jobs();
    CREATE TRIGGER jobs_stats_update AFTER UPDATE ON jobs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION live_event_stats_jobs();
    CREATE TRIGGER jobs_stats_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION live_event_stats_jobs();

    CREATE OR REPLACE FUNCTION live_event_stats_queue_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- Seekers new to the event: no other entry of theirs for it (entries never change event or seeker).
      UPDATE live_events e SET candidates_joined = e.candidates_joined + n.k
        FROM (SELECT nr.live_event_id, count(DISTINCT nr.user_id)::int AS k FROM new_rows nr
               WHERE nr.live_event_id IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM queue_entries q
                                  WHERE q.live_event_id = nr.live_event_id AND q.user_id = nr.user_id
                                    AND q.id NOT IN (SELECT id FROM new_rows))
               GROUP BY nr.live_event_id) n
       WHERE e.id = n.live_event_id;
      RETURN NULL;
    END $$;
    CREATE OR REPLACE FUNCTION live_event_stats_queue_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE live_events e SET candidates_joined = (SELECT count(DISTINCT q.user_id) FROM queue_entries q WHERE q.live_event_id = e.id)
       WHERE e.id IN (SELECT DISTINCT live_event_id FROM old_rows);
      RETURN NULL;
    END $$;
    CREATE TRIGGER queue_entries_stats_insert AFTER INSERT ON queue_entries REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION live_event_stats_queue_insert();
    CREATE TRIGGER queue_entries_stats_delete AFTER DELETE ON queue_entries REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION live_event_stats_queue_delete();

    CREATE OR REPLACE FUNCTION live_event_stats_matches() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        UPDATE live_events e SET matches_made = e.matches_made + n.k
          FROM (SELECT live_event_id, count(*)::int AS k FROM new_rows GROUP BY 1) n WHERE e.id = n.live_event_id;
      ELSE
        UPDATE live_events e SET matches_made = (SELECT count(*) FROM matches m WHERE m.live_event_id = e.id)
         WHERE e.id IN (SELECT DISTINCT live_event_id FROM old_rows);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER matches_stats_insert AFTER INSERT ON matches REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION live_event_stats_matches();
    CREATE TRIGGER matches_stats_delete AFTER DELETE ON matches REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION live_event_stats_matches();

    -- Backfill.
    UPDATE live_events e SET
      candidates_joined = (SELECT count(DISTINCT q.user_id) FROM queue_entries q WHERE q.live_event_id = e.id),
      matches_made = (SELECT count(*) FROM matches m WHERE m.live_event_id = e.id),
      job_titles = live_event_job_titles(e.id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS matches_stats_delete ON matches;
    DROP TRIGGER IF EXISTS matches_stats_insert ON matches;
    DROP FUNCTION IF EXISTS live_event_stats_matches();
    DROP TRIGGER IF EXISTS queue_entries_stats_delete ON queue_entries;
    DROP TRIGGER IF EXISTS queue_entries_stats_insert ON queue_entries;
    DROP FUNCTION IF EXISTS live_event_stats_queue_delete();
    DROP FUNCTION IF EXISTS live_event_stats_queue_insert();
    DROP TRIGGER IF EXISTS jobs_stats_delete ON jobs;
    DROP TRIGGER IF EXISTS jobs_stats_update ON jobs;
    DROP TRIGGER IF EXISTS jobs_stats_insert ON jobs;
    DROP FUNCTION IF EXISTS live_event_stats_jobs();
    DROP FUNCTION IF EXISTS live_event_job_titles(uuid);
    ALTER TABLE live_events DROP COLUMN job_titles, DROP COLUMN matches_made, DROP COLUMN candidates_joined;
  `);
}
