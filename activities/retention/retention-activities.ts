import { Context } from '@temporalio/activity';
import type { Config } from '#lib/config';
import { domainMetrics } from '#lib/metrics';
import type { RetentionCutoffs, RetentionRepository } from '#db/retention/retention-repository';
import {
  emptyRetentionTotals,
  type PruneExpiredRowsInput,
  type PruneExpiredRowsResult,
  type RetentionTotals,
} from '#workflows/retention/contract';

type RetentionConfig = Pick<
  Config,
  | 'RETENTION_INTERVAL_MS'
  | 'RETENTION_BATCH_SIZE'
  | 'RETENTION_MAX_BATCHES_PER_CALL'
  | 'IDEMPOTENCY_KEY_RETENTION_MS'
  | 'WEBHOOK_DELIVERY_RETENTION_MS'
  | 'EMAIL_OUTBOX_RETENTION_MS'
  | 'RETENTION_EXPIRED_MARGIN_MS'
>;

/** One step of a pass: deletes one batch of one target; `batch` counts the rows the limit applied to. */
type Step = (cutoffs: RetentionCutoffs, limit: number) => Promise<{ batch: number; counts: Partial<RetentionTotals> }>;

type SimpleTable = Parameters<RetentionRepository['deleteBatch']>[0];

/**
 * The retention workflow's activity (decision 0267): deletes rows past their retention, table by
 * table, one batch per statement (`RETENTION_BATCH_SIZE` rows, its own short transaction),
 * heartbeating after each, until a table has no more or the call has spent its
 * `RETENTION_MAX_BATCHES_PER_CALL` further batches; then it returns (`more`) and the workflow calls again.
 * Running it twice, or two at once, is harmless: a deleted row is gone, a locked one is skipped.
 */
export function createRetentionActivities(deps: {
  retentionRepository: RetentionRepository;
  config: RetentionConfig;
  /** Aborted when the worker begins to shut down: the call returns what it did, the next one goes on. */
  draining?: AbortSignal;
}) {
  const repo = deps.retentionRepository;
  const simple =
    (table: SimpleTable, cutoff: (c: RetentionCutoffs) => Date): Step =>
    async (c, n) => {
      const batch = await repo.deleteBatch(table, cutoff(c), n);
      return { batch, counts: { [table]: batch } };
    };
  // Deliveries before events: an event goes only once no delivery of it is left.
  const steps: Step[] = [
    simple('idempotency_keys', (c) => c.idempotencyKeys),
    async (c, n) => {
      const r = await repo.deleteWebhookDeliveriesBatch(c.webhookDeliveries, n);
      return {
        batch: r.deliveries,
        counts: { webhook_deliveries: r.deliveries, webhook_delivery_attempts: r.attempts },
      };
    },
    simple('domain_events', (c) => c.webhookDeliveries),
    simple('email_outbox', (c) => c.emailOutbox),
    simple('oauth_codes', (c) => c.expired),
    simple('oauth_tokens', (c) => c.expired),
    simple('web_sessions', (c) => c.expired),
    simple('signup_requests', (c) => c.expired),
  ];

  return {
    async pruneExpiredRows(input: PruneExpiredRowsInput = {}): Promise<PruneExpiredRowsResult> {
      const cfg = deps.config;
      const limit = input.batchSize ?? cfg.RETENTION_BATCH_SIZE;
      let budget = input.maxBatches ?? cfg.RETENTION_MAX_BATCHES_PER_CALL;
      const cutoffs = await repo.cutoffs({
        idempotencyKeysMs: cfg.IDEMPOTENCY_KEY_RETENTION_MS,
        webhookDeliveriesMs: cfg.WEBHOOK_DELIVERY_RETENTION_MS,
        emailOutboxMs: cfg.EMAIL_OUTBOX_RETENTION_MS,
        expiredMarginMs: cfg.RETENTION_EXPIRED_MARGIN_MS,
      });
      const deleted = emptyRetentionTotals();
      const ctx = Context.current();
      let more = false;
      // Every table gets one batch per call; the budget is for the batches after a full one, so a
      // backlog in one table never starves the others, and a call is at most tables + budget statements.
      for (const step of steps) {
        for (;;) {
          const { batch, counts } = await step(cutoffs, limit);
          for (const [table, n] of Object.entries(counts) as Array<[keyof RetentionTotals, number]>) {
            deleted[table] += n;
            if (n > 0) domainMetrics.retentionRowsDeleted.inc({ table }, n);
          }
          ctx.heartbeat(deleted);
          // A batch smaller than the limit was the last of this table for this pass.
          if (batch < limit) break;
          if (budget === 0 || deps.draining?.aborted) {
            more = true;
            break;
          }
          budget--;
        }
      }
      if (!more) domainMetrics.retentionLastPass.set(Date.now() / 1000);
      return { deleted, more, nextPassInMs: cfg.RETENTION_INTERVAL_MS };
    },
  };
}
