import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { WebhooksRepository, DeliveryKey } from '../../db/webhooks/webhooks-repository';
import type { WebhookDeliveryState } from '../../workflows/webhooks/contract';
import { WEBHOOK_DELIVERY_FINAL_STATES } from '../../workflows/webhooks/contract';

// What the delivery and the subscription activities both write: a delivery's key, its log ids,
// its final states, and its end without a request (cancelling a subscription closes a delivery
// whose workflow is gone the same way the delivery activities close a refused one).

export interface DeliveryKeyInput {
  webhookId: string;
  eventId: string;
  run: number;
}

export const logId = () => `dlv_${randomBytes(16).toString('hex')}`;
export const keyOf = (i: DeliveryKeyInput): DeliveryKey => ({ subscriptionId: i.webhookId, eventId: i.eventId, run: i.run });
export const FINAL: ReadonlySet<WebhookDeliveryState> = new Set(WEBHOOK_DELIVERY_FINAL_STATES);

/** Ends a delivery without a request: one log row (the delivery log shows every outcome) and the final state. */
export const endWithoutRequest = async (repo: WebhooksRepository, trx: Knex, k: DeliveryKeyInput, eventType: string, id: string, state: WebhookDeliveryState, errorKind: string) => {
  await repo.insertAttempt(
    { id, subscription_id: k.webhookId, event_id: k.eventId, run: k.run, event_type: eventType, attempt: null, outcome: 'not_sent', http_status: null, error_kind: errorKind, latency_ms: null, response_snippet: null, attempted_at: new Date() },
    trx,
  );
  await repo.updateDelivery(keyOf(k), { state, last_error_kind: errorKind, next_attempt_at: null, finished_at: new Date() }, trx);
};
