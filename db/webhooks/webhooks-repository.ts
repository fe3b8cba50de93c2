import type { Knex } from 'knex';
import type { WebhookDeliveryState, WebhookSubscriptionStatus } from '#workflows/webhooks/contract';
import { WEBHOOK_DELIVERY_OPEN_STATES } from '#workflows/webhooks/contract';
import {
  keyWhere,
  ownerWhere,
  type DeliveryKey,
  type DomainEventRow,
  type WebhookAttemptRow,
  type WebhookDeliveryPatch,
  type WebhookDeliveryRow,
  type WebhookOwner,
  type WebhookSubscriptionRow,
} from './webhook-rows';
import { dispatchQueueQueries } from './dispatch-queue-queries';

export { attemptSummaryOf } from './webhook-rows';
export type {
  DeliveryKey,
  DomainEventRow,
  WebhookAttemptRow,
  WebhookDeliveryPatch,
  WebhookDeliveryRow,
  WebhookOwner,
  WebhookSubscriptionRow,
} from './webhook-rows';

export function createWebhooksRepository(knex: Knex) {
  return {
    ...dispatchQueueQueries(knex),
    // ---- subscriptions: settings (API) ----
    async insertSubscription(
      row: Pick<
        WebhookSubscriptionRow,
        | 'id'
        | 'owner_team_id'
        | 'owner_user_id'
        | 'created_by_user_id'
        | 'target_url'
        | 'events'
        | 'description'
        | 'secret_hash'
        | 'secret_salt'
      >,
      trx: Knex = knex,
    ): Promise<WebhookSubscriptionRow> {
      const [inserted] = await trx('webhook_subscriptions')
        .insert({ ...row, status: 'active' })
        .returning('*');
      return inserted;
    },
    async findSubscriptionById(id: string, trx: Knex = knex): Promise<WebhookSubscriptionRow | undefined> {
      return trx('webhook_subscriptions').where({ id }).first();
    },
    /** A subscription of this owner that is not deleted (anything else reads as not found). */
    async findSubscriptionForOwner(
      id: string,
      owner: WebhookOwner,
      trx: Knex = knex,
    ): Promise<WebhookSubscriptionRow | undefined> {
      return trx('webhook_subscriptions')
        .where({ id, ...ownerWhere(owner) })
        .whereNot({ status: 'deleted' })
        .first();
    },
    /** Query for the paginator (newest first is applied by it). */
    listForOwnerQuery(owner: WebhookOwner, trx: Knex = knex): Knex.QueryBuilder {
      return trx('webhook_subscriptions')
        .select('webhook_subscriptions.*')
        .where(ownerWhere(owner))
        .whereNot({ status: 'deleted' });
    },
    async updateSettings(
      id: string,
      patch: Partial<Pick<WebhookSubscriptionRow, 'target_url' | 'events' | 'description'>>,
      trx: Knex = knex,
    ): Promise<void> {
      if (Object.keys(patch).length === 0) return;
      await trx('webhook_subscriptions')
        .where({ id })
        .update({ ...patch, updated_at: trx.fn.now() });
    },
    async rotateSecret(
      id: string,
      next: {
        secret_hash: string;
        secret_salt: string;
        previous_secret_salt: string;
        previous_secret_expires_at: Date;
      },
      trx: Knex = knex,
    ): Promise<void> {
      await trx('webhook_subscriptions')
        .where({ id })
        .update({ ...next, secret_rotated_at: trx.fn.now(), updated_at: trx.fn.now() });
    },

    // ---- subscriptions: lifecycle (the webhookSubscription workflow's activity only) ----
    async projectLifecycle(
      id: string,
      p: { status: WebhookSubscriptionStatus; consecutive_failures: number; paused_at: Date | null },
      trx: Knex = knex,
    ): Promise<void> {
      await trx('webhook_subscriptions')
        .where({ id })
        .update({
          status: p.status,
          consecutive_failures: p.consecutive_failures,
          paused_at: p.paused_at,
          disabled_at: p.status === 'disabled' ? trx.raw('coalesce(disabled_at, now())') : null,
          deleted_at: p.status === 'deleted' ? trx.raw('coalesce(deleted_at, now())') : null,
          updated_at: trx.fn.now(),
        });
    },

    // ---- fan-out ----
    /** Active and paused subscriptions that should hear about this event (paused ones record it as not accepted). */
    async findSubscriptionsForEvent(
      e: { type: string; ownerTeamId: string | null; ownerUserIds: string[] },
      trx: Knex = knex,
    ): Promise<WebhookSubscriptionRow[]> {
      const q = trx('webhook_subscriptions')
        .whereIn('status', ['active', 'paused'])
        .whereRaw('events @> ?::text[]', [[e.type]]);
      const broadcast = e.ownerTeamId === null && e.ownerUserIds.length === 0;
      if (!broadcast) {
        q.andWhere((w) => {
          if (e.ownerTeamId) w.orWhere({ owner_team_id: e.ownerTeamId });
          if (e.ownerUserIds.length > 0) w.orWhereIn('owner_user_id', e.ownerUserIds);
        });
      }
      return q.select('*');
    },
    async subscriptionsWithDelivery(
      eventId: string,
      subscriptionIds: string[],
      trx: Knex = knex,
    ): Promise<Set<string>> {
      if (subscriptionIds.length === 0) return new Set();
      const rows = await trx('webhook_deliveries')
        .where({ event_id: eventId })
        .whereIn('subscription_id', subscriptionIds)
        .distinct('subscription_id');
      return new Set(rows.map((r: { subscription_id: string }) => r.subscription_id));
    },

    // ---- events ----
    async findEvent(id: string, trx: Knex = knex): Promise<DomainEventRow | undefined> {
      return trx('domain_events').where({ id }).first();
    },
    /** Records the event once; false when its id was already recorded. */
    async insertEvent(
      e: {
        id: string;
        type: string;
        owner_user_ids: string[];
        owner_team_id: string | null;
        data: Record<string, unknown>;
        created_at: Date;
      },
      trx: Knex = knex,
    ): Promise<boolean> {
      const inserted = await trx('domain_events')
        .insert({ ...e, data: JSON.stringify(e.data) })
        .onConflict('id')
        .ignore()
        .returning('id');
      return inserted.length === 1;
    },

    // ---- deliveries (the webhookDelivery workflow's activities only) ----
    /** Inserts the delivery once (a retried activity finds the existing row) and returns it. */
    async insertDelivery(
      row: Pick<
        WebhookDeliveryRow,
        'subscription_id' | 'event_id' | 'run' | 'event_type' | 'source' | 'state' | 'body_bytes'
      > & { finished_at?: Date | null; replay_op?: string | null },
      trx: Knex = knex,
    ): Promise<{ row: WebhookDeliveryRow; inserted: boolean }> {
      const inserted = await trx('webhook_deliveries')
        .insert(row)
        .onConflict(['subscription_id', 'event_id', 'run'])
        .ignore()
        .returning('*');
      if (inserted.length === 1) return { row: inserted[0], inserted: true };
      const existing = await trx('webhook_deliveries')
        .where({ subscription_id: row.subscription_id, event_id: row.event_id, run: row.run })
        .first();
      return { row: existing, inserted: false };
    },
    async findDelivery(k: DeliveryKey, trx: Knex = knex): Promise<WebhookDeliveryRow | undefined> {
      return trx('webhook_deliveries').where(keyWhere(k)).first();
    },
    /** The delivery under its row lock (`FOR UPDATE`, inside the caller's transaction): what an attempt decides on. */
    async lockDelivery(k: DeliveryKey, trx: Knex): Promise<WebhookDeliveryRow | undefined> {
      return trx('webhook_deliveries').where(keyWhere(k)).forUpdate().first();
    },
    /** The attempt of this run a receiver answered with a 2xx, if any (there is at most one that counts). */
    async successfulAttempt(k: DeliveryKey, trx: Knex = knex): Promise<WebhookAttemptRow | undefined> {
      return trx('webhook_delivery_attempts')
        .where({ ...keyWhere(k), outcome: 'success' })
        .orderBy([{ column: 'attempted_at' }, { column: 'id' }])
        .first();
    },
    async updateDelivery(k: DeliveryKey, patch: WebhookDeliveryPatch, trx: Knex = knex): Promise<void> {
      await trx('webhook_deliveries')
        .where(keyWhere(k))
        .update({ ...patch, updated_at: trx.fn.now() });
    },
    /** Like `updateDelivery`, but a delivery already recorded as delivered is left as it is (its 2xx is never undone). */
    async updateDeliveryUnlessDelivered(
      k: DeliveryKey,
      patch: WebhookDeliveryPatch,
      trx: Knex = knex,
    ): Promise<boolean> {
      const n = await trx('webhook_deliveries')
        .where(keyWhere(k))
        .whereNot({ state: 'delivered' })
        .update({ ...patch, updated_at: trx.fn.now() });
      return n > 0;
    },
    async insertAttempt(row: WebhookAttemptRow, trx: Knex = knex): Promise<boolean> {
      const r = await trx('webhook_delivery_attempts').insert(row).onConflict('id').ignore().returning('id');
      return r.length === 1;
    },
    /** The first attempt of one run of a delivery (an answer rebuilt for a keyed retry). */
    async firstAttempt(
      subscriptionId: string,
      eventId: string,
      run: number,
      trx: Knex = knex,
    ): Promise<WebhookAttemptRow | undefined> {
      return trx('webhook_delivery_attempts')
        .where({ subscription_id: subscriptionId, event_id: eventId, run })
        .orderBy([{ column: 'attempted_at' }, { column: 'id' }])
        .first();
    },
    async findAttempt(
      subscriptionId: string,
      deliveryId: string,
      trx: Knex = knex,
    ): Promise<WebhookAttemptRow | undefined> {
      return trx('webhook_delivery_attempts').where({ subscription_id: subscriptionId, id: deliveryId }).first();
    },
    /** The delivery log: most recent attempts first, each with its delivery's current state. */
    async listRecentAttempts(
      subscriptionId: string,
      limit: number,
      trx: Knex = knex,
    ): Promise<Array<WebhookAttemptRow & { state: WebhookDeliveryState }>> {
      return trx('webhook_delivery_attempts as a')
        .join('webhook_deliveries as d', (j) =>
          j.on('d.subscription_id', 'a.subscription_id').andOn('d.event_id', 'a.event_id').andOn('d.run', 'a.run'),
        )
        .where('a.subscription_id', subscriptionId)
        .orderBy([
          { column: 'a.attempted_at', order: 'desc' },
          { column: 'a.id', order: 'desc' },
        ])
        .limit(limit)
        .select('a.*', 'd.state');
    },
    async latestRun(
      subscriptionId: string,
      eventId: string,
      trx: Knex = knex,
    ): Promise<WebhookDeliveryRow | undefined> {
      return trx('webhook_deliveries')
        .where({ subscription_id: subscriptionId, event_id: eventId })
        .orderBy('run', 'desc')
        .first();
    },
    /** Events whose latest run is a dead letter that ended at or after `since`, oldest first. */
    async listDeadLettersSince(
      subscriptionId: string,
      since: Date,
      limit: number,
      trx: Knex = knex,
    ): Promise<WebhookDeliveryRow[]> {
      const latest = trx('webhook_deliveries')
        .distinctOn('event_id')
        .where({ subscription_id: subscriptionId })
        .orderBy([{ column: 'event_id' }, { column: 'run', order: 'desc' }])
        .select('*');
      return trx
        .from(latest.as('l'))
        .where('l.state', 'dead_letter')
        .andWhere('l.finished_at', '>=', since)
        .orderBy('l.finished_at', 'asc')
        .limit(limit)
        .select('l.*');
    },
    async findSubscriptionsByIds(ids: string[], trx: Knex = knex): Promise<WebhookSubscriptionRow[]> {
      return ids.length === 0 ? [] : trx('webhook_subscriptions').whereIn('id', ids).select('*');
    },
    async findEventsByIds(ids: string[], trx: Knex = knex): Promise<DomainEventRow[]> {
      return ids.length === 0 ? [] : trx('domain_events').whereIn('id', ids).select('*');
    },
    /** Runs a keyed replay created (decision 0197), oldest first. */
    async deliveriesByReplayOp(
      subscriptionId: string,
      replayOp: string,
      trx: Knex = knex,
    ): Promise<WebhookDeliveryRow[]> {
      return trx('webhook_deliveries')
        .where({ subscription_id: subscriptionId, replay_op: replayOp })
        .orderBy('created_at')
        .select('*');
    },
    /** Who hears that a team's subscription was paused when its creator is gone: the team's owners. */
    async teamOwnerEmails(teamId: string, trx: Knex = knex): Promise<string[]> {
      const owners = await trx('team_members as m')
        .join('users as u', 'u.id', 'm.user_id')
        .where({ 'm.team_id': teamId, 'm.role': 'owner' })
        .select('u.email');
      return owners.map((o: { email: string }) => o.email);
    },
    async listUnfinishedDeliveries(subscriptionId: string, trx: Knex = knex): Promise<WebhookDeliveryRow[]> {
      return trx('webhook_deliveries')
        .where({ subscription_id: subscriptionId })
        .whereIn('state', WEBHOOK_DELIVERY_OPEN_STATES)
        .select('*');
    },
  };
}
export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
