import type { Knex } from 'knex';

import type { QueueEntryStatus } from '#workflows/queue/contract';

export type { QueueEntryStatus };

export interface QueueEntryRow {
  id: string;
  user_id: string;
  status: QueueEntryStatus;
  live_event_id: string | null;
  live_event_slug: string | null;
  agent_identity: string | null;
  via_agent: boolean;
  match_id: string | null;
  job_ids: string[];
  end_reason: string | null;
  entered_at: Date;
  expires_at: Date | null;
  updated_at: Date;
  ended_at: Date | null;
}

export type QueueEntryProjection = Omit<QueueEntryRow, 'updated_at' | 'entered_at' | 'expires_at' | 'ended_at'> & {
  entered_at: string;
  expires_at: string | null;
  ended_at: string | null;
};

/**
 * The 1-based place of the queue entry aliased `e` among the waiting entries of its queue (same
 * event, or "any event"), oldest first; NULL when `e` is not waiting. `positionOf` and the status
 * read (queue-status-repository.ts) both select it.
 */
export const POSITION_OF_E = `CASE WHEN e.status <> 'waiting' THEN NULL
         WHEN e.live_event_id IS NULL THEN (
           SELECT count(*) FROM queue_entries w
            WHERE w.status = 'waiting' AND w.live_event_id IS NULL AND w.entered_at <= e.entered_at)
         ELSE (
           SELECT count(*) FROM queue_entries w
            WHERE w.status = 'waiting' AND w.live_event_id = e.live_event_id AND w.entered_at <= e.entered_at)
    END::int`;

export function createQueueRepository(knex: Knex) {
  return {
    /** The one writer is the queueEntry workflow's projection activity. */
    async upsert(entry: QueueEntryProjection, trx: Knex = knex): Promise<void> {
      await trx('queue_entries')
        .insert({ ...entry, updated_at: trx.fn.now() })
        .onConflict('id')
        .merge();
    },
    async findById(id: string, trx: Knex = knex): Promise<QueueEntryRow | undefined> {
      return trx('queue_entries').where({ id }).first();
    },
    async findLatestForUser(userId: string, trx: Knex = knex): Promise<QueueEntryRow | undefined> {
      return trx('queue_entries').where({ user_id: userId }).orderBy('entered_at', 'desc').first();
    },
    /** An event's waiting entries, oldest first (the console's waiting list: who, since when, through which agent). */
    async listWaitingForEvent(
      eventId: string,
      limit: number,
      trx: Knex = knex,
    ): Promise<Array<Pick<QueueEntryRow, 'user_id' | 'via_agent' | 'agent_identity' | 'entered_at'>>> {
      return trx('queue_entries')
        .where({ live_event_id: eventId, status: 'waiting' })
        .orderBy('entered_at', 'asc')
        .limit(limit)
        .select('user_id', 'via_agent', 'agent_identity', 'entered_at');
    },
    /** 1-based place among waiting entries of the same queue (same event, or "any event"), oldest first. */
    async positionOf(entry: Pick<QueueEntryRow, 'id'>, trx: Knex = knex): Promise<number | null> {
      // One statement, one snapshot: the entry's own status and the count agree, so a waiting
      // entry is always at least 1, and an entry matched meanwhile answers null instead of 0.
      // `=` and `IS NULL` (not `IS NOT DISTINCT FROM`, which no index serves) so each count is
      // an index-only range of queue_entries_waiting_idx (live_event_id, entered_at) WHERE waiting,
      // not a scan of every entry ever made.
      const { rows } = await trx.raw<{ rows: Array<{ position: number | null }> }>(
        `SELECT ${POSITION_OF_E} AS position FROM queue_entries e WHERE e.id = ?`,
        [entry.id],
      );
      return rows[0]?.position ?? null;
    },
  };
}
export type QueueRepository = ReturnType<typeof createQueueRepository>;
