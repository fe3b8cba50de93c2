import type { Knex } from 'knex';
import { keyWhere, type DeliveryKey, type WebhookDeliveryPatch, type WebhookDeliveryRow } from './webhook-rows';

const keyTuple = (k: DeliveryKey) => [k.subscriptionId, k.eventId, k.run];

/**
 * The dispatcher's queue of first attempts (decision 0195): deliveries waiting in
 * `webhook_deliveries` with `first_attempt_due_at` set, claimed in batches under a lease. Part of
 * the webhooks repository.
 */
export function dispatchQueueQueries(knex: Knex) {
  return {
    /** The fan-out: run 1 of each delivery, waiting for the dispatcher's first attempt; an existing row (a duplicate emit) is left alone. */
    async queueFirstAttempts(
      rows: Array<Pick<WebhookDeliveryRow, 'subscription_id' | 'event_id' | 'event_type'>>,
      trx: Knex = knex,
    ): Promise<number> {
      if (rows.length === 0) return 0;
      const now = new Date();
      const inserted = await trx('webhook_deliveries')
        .insert(rows.map((r) => ({ ...r, run: 1, source: 'event', state: 'pending', first_attempt_due_at: now })))
        .onConflict(['subscription_id', 'event_id', 'run'])
        .ignore()
        .returning('event_id');
      return inserted.length;
    },
    /** Claims up to `limit` due first attempts (oldest first) for `leaseMs`; rows another dispatcher holds are skipped. */
    async claimFirstAttempts(limit: number, leaseMs: number, trx: Knex = knex): Promise<WebhookDeliveryRow[]> {
      const r = await trx.raw(
        `UPDATE webhook_deliveries d SET dispatch_lease_until = now() + (? * interval '1 millisecond')
           FROM (SELECT subscription_id, event_id, run FROM webhook_deliveries
                  WHERE first_attempt_due_at IS NOT NULL AND first_attempt_due_at <= now() AND (dispatch_lease_until IS NULL OR dispatch_lease_until < now())
                  ORDER BY first_attempt_due_at LIMIT ? FOR UPDATE SKIP LOCKED) c
          WHERE d.subscription_id = c.subscription_id AND d.event_id = c.event_id AND d.run = c.run
        RETURNING d.*`,
        [leaseMs, limit],
      );
      return r.rows as WebhookDeliveryRow[];
    },
    /** Emitted events whose retry is overdue by more than `overdueMs` (their retry workflow may never have started). */
    async overdueEventRetries(overdueMs: number, limit: number, trx: Knex = knex): Promise<WebhookDeliveryRow[]> {
      return trx('webhook_deliveries')
        .where({ state: 'retrying', source: 'event' })
        .andWhere('next_attempt_at', '<', new Date(Date.now() - overdueMs))
        .orderBy('next_attempt_at')
        .limit(limit)
        .select('*');
    },
    /**
     * Records the dispatcher's first attempt on its delivery: only a row still waiting for it moves
     * (a disable or delete may have cancelled it meanwhile).
     */
    async recordFirstAttemptIfPending(k: DeliveryKey, patch: WebhookDeliveryPatch, trx: Knex = knex): Promise<void> {
      await trx('webhook_deliveries')
        .where({ ...keyWhere(k), state: 'pending' })
        .update({ ...patch, updated_at: trx.fn.now() });
    },
    /** Takes a finished batch out of the queue: one statement for the batch. */
    async dequeueFirstAttempts(keys: DeliveryKey[], trx: Knex = knex): Promise<void> {
      await trx('webhook_deliveries')
        .whereIn(['subscription_id', 'event_id', 'run'], keys.map(keyTuple))
        .update({ first_attempt_due_at: null, dispatch_lease_until: null });
    },
    /** Hands the lease of still-queued rows back, so the next claim takes them again (oldest first). */
    async releaseFirstAttemptLeases(keys: DeliveryKey[], trx: Knex = knex): Promise<void> {
      await trx('webhook_deliveries')
        .whereIn(['subscription_id', 'event_id', 'run'], keys.map(keyTuple))
        .whereNotNull('first_attempt_due_at')
        .update({ dispatch_lease_until: null });
    },
  };
}
