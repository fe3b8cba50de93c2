import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import type { Config } from '#lib/config';
import type { OutboundHttpClient } from '#lib/outbound-http/http-client';
import type { DeliveryKey, WebhookDeliveryRow, WebhooksRepository } from '#db/webhooks/webhooks-repository';
import type { AttemptOutcomeSignalInput } from '#workflows/webhooks/contract';
import type { DispatchWake } from './dispatch-wake';

// What the dispatcher's parts share: its deps, a claimed batch's outcomes, the first attempt's id.

export interface WebhookDispatcherDeps {
  knex: Knex;
  webhooksRepository: WebhooksRepository;
  httpClient: OutboundHttpClient;
  appSecret: string;
  client: Client;
  config: Config;
  dispatchWake: DispatchWake;
  draining?: AbortSignal;
}

/** POSTs (and retry starts) in flight at once. */
export const CONCURRENCY = 32;

/**
 * The first attempt's `dlv_` id is derived from the delivery, so an attempt repeated after a crash
 * (lease ran out before the batch was finished) is one log row and one count in the actor.
 */
export const firstAttemptId = (d: { subscription_id: string; event_id: string; run: number }) =>
  `dlv_${createHash('sha256').update(`first:${d.subscription_id}:${d.event_id}:${d.run}`).digest('hex').slice(0, 32)}`;

export const deliveryKeyOf = (r: WebhookDeliveryRow): DeliveryKey => ({
  subscriptionId: r.subscription_id,
  eventId: r.event_id,
  run: r.run,
});

/** What one claimed delivery's first attempt came to. */
export interface Outcome {
  row: WebhookDeliveryRow;
  kind: 'delivered' | 'failed' | 'not_sent';
  signal: AttemptOutcomeSignalInput | null;
  /** For a failed attempt: what the retry workflow shows ("HTTP 500", "timeout"). */
  lastOutcome?: string;
}
