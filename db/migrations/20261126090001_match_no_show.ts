import type { Knex } from 'knex';

/**
 * No-shows: a match whose interview never happened because someone did not come to the room
 * within MATCH_NO_SHOW_GRACE_MS of acceptance ends as `no_show`. Written by the match workflow's
 * projection, like every lifecycle column of `matches`:
 * - `seeker_in_room_at`, `recruiter_in_room_at`: each party's first arrival in the room;
 * - `arrive_by`: acceptance + the grace time (null: no no-show for this match);
 * - `no_show_at`, `no_show_missing` (`seeker`, `recruiter` or `both`).
 * The status CHECK gains `no_show` (the list is the contract's MATCH_STATUSES at this time).
 *
 * The recruiter's report card is a row of its own (`interview_reports`): saving it announces the
 * match on `jobfair_live` too, so the seeker's open match page shows the next step without a reload.
 */
const STATUSES = ['matched', 'accepted', 'declined', 'expired', 'completed', 'no_show'];
const OLD_STATUSES = ['matched', 'accepted', 'declined', 'expired', 'completed'];
const list = (xs: string[]) => xs.map((x) => `'${x}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  const { rows } = await knex.raw<{ rows: Array<{ conname: string }> }>(
    `SELECT conname FROM pg_constraint
      WHERE conrelid = 'matches'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%status%'`,
  );
  for (const { conname } of rows) await knex.raw(`ALTER TABLE matches DROP CONSTRAINT ??`, [conname]);
  await knex.raw(`ALTER TABLE matches ADD CONSTRAINT matches_status_check CHECK (status IN (${list(STATUSES)}))`);
  await knex.schema.alterTable('matches', (t) => {
    t.timestamp('seeker_in_room_at', { useTz: true });
    t.timestamp('recruiter_in_room_at', { useTz: true });
    t.timestamp('arrive_by', { useTz: true });
    t.timestamp('no_show_at', { useTz: true });
    t.text('no_show_missing').checkIn(['seeker', 'recruiter', 'both'], 'matches_no_show_missing_check');
  });
  await knex.raw(`
    CREATE OR REPLACE FUNCTION jobfair_live_interview_report() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('jobfair_live', json_build_object(
        'kind', 'match', 'id', m.id, 'status', m.status, 'previous_status', m.status,
        'seeker_user_id', m.seeker_user_id, 'team_id', m.team_id)::text)
        FROM matches m WHERE m.id = NEW.match_id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER interview_reports_live AFTER INSERT OR UPDATE ON interview_reports
      FOR EACH ROW EXECUTE FUNCTION jobfair_live_interview_report();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS interview_reports_live ON interview_reports;
    DROP FUNCTION IF EXISTS jobfair_live_interview_report();
  `);
  await knex.schema.alterTable('matches', (t) => {
    t.dropChecks(['matches_no_show_missing_check']);
    t.dropColumn('no_show_missing');
    t.dropColumn('no_show_at');
    t.dropColumn('arrive_by');
    t.dropColumn('recruiter_in_room_at');
    t.dropColumn('seeker_in_room_at');
  });
  await knex.raw(`ALTER TABLE matches DROP CONSTRAINT IF EXISTS matches_status_check`);
  await knex.raw(`ALTER TABLE matches ADD CONSTRAINT matches_status_check CHECK (status IN (${list(OLD_STATUSES)}))`);
}
