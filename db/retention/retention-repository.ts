import type { Knex } from 'knex';
import { WEBHOOK_DELIVERY_FINAL_STATES } from '#workflows/webhooks/contract';

/** How long each kind of row is kept (milliseconds), from the configuration. */
export interface RetentionPolicy {
  idempotencyKeysMs: number;
  webhookDeliveriesMs: number;
  emailOutboxMs: number;
  /** After `expires_at`: OAuth codes and tokens, web sessions, sign-up requests. */
  expiredMarginMs: number;
}

/** The instants before which rows go, computed once per pass on the database's clock. */
export interface RetentionCutoffs {
  idempotencyKeys: Date;
  webhookDeliveries: Date;
  emailOutbox: Date;
  expired: Date;
}

/** A finished delivery is one of these; `pending` and `retrying` are never deleted. */
const FINAL_STATES_SQL = WEBHOOK_DELIVERY_FINAL_STATES.map((s) => `'${s}'`).join(', ');

/**
 * Each target is one predicate over one table; every predicate is served by an index (the
 * migration 20261126200001_retention_indexes and earlier ones; `test/platform/retention.test.ts`
 * checks the plans), so a batch costs its own rows, never a scan of what is kept.
 * `SKIP LOCKED`: a row another transaction holds (an idempotency claim being answered) waits for
 * the next pass instead of blocking the batch.
 */
const PREDICATES = {
  idempotency_keys: 'created_at < :cutoff',
  // A dead letter waits 30 days for its replay (the retention is at least that, checked at start).
  webhook_deliveries: `finished_at IS NOT NULL AND state IN (${FINAL_STATES_SQL}) AND finished_at < :cutoff`,
  // An event is the payload of every run of its deliveries, replays included: it goes after the last of them.
  domain_events:
    'created_at < :cutoff AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = domain_events.id)',
  email_outbox: "status <> 'pending' AND created_at < :cutoff",
  oauth_codes: 'expires_at < :cutoff',
  oauth_tokens: 'expires_at < :cutoff',
  web_sessions: 'expires_at < :cutoff',
  signup_requests: 'expires_at < :cutoff',
} as const;
type SimpleTarget = Exclude<keyof typeof PREDICATES, 'webhook_deliveries'>;

/**
 * Data access of the retention capability: deletes rows past their retention, at most `limit` per
 * statement, each statement its own short transaction. The tables belong to other capabilities;
 * what "past its retention" means for each is decided here, in one place (docs/design/retention.md).
 */
export function createRetentionRepository(knex: Knex) {
  return {
    /** The cutoffs for one pass, on the database's clock (the clock every row's timestamps came from). */
    async cutoffs(policy: RetentionPolicy): Promise<RetentionCutoffs> {
      const { rows } = await knex.raw<{
        rows: Array<{ idem: Date; whk: Date; outbox: Date; expired: Date }>;
      }>(
        `SELECT now() - ? * interval '1 millisecond' AS idem, now() - ? * interval '1 millisecond' AS whk,
                now() - ? * interval '1 millisecond' AS outbox, now() - ? * interval '1 millisecond' AS expired`,
        [policy.idempotencyKeysMs, policy.webhookDeliveriesMs, policy.emailOutboxMs, policy.expiredMarginMs],
      );
      const r = rows[0];
      return { idempotencyKeys: r.idem, webhookDeliveries: r.whk, emailOutbox: r.outbox, expired: r.expired };
    },

    /** Deletes up to `limit` rows of `table` older than `cutoff`; returns how many went. */
    async deleteBatch(table: SimpleTarget, cutoff: Date, limit: number): Promise<number> {
      const r = await knex.raw(
        `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM ${table} WHERE ${PREDICATES[table]} LIMIT :limit FOR UPDATE SKIP LOCKED))`,
        { cutoff, limit },
      );
      return (r as { rowCount: number }).rowCount;
    },

    /**
     * Up to `limit` finished deliveries that finished before `cutoff`, with their attempts, in one
     * statement (the attempts' foreign key would cascade anyway; deleting them here counts them).
     */
    async deleteWebhookDeliveriesBatch(cutoff: Date, limit: number): Promise<{ deliveries: number; attempts: number }> {
      const { rows } = await knex.raw<{ rows: Array<{ deliveries: string; attempts: string }> }>(
        `WITH v AS (
           SELECT subscription_id, event_id, run FROM webhook_deliveries
            WHERE ${PREDICATES.webhook_deliveries} LIMIT :limit FOR UPDATE SKIP LOCKED),
         a AS (
           DELETE FROM webhook_delivery_attempts x USING v
            WHERE x.subscription_id = v.subscription_id AND x.event_id = v.event_id AND x.run = v.run
           RETURNING 1),
         d AS (
           DELETE FROM webhook_deliveries x USING v
            WHERE x.subscription_id = v.subscription_id AND x.event_id = v.event_id AND x.run = v.run
           RETURNING 1)
         SELECT (SELECT count(*) FROM d) AS deliveries, (SELECT count(*) FROM a) AS attempts`,
        { cutoff, limit },
      );
      return { deliveries: Number(rows[0].deliveries), attempts: Number(rows[0].attempts) };
    },

    /** Rows past their retention now, per table, counted up to `cap` each (an operator's look, not a scan). */
    async countPastRetention(cutoffs: RetentionCutoffs, cap: number): Promise<Record<string, number>> {
      const out: Record<string, number> = {};
      for (const [table, predicate] of Object.entries(PREDICATES)) {
        const { rows } = await knex.raw<{ rows: Array<{ n: string }> }>(
          `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${predicate} LIMIT :cap) x`,
          { cutoff: cutoffFor(table as keyof typeof PREDICATES, cutoffs), cap },
        );
        out[table] = Number(rows[0].n);
      }
      return out;
    },

    /** The plan of each target's batch select (for the test that every predicate is index-backed). */
    async explainTargets(cutoffs: RetentionCutoffs, limit: number): Promise<Record<string, string>> {
      const out: Record<string, string> = {};
      for (const [table, predicate] of Object.entries(PREDICATES)) {
        const cutoff = cutoffFor(table as keyof typeof PREDICATES, cutoffs);
        const { rows } = await knex.raw<{ rows: Array<{ 'QUERY PLAN': string }> }>(
          `EXPLAIN SELECT ctid FROM ${table} WHERE ${predicate} LIMIT :limit`,
          { cutoff, limit },
        );
        out[table] = rows.map((r) => r['QUERY PLAN']).join('\n');
      }
      return out;
    },
  };
}
export type RetentionRepository = ReturnType<typeof createRetentionRepository>;

/** Which cutoff applies to a table. */
export function cutoffFor(table: keyof typeof PREDICATES, c: RetentionCutoffs): Date {
  switch (table) {
    case 'idempotency_keys':
      return c.idempotencyKeys;
    case 'webhook_deliveries':
    case 'domain_events':
      return c.webhookDeliveries;
    case 'email_outbox':
      return c.emailOutbox;
    default:
      return c.expired;
  }
}
