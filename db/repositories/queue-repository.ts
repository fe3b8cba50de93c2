import type { Knex } from 'knex';

export type QueueEntryStatus = 'waiting' | 'matched' | 'left' | 'expired';

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
    /** 1-based place among waiting entries of the same queue (same event, or "any event"), oldest first. */
    async positionOf(entry: Pick<QueueEntryRow, 'id' | 'live_event_id' | 'entered_at'>, trx: Knex = knex): Promise<number> {
      const q = trx('queue_entries').where({ status: 'waiting' }).andWhere('entered_at', '<=', entry.entered_at);
      if (entry.live_event_id) q.andWhere({ live_event_id: entry.live_event_id });
      else q.whereNull('live_event_id');
      const [{ count }] = await q.count<{ count: string }[]>({ count: '*' });
      return Number(count);
    },
  };
}
export type QueueRepository = ReturnType<typeof createQueueRepository>;
