import type { Knex } from 'knex';
import type {
  WebhookDeliverySource,
  WebhookDeliveryState,
  WebhookSubscriptionStatus,
} from '#workflows/webhooks/contract';
import { WEBHOOK_DELIVERY_OPEN_STATES, type WebhookAttemptOutcome } from '#workflows/webhooks/contract';

export type WebhookOwner = { kind: 'team'; teamId: string } | { kind: 'user'; userId: string };

export interface WebhookSubscriptionRow {
  id: string;
  owner_team_id: string | null;
  owner_user_id: string | null;
  created_by_user_id: string | null;
  target_url: string;
  events: string[];
  description: string | null;
  status: WebhookSubscriptionStatus;
  consecutive_failures: number;
  paused_at: Date | null;
  disabled_at: Date | null;
  deleted_at: Date | null;
  secret_hash: string;
  secret_salt: string;
  previous_secret_salt: string | null;
  previous_secret_expires_at: Date | null;
  secret_rotated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookDeliveryRow {
  subscription_id: string;
  event_id: string;
  run: number;
  event_type: string;
  source: WebhookDeliverySource;
  state: WebhookDeliveryState;
  attempts: number;
  body_bytes: number | null;
  last_http_status: number | null;
  last_error_kind: string | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** Waiting for the dispatcher's first attempt (decision 0195); null once it is recorded. */
  first_attempt_due_at?: Date | null;
  dispatch_lease_until?: Date | null;
  /** Operation tag of the keyed replay that created this run (decision 0197). */
  replay_op?: string | null;
}

/** The columns of a delivery its activities move. */
export type WebhookDeliveryPatch = Partial<
  Pick<
    WebhookDeliveryRow,
    | 'state'
    | 'attempts'
    | 'last_http_status'
    | 'last_error_kind'
    | 'last_attempt_at'
    | 'next_attempt_at'
    | 'finished_at'
    | 'first_attempt_due_at'
    | 'dispatch_lease_until'
    | 'body_bytes'
  >
>;

export interface WebhookAttemptRow {
  id: string;
  subscription_id: string;
  event_id: string;
  run: number;
  event_type: string;
  attempt: number | null;
  outcome: WebhookAttemptOutcome;
  http_status: number | null;
  error_kind: string | null;
  latency_ms: number | null;
  response_snippet: string | null;
  attempted_at: Date;
}

export interface DomainEventRow {
  id: string;
  type: string;
  owner_user_ids: string[];
  owner_team_id: string | null;
  data: Record<string, unknown>;
  created_at: Date;
}

export interface DeliveryKey {
  subscriptionId: string;
  eventId: string;
  run: number;
}

const ownerWhere = (owner: WebhookOwner) =>
  owner.kind === 'team' ? { owner_team_id: owner.teamId } : { owner_user_id: owner.userId };
const keyWhere = (k: DeliveryKey) => ({ subscription_id: k.subscriptionId, event_id: k.eventId, run: k.run });

export function createWebhooksRepository(knex: Knex) {
  return {
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
    ): Promise<void> {
      await trx('domain_events')
        .insert({ ...e, data: JSON.stringify(e.data) })
        .onConflict('id')
        .ignore();
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
    // ---- the dispatcher's queue (decision 0195) ----
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
    async listUnfinishedDeliveries(subscriptionId: string, trx: Knex = knex): Promise<WebhookDeliveryRow[]> {
      return trx('webhook_deliveries')
        .where({ subscription_id: subscriptionId })
        .whereIn('state', WEBHOOK_DELIVERY_OPEN_STATES)
        .select('*');
    },
  };
}
export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
