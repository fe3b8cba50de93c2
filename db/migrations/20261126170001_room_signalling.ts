import type { Knex } from 'knex';

/**
 * The built-in room's signalling shared between API replicas (decision 0254). Both tables are
 * UNLOGGED: what they hold lives for seconds to minutes and is worthless after a crash.
 * - `room_presence`: who is in which room, on which replica's socket; `away_since` while a dropped
 *   socket is within its reconnection grace. Replicas refresh `seen_at` of their own rows; a row
 *   not refreshed for a while is a replica that died and is ignored.
 * - `room_signal_messages`: a signalling message too large for a NOTIFY payload (an SDP offer can
 *   exceed its 8000 bytes); the NOTIFY carries its id and the replica holding the addressee's
 *   socket takes (deletes) it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE UNLOGGED TABLE room_presence (
      match_id uuid NOT NULL,
      role text NOT NULL CHECK (role IN ('seeker', 'recruiter')),
      conn_id uuid NOT NULL,
      replica_id uuid NOT NULL,
      joined_seq bigint NOT NULL,
      away_since timestamptz,
      seen_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (match_id, role)
    )`);
  // Joins of one room are serialised (an advisory lock), so this orders them: a replica closes its
  // socket of a party only for a later join of that party, however late the NOTIFY arrives.
  await knex.raw('CREATE SEQUENCE room_presence_seq');
  await knex.raw('CREATE INDEX room_presence_replica ON room_presence (replica_id)');
  await knex.raw(`
    CREATE UNLOGGED TABLE room_signal_messages (
      id bigserial PRIMARY KEY,
      body text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS room_signal_messages');
  await knex.raw('DROP TABLE IF EXISTS room_presence');
  await knex.raw('DROP SEQUENCE IF EXISTS room_presence_seq');
}
