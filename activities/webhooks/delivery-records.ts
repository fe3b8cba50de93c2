import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { WebhooksRepository, DeliveryKey } from '#db/webhooks/webhooks-repository';
import type { WebhookDeliveryState } from '#workflows/webhooks/contract';
import { WEBHOOK_DELIVERY_FINAL_STATES } from '#workflows/webhooks/contract';
import { domainMetrics } from '#lib/metrics';

// What the delivery and the subscription activities both write: a delivery's key, its log ids,
// its final states, and its end without a request (cancelling a subscription closes a delivery
// whose workflow is gone the same way the delivery activities close a refused one).

export interface DeliveryKeyInput {
  webhookId: string;
  eventId: string;
  run: number;
}

export const logId = () => `dlv_${randomBytes(16).toString('hex')}`;
export const keyOf = (i: DeliveryKeyInput): DeliveryKey => ({
  subscriptionId: i.webhookId,
  eventId: i.eventId,
  run: i.run,
});
export const FINAL: ReadonlySet<WebhookDeliveryState> = new Set(WEBHOOK_DELIVERY_FINAL_STATES);

/** Ends a delivery without a request: one log row (the delivery log shows every outcome) and the final state. */
export const endWithoutRequest = async (
  repo: WebhooksRepository,
  trx: Knex,
  k: DeliveryKeyInput,
  eventType: string,
  id: string,
  state: WebhookDeliveryState,
  errorKind: string,
) => {
  await repo.insertAttempt(
    {
      id,
      subscription_id: k.webhookId,
      event_id: k.eventId,
      run: k.run,
      event_type: eventType,
      attempt: null,
      outcome: 'not_sent',
      http_status: null,
      error_kind: errorKind,
      latency_ms: null,
      response_snippet: null,
      attempted_at: new Date(),
    },
    trx,
  );
  await repo.updateDelivery(
    keyOf(k),
    { state, last_error_kind: errorKind, next_attempt_at: null, finished_at: new Date() },
    trx,
  );
  // Counted in the transaction: a rolled-back end (rare; its retry ends it again) counts twice.
  domainMetrics.webhookDeliveries.inc({ outcome: state, attempt: 'none' });
};

/** How long a sent attempt's record is retried in place (decision 0227). */
export const RECORD_AFTER_SEND_MS = 20_000;

/**
 * Records what a sent request got back. The receiver has already answered, so a record lost to a
 * passing database failure (PostgreSQL restarting, a dropped connection) would make the retry send
 * the event again: the write is retried in place, with backoff, until it lands or `untilMs` passes
 * (decision 0227). A write that committed although its caller saw an error is detected by
 * `recorded` and not repeated. Only past `untilMs` does the error reach Temporal's retry, which
 * sends again: at-least-once, as documented.
 */
export async function recordAfterSend(
  write: () => Promise<void>,
  opts: { recorded: () => Promise<boolean>; untilMs: number; heartbeat?: () => void },
): Promise<void> {
  for (let delayMs = 100; ; delayMs = Math.min(delayMs * 2, 2_000)) {
    try {
      await write();
      return;
    } catch (err) {
      if (await opts.recorded().catch(() => false)) return;
      if (Date.now() + delayMs >= opts.untilMs) throw err;
      opts.heartbeat?.();
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
