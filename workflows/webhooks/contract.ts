import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { detailLines, temporalName, type StartMetadata } from '../shared/contract';
/**
 * Contract of the webhooks capability: the webhookSubscription and webhookDelivery workflows and
 * the event-type vocabulary. Holds every message definition, id helper, type name, Input/Result type and vocabulary of the capability; no I/O (imports only @temporalio/workflow, @temporalio/common and other contracts), so workflows, activities, clients and the API all import it.
 */
export const webhookSubscriptionWorkflowId = (webhookId: string): string => `webhook-subscription:${webhookId}`;
export const webhookDeliveryWorkflowId = (webhookId: string, eventId: string): string =>
  `webhook-delivery:${webhookId}:${eventId}`;
/** One dispatcher per task queue (decision 0195): the first attempt of every emitted event. */
export const webhookDispatcherWorkflowId = (taskQueue: string): string => `webhook-dispatcher:${taskQueue}`;

/** Lifecycle of a subscription (PostgreSQL `webhook_subscriptions.status`; `deleted` rows are hidden from the API). */
export const WEBHOOK_SUBSCRIPTION_STATUSES = ['active', 'paused', 'disabled', 'deleted'] as const;
export type WebhookSubscriptionStatus = (typeof WEBHOOK_SUBSCRIPTION_STATUSES)[number];
/** The statuses the API shows (deleted subscriptions are hidden). */
export const VISIBLE_WEBHOOK_SUBSCRIPTION_STATUSES = [
  'active',
  'paused',
  'disabled',
] as const satisfies readonly WebhookSubscriptionStatus[];

/** Where one delivery (one event to one subscription, one run) stands. */
export const WEBHOOK_DELIVERY_STATES = [
  'pending',
  'retrying',
  'delivered',
  'dead_letter',
  'not_accepted_paused',
  'oversize',
  'cancelled',
] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];
export const WEBHOOK_DELIVERY_FINAL_STATES = [
  'delivered',
  'dead_letter',
  'not_accepted_paused',
  'oversize',
  'cancelled',
] as const satisfies readonly WebhookDeliveryState[];
/** A delivery still under way (its workflow may attempt again). */
export const WEBHOOK_DELIVERY_OPEN_STATES = ['pending', 'retrying'] as const satisfies readonly WebhookDeliveryState[];
/** The outcome of one recorded attempt (`not_sent`: the delivery ended without a request, e.g. oversize or cancelled). */
export const WEBHOOK_ATTEMPT_OUTCOMES = ['success', 'failure', 'not_sent'] as const;
export type WebhookAttemptOutcome = (typeof WEBHOOK_ATTEMPT_OUTCOMES)[number];
/** Why waiting deliveries of a subscription are cancelled. */
export const WEBHOOK_CANCEL_REASONS = ['disabled', 'deleted'] as const satisfies readonly WebhookSubscriptionStatus[];
export type WebhookCancelReason = (typeof WEBHOOK_CANCEL_REASONS)[number];
/** Refusal of the subscription's Updates once it is deleted (the API answers 404). */
export const WEBHOOK_DELETED = 'WEBHOOK_DELETED';

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
  /**
   * Set when the dispatcher made the first attempt(s) and this workflow only retries (decision
   * 0195): it waits `retryScheduleMs[afterAttempt - 1]`, then attempts `afterAttempt + 1`, ….
   */
  resume?: { afterAttempt: number; lastOutcome: string };
  /** Operation tag of the keyed replay that started this run (written on its delivery row; decision 0197). */
  replayOp?: string | null;
  /** The subscription in words for operators (its description and target host), shown in the summary and details. */
  subscriptionLabel?: string;
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

/** A subscription in words: its description (if any) and its target's host — never the full URL (it may carry a token). */
export function webhookSubscriptionLabel(sub: { description?: string | null; target_url: string }): string {
  let host = 'an invalid URL';
  try {
    host = new URL(sub.target_url).host;
  } catch {
    // keep the placeholder
  }
  const d = sub.description?.trim();
  return d ? `"${d.length > 60 ? `${d.slice(0, 57)}…` : d}" (${host})` : host;
}

/** Signal `attemptOutcomes`: the dispatcher's first attempts of one subscription in one batch, in attempt order. */
export interface AttemptOutcomesSignalInput {
  outcomes: AttemptOutcomeSignalInput[];
}

/** A replayed dead letter (update `replay` on a dead letter that waits for it; decision 0196). */
export interface ReplayDeadLetterUpdateInput {
  /** The new run's number (previous + 1). */
  run: number;
  /** Who asked: `api` or `operator` (`npm run ops -- replay`, alias `npm run webhooks:replay`). */
  replayedBy: string;
  replayOp?: string | null;
}
export interface ReplayDeadLetterUpdateResult {
  eventId: string;
  run: number;
}
/** How long a dead letter stays open waiting for its replay (decision 0196); after that PostgreSQL is its record and a replay starts a new run. */
export const DEAD_LETTER_HOLD_MS = 30 * 24 * 60 * 60 * 1000;
/** Refusal of `replay` when this run is not a dead letter waiting for it (the API answers 409). */
export const DELIVERY_NOT_DEAD_LETTER = 'DELIVERY_NOT_DEAD_LETTER';

export interface WebhookDispatcherInput {
  taskQueue: string;
  /** Carried across continue-as-new for the operator's current details. */
  totals?: WebhookDispatchTotals;
}
export interface WebhookDispatchTotals {
  attempted: number;
  delivered: number;
  failed: number;
  notSent: number;
  retriesStarted: number;
}

export interface CancelDeliverySignalInput {
  reason: WebhookCancelReason;
}

// Messages of webhook-delivery.ts (the API and activities send them; the workflow handles them).
/** Sent by the subscription actor when the subscription is disabled or deleted: a waiting retry ends as cancelled. */
export const cancelDeliverySignal = defineSignal<[CancelDeliverySignalInput]>('cancelDelivery');
/** Answers once the first attempt's outcome is known (POST /webhooks/{id}/test uses update-with-start). */
export const firstOutcomeUpdate = defineUpdate<FirstOutcomeUpdateResult, []>('firstOutcome');
/**
 * A dead letter waits for this (decision 0196): it marks the run `dead_letter_replayed` and
 * continues as the new run. Update-with-start (USE_EXISTING) reaches it, or starts the new run
 * when the dead letter has already closed (older runs, or past the hold).
 */
export const replayDeadLetterUpdate = defineUpdate<ReplayDeadLetterUpdateResult, [ReplayDeadLetterUpdateInput]>(
  'replay',
);

// Messages of webhook-subscription.ts (the API and activities send them; the workflow handles them).
/** Each HTTP attempt's outcome, from the delivery workflows; deduplicated by delivery id. */
export const attemptOutcomeSignal = defineSignal<[AttemptOutcomeSignalInput]>('attemptOutcome');
/** The dispatcher's first-attempt outcomes of one batch; each deduplicated by delivery id like `attemptOutcome`. */
export const attemptOutcomesSignal = defineSignal<[AttemptOutcomesSignalInput]>('attemptOutcomes');
/** Re-enable (PATCH status=active): status active, failure counter reset. */
export const resumeSubscriptionUpdate = defineUpdate<SubscriptionUpdateResult, []>('resume');
/** PATCH status=disabled: no new events; waiting retries end as cancelled. */
export const disableSubscriptionUpdate = defineUpdate<SubscriptionUpdateResult, []>('disable');
/** DELETE: like disable, then the actor ends. */
export const deleteSubscriptionUpdate = defineUpdate<SubscriptionUpdateResult, []>('delete');
export const subscriptionStateQuery = defineQuery<WebhookSubscriptionState>('state');

/** Workflow type `webhookSubscriptionWorkflow` (its export in workflows/index.ts): clients start it by this name, never by importing the implementation. */
export const WEBHOOK_SUBSCRIPTION_WORKFLOW = 'webhookSubscriptionWorkflow';
export type WebhookSubscriptionWorkflow = (input: WebhookSubscriptionInput) => Promise<WebhookSubscriptionResult>;
/** What the Temporal UI shows for `webhook-subscription:<whk>`: its owner by name and where it sends (workflows/shared/summary.ts). */
export function webhookSubscriptionStartMetadata(
  row: { id: string; target_url: string; events: readonly string[]; description?: string | null },
  ownerName: string | null,
): StartMetadata {
  const owner = temporalName(ownerName, 'its owner');
  // Host and path only: a query string may carry a receiver's token.
  const url = (() => {
    try {
      const u = new URL(row.target_url);
      return { host: u.host, target: `${u.origin}${u.pathname}` };
    } catch {
      return { host: 'its target', target: 'its target' };
    }
  })();
  const host = url.host;
  return {
    staticSummary: `Webhook subscription of ${owner} → ${host}${row.description ? ` (${temporalName(row.description, '')})` : ''}`,
    staticDetails: detailLines([
      ['Owner', owner],
      ['Target', url.target],
      ['Events', row.events.join(', ')],
      ['Webhook id', row.id],
    ]),
  };
}

/** Workflow type `webhookDeliveryWorkflow` (its export in workflows/index.ts): clients start it by this name, never by importing the implementation. */
export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';
export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<WebhookDeliveryResult>;

/** Workflow type `webhookDispatcherWorkflow`: first attempts of emitted events in batches (decision 0195). */
export const WEBHOOK_DISPATCHER_WORKFLOW = 'webhookDispatcherWorkflow';
export type WebhookDispatcherWorkflow = (input: WebhookDispatcherInput) => Promise<void>;

/**
 * The webhook event types of the service and the `data` shape of each (documented in the README
 * and in the OpenAPI descriptions). A subscription may list only these; anything else → 400.
 */
export const WEBHOOK_EVENT_TYPES = [
  'match.matched',
  'match.accepted',
  'interview.completed',
  'match.no_show',
  'changelog.api',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(s: string): s is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(s);
}

/** One line per type: when it is sent and the fields of `data`. */
export const WEBHOOK_EVENT_DOCS: Record<WebhookEventType, { when: string; data: string }> = {
  'match.matched': {
    when:
      "a match is made: team subscriptions of the job's team (recruiters with a team subscribe " +
      'as the team), user subscriptions of the seeker',
    data: '{ match_id, role_title, seeker_headline }',
  },
  'match.accepted': {
    when: 'both sides of a match accepted it in the web application',
    data:
      '{ match_id, job_id, role_title, live_event_slug, accepted_at, recruiter_auto_accepted, ' +
      'recruiter_user_id (the interviewer: whoever of the team accepted; null if unknown) }',
  },
  'interview.completed': {
    when: 'the interview of an accepted match has ended',
    data:
      "{ match_id, job_id, role_title, live_event_slug, completed_at, ended_by: 'seeker' | " +
      "'recruiter' | 'time_limit', started_at (when both people were first in the interview " +
      'room, which starts the interview clock; the acceptance when they never met there, e.g. a ' +
      'hosted video provider; null if unknown), duration_seconds (from started_at; null if ' +
      "unknown) }; the recruiter's report card is never in it",
  },
  'changelog.api': {
    when: 'an entry is added to the API changelog (sent to every subscription of this type)',
    data: '{ entry_id, date, kind, title, description, changelog_url }',
  },
  'match.no_show': {
    when:
      'an accepted match ended without an interview: the seeker, the recruiter or both did not ' +
      'come to the interview room within MATCH_NO_SHOW_GRACE_MS of acceptance (never also ' +
      'interview.completed)',
    data:
      "{ match_id, job_id, role_title, live_event_slug, accepted_at, no_show_at, missing: 'seeker' | " +
      "'recruiter' | 'both' (who did not come) }",
  },
  'webhook.test': {
    when:
      'POST /webhooks/{id}/test (only to that subscription; always delivered to it, whether or ' +
      'not it lists this type)',
    data: '{ webhook_id, message: "This is a test event from Job Fair.", test: true }',
  },
};

/** The fixed `data.message` of `webhook.test`. */
export const WEBHOOK_TEST_MESSAGE = 'This is a test event from Job Fair.';
