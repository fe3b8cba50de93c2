import type { Knex } from 'knex';

/** An e-mail's way through the outbox: `pending` until the sender marks it `sent`, or `failed` after its last try. */
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export interface OutboxRow {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  kind: string;
  status: OutboxStatus;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

/** Data access for `email_outbox` (notifications): anyone inserts rows; the sender (activities/notifications/email-activities.ts) marks them sent or failed. */
export function createOutboxRepository(knex: Knex) {
  return {
    /** Idempotent on `id` (callers pass an id fixed by their workflow so a retried activity inserts once). */
    async enqueue(
      row: { id: string; to_address: string; subject: string; body: string; kind: string },
      trx: Knex = knex,
    ): Promise<void> {
      await trx('email_outbox')
        .insert({ ...row, status: 'pending' })
        .onConflict('id')
        .ignore();
    },
    async findById(id: string, trx: Knex = knex): Promise<OutboxRow | undefined> {
      return trx('email_outbox').where({ id }).first();
    },
    async listPending(limit: number, trx: Knex = knex): Promise<OutboxRow[]> {
      return trx('email_outbox').where({ status: 'pending' }).orderBy('created_at', 'asc').limit(limit);
    },
    async markSent(id: string, trx: Knex = knex): Promise<void> {
      await trx('email_outbox').where({ id }).update({ status: 'sent', sent_at: trx.fn.now(), last_error: null });
    },
    async noteError(id: string, error: string, final: boolean, trx: Knex = knex): Promise<void> {
      await trx('email_outbox')
        .where({ id, status: 'pending' })
        .update({ last_error: error.slice(0, 500), ...(final ? { status: 'failed' } : {}) });
    },
  };
}
export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
