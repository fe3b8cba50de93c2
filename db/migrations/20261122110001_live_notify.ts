import type { Knex } from 'knex';

/**
 * Live updates for open pages (docs/decisions/0110-live-updates.md): every write of a match or
 * queue-entry projection announces itself on the PostgreSQL channel `jobfair_live`, in the
 * writer's transaction (delivered only if it commits). The API LISTENs once per process and
 * forwards to the server-sent-event streams of the people concerned. The payload names who is
 * concerned and nothing private: ids, status, the seeker and the team.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION jobfair_live_match() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('jobfair_live', json_build_object(
        'kind', 'match', 'id', NEW.id, 'status', NEW.status,
        'seeker_user_id', NEW.seeker_user_id, 'team_id', NEW.team_id,
        'previous_status', CASE WHEN TG_OP = 'UPDATE' THEN OLD.status END)::text);
      RETURN NULL;
    END $$;
    CREATE TRIGGER matches_live AFTER INSERT OR UPDATE ON matches FOR EACH ROW EXECUTE FUNCTION jobfair_live_match();

    CREATE OR REPLACE FUNCTION jobfair_live_queue_entry() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('jobfair_live', json_build_object(
        'kind', 'queue_entry', 'id', NEW.id, 'status', NEW.status,
        'seeker_user_id', NEW.user_id, 'live_event_id', NEW.live_event_id)::text);
      RETURN NULL;
    END $$;
    CREATE TRIGGER queue_entries_live AFTER INSERT OR UPDATE ON queue_entries FOR EACH ROW EXECUTE FUNCTION jobfair_live_queue_entry();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS queue_entries_live ON queue_entries;
    DROP FUNCTION IF EXISTS jobfair_live_queue_entry();
    DROP TRIGGER IF EXISTS matches_live ON matches;
    DROP FUNCTION IF EXISTS jobfair_live_match();
  `);
}
