import type { Knex } from 'knex';
import { DECLINE_REASON_CODES } from '#workflows/matches/contract';

/**
 * `matches.decline_reason_code` takes `left_queue`: the seeker declined because they left the
 * queue (`POST /queue/leave` while matched, or a decline with `leave_queue`). The CHECK takes its
 * list from the contract's vocabulary, as when it was made (20261122120001).
 */
const list = (codes: readonly string[]) => codes.map((c) => `'${c}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE matches DROP CONSTRAINT IF EXISTS matches_decline_reason_code_check');
  await knex.raw(
    `ALTER TABLE matches ADD CONSTRAINT matches_decline_reason_code_check CHECK ` +
      `(decline_reason_code IS NULL OR decline_reason_code IN (${list(DECLINE_REASON_CODES)}))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  const before = DECLINE_REASON_CODES.filter((c) => c !== 'left_queue');
  await knex('matches').where({ decline_reason_code: 'left_queue' }).update({ decline_reason_code: 'other' });
  await knex.raw('ALTER TABLE matches DROP CONSTRAINT IF EXISTS matches_decline_reason_code_check');
  await knex.raw(
    `ALTER TABLE matches ADD CONSTRAINT matches_decline_reason_code_check CHECK ` +
      `(decline_reason_code IS NULL OR decline_reason_code IN (${list(before)}))`,
  );
}
