// The worker's workflowsPath: every workflow of the service, one export per file.
import { queueEntryWorkflow } from './queue/queue-entry';
import { liveEventWorkflow } from './events/live-event';
import { matchWorkflow } from './matches/match';
import { matchmakerWorkflow } from './matchmaking/matchmaker';
import { changelogAnnouncementWorkflow } from './changelog/changelog-announcement';
import { webhookSubscriptionWorkflow } from './webhooks/webhook-subscription';
import { webhookDeliveryWorkflow } from './webhooks/webhook-delivery';
import { webhookDispatcherWorkflow } from './webhooks/webhook-dispatcher';
import { billingAccountWorkflow } from './billing/billing-account';
import { outboxEmailWorkflow } from './notifications/outbox-email';
import { retentionWorkflow } from './retention/retention';
import type { QUEUE_ENTRY_WORKFLOW, QueueEntryWorkflow } from './queue/contract';
import type { LIVE_EVENT_WORKFLOW, LiveEventWorkflow } from './events/contract';
import type { MATCH_WORKFLOW, MatchWorkflow } from './matches/contract';
import type { MATCHMAKER_WORKFLOW, MatchmakerWorkflow } from './matchmaking/contract';
import type { CHANGELOG_ANNOUNCEMENT_WORKFLOW, ChangelogAnnouncementWorkflow } from './changelog/contract';
import type { BILLING_ACCOUNT_WORKFLOW, BillingAccountWorkflow } from './billing/contract';
import type { OUTBOX_EMAIL_WORKFLOW, OutboxEmailWorkflow } from './notifications/contract';
import type { RETENTION_WORKFLOW, RetentionWorkflow } from './retention/contract';
import type {
  WEBHOOK_SUBSCRIPTION_WORKFLOW,
  WebhookSubscriptionWorkflow,
  WEBHOOK_DELIVERY_WORKFLOW,
  WebhookDeliveryWorkflow,
  WEBHOOK_DISPATCHER_WORKFLOW,
  WebhookDispatcherWorkflow,
} from './webhooks/contract';

export {
  queueEntryWorkflow,
  liveEventWorkflow,
  matchWorkflow,
  matchmakerWorkflow,
  changelogAnnouncementWorkflow,
  webhookSubscriptionWorkflow,
  webhookDeliveryWorkflow,
  webhookDispatcherWorkflow,
  billingAccountWorkflow,
  outboxEmailWorkflow,
  retentionWorkflow,
};

/**
 * Clients start workflows by the type name their contract publishes, never by importing the
 * implementation. This fails to compile when an export's name or signature drifts from its
 * contract (types only: nothing of it reaches the bundle).
 */
type Contracts = Record<typeof QUEUE_ENTRY_WORKFLOW, QueueEntryWorkflow> &
  Record<typeof LIVE_EVENT_WORKFLOW, LiveEventWorkflow> &
  Record<typeof MATCH_WORKFLOW, MatchWorkflow> &
  Record<typeof MATCHMAKER_WORKFLOW, MatchmakerWorkflow> &
  Record<typeof CHANGELOG_ANNOUNCEMENT_WORKFLOW, ChangelogAnnouncementWorkflow> &
  Record<typeof WEBHOOK_SUBSCRIPTION_WORKFLOW, WebhookSubscriptionWorkflow> &
  Record<typeof WEBHOOK_DELIVERY_WORKFLOW, WebhookDeliveryWorkflow> &
  Record<typeof BILLING_ACCOUNT_WORKFLOW, BillingAccountWorkflow> &
  Record<typeof OUTBOX_EMAIL_WORKFLOW, OutboxEmailWorkflow> &
  Record<typeof RETENTION_WORKFLOW, RetentionWorkflow>;
type Exports = {
  queueEntryWorkflow: typeof queueEntryWorkflow;
  liveEventWorkflow: typeof liveEventWorkflow;
  matchWorkflow: typeof matchWorkflow;
  matchmakerWorkflow: typeof matchmakerWorkflow;
  changelogAnnouncementWorkflow: typeof changelogAnnouncementWorkflow;
  webhookSubscriptionWorkflow: typeof webhookSubscriptionWorkflow;
  webhookDeliveryWorkflow: typeof webhookDeliveryWorkflow;
  webhookDispatcherWorkflow: typeof webhookDispatcherWorkflow;
  billingAccountWorkflow: typeof billingAccountWorkflow;
  outboxEmailWorkflow: typeof outboxEmailWorkflow;
  retentionWorkflow: typeof retentionWorkflow;
};
type MustMatch<T extends Contracts> = T;
export type WorkflowsMatchTheirContracts = MustMatch<Exports>;
