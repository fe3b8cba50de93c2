/**
 * Contract of the webhooks capability: workflow ids and the Input/Result types the API and the
 * fan-out use to start and message the webhookSubscription and webhookDelivery workflows.
 * Pure: imported by workflows, activities and the API.
 */
export const webhookSubscriptionWorkflowId = (webhookId: string): string => `webhook-subscription:${webhookId}`;
export const webhookDeliveryWorkflowId = (webhookId: string, eventId: string): string => `webhook-delivery:${webhookId}:${eventId}`;

/** Lifecycle of a subscription (PostgreSQL `webhook_subscriptions.status`; `deleted` rows are hidden from the API). */
export type WebhookSubscriptionStatus = 'active' | 'paused' | 'disabled' | 'deleted';

/** Where one delivery (one event to one subscription, one run) stands. */
export type WebhookDeliveryState = 'pending' | 'retrying' | 'delivered' | 'dead_letter' | 'not_accepted_paused' | 'oversize' | 'cancelled';
export const WEBHOOK_DELIVERY_FINAL_STATES: readonly WebhookDeliveryState[] = ['delivered', 'dead_letter', 'not_accepted_paused', 'oversize', 'cancelled'];

export type WebhookDeliverySource = 'event' | 'test' | 'replay';

export interface WebhookSubscriptionInput {
  webhookId: string;
  ownerUserId: string | null;
  ownerTeamId: string | null;
  /** WEBHOOK_AUTO_PAUSE_FAILURES. */
  autoPauseFailures: number;
  status: Exclude<WebhookSubscriptionStatus, 'deleted'>;
  consecutiveFailures: number;
  pausedAtMs: number | null;
  /** Delivery ids already counted (carried across continue-as-new for deduplication). */
  recentDeliveryIds?: string[];
}

export interface WebhookSubscriptionState {
  webhookId: string;
  status: WebhookSubscriptionStatus;
  consecutiveFailures: number;
  pausedAtMs: number | null;
  autoPauseFailures: number;
}
export type WebhookSubscriptionResult = WebhookSubscriptionState;

/** Signal `attemptOutcome`: one per HTTP attempt, deduplicated by `deliveryId` (one `dlv_` per attempt). */
export interface AttemptOutcomeSignalInput {
  deliveryId: string;
  eventId: string;
  ok: boolean;
  atMs: number;
}

export interface SubscriptionUpdateResult {
  state: WebhookSubscriptionState;
  /** Pending retries ended as cancelled by this call (disable, delete). */
  cancelledDeliveries: number;
}

export interface WebhookDeliveryInput {
  webhookId: string;
  eventId: string;
  eventType: string;
  /** 1 for the original delivery, 2, 3, … for replays (a replay is a new run with the same event id). */
  run: number;
  source: WebhookDeliverySource;
  /** WEBHOOK_RETRY_SCHEDULE_MS: the delays before retries 1..5. */
  retryScheduleMs: number[];
  /** WEBHOOK_TIMEOUT_MS: bounds each attempt's activity. */
  attemptTimeoutMs: number;
  ownerUserId: string | null;
  ownerTeamId: string | null;
}

export interface WebhookDeliveryResult {
  state: WebhookDeliveryState;
  attempts: number;
}

/** What the first attempt did (update `firstOutcome`, used by POST /webhooks/{id}/test). */
export interface FirstOutcomeUpdateResult {
  state: WebhookDeliveryState;
  attempt: AttemptSummary | null;
}

export interface AttemptSummary {
  deliveryId: string;
  attempt: number;
  ok: boolean;
  httpStatus: number | null;
  errorKind: string | null;
  latencyMs: number | null;
  responseSnippet: string | null;
  attemptedAtMs: number;
}

export interface CancelDeliverySignalInput {
  reason: 'disabled' | 'deleted';
}
