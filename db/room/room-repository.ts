import type { Knex } from 'knex';
import type { MatchPartyRole } from '#workflows/matches/contract';

/** What the other party's presence row says at a join: in the room, dropped and within its grace, or not there. */
export type OtherPresence = 'present' | 'away' | 'absent';

const otherOf = (r: MatchPartyRole): MatchPartyRole => (r === 'seeker' ? 'recruiter' : 'seeker');

/**
 * The interview room's shared state between API replicas (decision 0254): who is in which room
 * (`room_presence`, one row per party, refreshed by the replica holding the socket), the signalling
 * messages too large for a NOTIFY (`room_signal_messages`), and the NOTIFY channel itself.
 */
export function createRoomRepository(knex: Knex) {
  const party = (matchId: string, role: MatchPartyRole, connId: string) =>
    knex('room_presence').where({ match_id: matchId, role, conn_id: connId });

  return {
    /**
     * Records the party's connection under the room's advisory lock and reads the other party's
     * row (a row not refreshed within `staleMs` is a replica that died), so of two joins on two
     * replicas exactly one sees both present. `notice` goes out on `channel` at commit.
     */
    recordJoin(p: {
      matchId: string;
      role: MatchPartyRole;
      connId: string;
      replicaId: string;
      staleMs: number;
      channel: string;
      notice: (seq: number) => string;
    }): Promise<{ other: OtherPresence; seq: number }> {
      return knex.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`room:${p.matchId}`]);
        const { rows } = await trx.raw<{ rows: Array<{ joined_seq: string }> }>(
          `INSERT INTO room_presence (match_id, role, conn_id, replica_id, joined_seq)
           VALUES (?, ?, ?, ?, nextval('room_presence_seq'))
           ON CONFLICT (match_id, role) DO UPDATE
             SET conn_id = EXCLUDED.conn_id, replica_id = EXCLUDED.replica_id, joined_seq = EXCLUDED.joined_seq,
                 away_since = NULL, seen_at = now()
           RETURNING joined_seq`,
          [p.matchId, p.role, p.connId, p.replicaId],
        );
        const seq = Number(rows[0].joined_seq);
        const row = await trx('room_presence')
          .where({ match_id: p.matchId, role: otherOf(p.role) })
          .whereRaw(`seen_at > now() - make_interval(secs => ?)`, [p.staleMs / 1000])
          .first<{ away_since: Date | null } | undefined>('away_since');
        await trx.raw('SELECT pg_notify(?, ?)', [p.channel, p.notice(seq)]);
        return { other: !row ? 'absent' : row.away_since ? 'away' : 'present', seq };
      });
    },

    /** The party's socket dropped: away from now. 0 when a newer connection replaced this one. */
    markAway: (matchId: string, role: MatchPartyRole, connId: string): Promise<number> =>
      party(matchId, role, connId).update({ away_since: knex.fn.now() }),

    /** The party left (`onlyIfAway`: only if still away, its grace over). 0 when replaced or back. */
    deleteParty: (matchId: string, role: MatchPartyRole, connId: string, onlyIfAway = false): Promise<number> => {
      const q = party(matchId, role, connId);
      return (onlyIfAway ? q.whereNotNull('away_since') : q).delete();
    },

    /** The interview ended: nobody is in the room any more. */
    deleteRoom: (matchId: string): Promise<number> => knex('room_presence').where({ match_id: matchId }).delete(),

    /** The replica's heartbeat: its parties' rows are fresh. */
    touchReplica: (replicaId: string): Promise<number> =>
      knex('room_presence').where({ replica_id: replicaId }).update({ seen_at: knex.fn.now() }),

    /** Large messages nobody took within `ttlMs` (their addressee gone). */
    deleteExpiredMessages: (ttlMs: number): Promise<number> =>
      knex('room_signal_messages')
        .whereRaw(`created_at < now() - make_interval(secs => ?)`, [ttlMs / 1000])
        .delete(),

    /** NOTIFY `payload` on `channel` (under 8000 bytes: PostgreSQL refuses more). */
    async notify(channel: string, payload: string): Promise<void> {
      await knex.raw('SELECT pg_notify(?, ?)', [channel, payload]);
    },

    /**
     * A message too large for a NOTIFY: stored, and the NOTIFY carries its row id
     * (`{ k: 'ref', m, to, id }`) for the replica holding the addressee's socket.
     */
    async notifyStored(channel: string, p: { matchId: string; to: MatchPartyRole; body: string }): Promise<void> {
      await knex.raw(
        `WITH row AS (INSERT INTO room_signal_messages (body) VALUES (?) RETURNING id)
         SELECT pg_notify(?, json_build_object('k', 'ref', 'm', ?::text, 'to', ?::text, 'id', row.id::text)::text) FROM row`,
        [p.body, channel, p.matchId, p.to],
      );
    },

    /** Takes a stored message (read once: the row goes). */
    async takeMessage(id: string): Promise<string | undefined> {
      const { rows } = await knex.raw<{ rows: Array<{ body: string }> }>(
        'DELETE FROM room_signal_messages WHERE id = ? RETURNING body',
        [id],
      );
      return rows[0]?.body;
    },
  };
}
export type RoomRepository = ReturnType<typeof createRoomRepository>;
