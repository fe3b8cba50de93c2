import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import {
  attemptOutcomeSignal,
  attemptOutcomesSignal,
  type AttemptOutcomesSignalInput,
  resumeSubscriptionUpdate,
  disableSubscriptionUpdate,
  deleteSubscriptionUpdate,
  subscriptionStateQuery,
  type AttemptOutcomeSignalInput,
  type SubscriptionUpdateResult,
  type WebhookSubscriptionInput,
  type WebhookSubscriptionResult,
  type WebhookSubscriptionState,
  type WebhookSubscriptionStatus,
  WEBHOOK_DELETED,
  type WebhookCancelReason,
} from './contract';
import type { createWebhookSubscriptionActivities } from '../../activities/webhooks/subscription-activities';
import type { createEmailActivities } from '../../activities/notifications/email-activities';
import { JobfairEntity, JobfairStatus, JobfairTeamId, JobfairUserId, JobfairWebhookId } from '../shared/contract';
import { createProjection } from '../shared/projection';

const { projectWebhookSubscription, notifyWebhookPaused, cancelPendingWebhookDeliveries } = proxyActivities<
  ReturnType<typeof createWebhookSubscriptionActivities>
>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 ms', maximumInterval: '30 seconds' },
});
const { sendOutboxEmail } = proxyActivities<ReturnType<typeof createEmailActivities>>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

/** How many recent delivery ids are remembered for deduplication (signals arrive within seconds of each other). */
const DEDUP_WINDOW = 2000;

/**
 * The subscription actor `webhook-subscription:<whk>`: owns the consecutive-failure counter and the
 * pause. Failures are counted across all events and reset by any success; at the threshold the
 * subscription is paused (PostgreSQL status, search attribute, an e-mail to the owner through
 * the outbox). PATCH re-enables (update `resume`) or disables; DELETE ends it.
 */
export async function webhookSubscriptionWorkflow(input: WebhookSubscriptionInput): Promise<WebhookSubscriptionResult> {
  const state: WebhookSubscriptionState = {
    webhookId: input.webhookId,
    status: input.status,
    consecutiveFailures: input.consecutiveFailures,
    pausedAtMs: input.pausedAtMs,
    autoPauseFailures: input.autoPauseFailures,
  };
  const recent: string[] = [...(input.recentDeliveryIds ?? [])].slice(-DEDUP_WINDOW);
  const seen = new Set(recent);
  const projection = createProjection(() => {
    const status: WebhookSubscriptionStatus = state.status;
    upsertSearchAttributes([
      { key: JobfairEntity, value: 'webhook_subscription' },
      { key: JobfairStatus, value: status },
      { key: JobfairWebhookId, value: state.webhookId },
      ...(input.ownerTeamId ? [{ key: JobfairTeamId, value: input.ownerTeamId }] : []),
      ...(input.ownerUserId ? [{ key: JobfairUserId, value: input.ownerUserId }] : []),
    ]);
    return projectWebhookSubscription({
      webhookId: state.webhookId,
      status,
      consecutiveFailures: state.consecutiveFailures,
      pausedAtMs: state.pausedAtMs,
    });
  });
  const cancels: Cancels = { request: null, done: -1, last: 0 };
  const notifications: Array<{ consecutiveFailures: number }> = [];
  const inFlight: Array<Promise<void>> = [];

  setHandler(subscriptionStateQuery, () => ({ ...state }));
  const count = (o: AttemptOutcomeSignalInput) => {
    if (seen.has(o.deliveryId)) return;
    seen.add(o.deliveryId);
    recent.push(o.deliveryId);
    if (recent.length > DEDUP_WINDOW) seen.delete(recent.shift()!);
    // Only an active subscription counts: attempts that finish after a pause or disable change nothing.
    if (state.status !== 'active') return;
    if (o.ok) {
      if (state.consecutiveFailures !== 0) {
        state.consecutiveFailures = 0;
        projection.changed();
      }
      return;
    }
    state.consecutiveFailures++;
    if (state.consecutiveFailures >= state.autoPauseFailures) {
      state.status = 'paused';
      state.pausedAtMs = Date.now();
      notifications.push({ consecutiveFailures: state.consecutiveFailures });
    }
    projection.changed();
  };
  setHandler(attemptOutcomeSignal, count);
  // The dispatcher's first attempts of one batch, in attempt order (decision 0195).
  setHandler(attemptOutcomesSignal, ({ outcomes }: AttemptOutcomesSignalInput) => {
    for (const o of outcomes) count(o);
  });

  registerLifecycleUpdates(state, projection, cancels);

  await projection.project();
  for (;;) {
    await condition(
      () =>
        projection.pending() ||
        cancels.request !== null ||
        notifications.length > 0 ||
        workflowInfo().continueAsNewSuggested,
    );
    if (projection.pending()) await projection.project();
    while (notifications.length > 0) {
      const n = notifications.shift()!;
      // The outbox row id comes from the workflow, so a retried activity inserts it once.
      const outboxId = uuid4();
      await notifyWebhookPaused({ webhookId: state.webhookId, outboxId, consecutiveFailures: n.consecutiveFailures });
      // Sending runs beside the actor's loop: a slow or absent SMTP server never holds up the counter.
      inFlight.push(
        sendOutboxEmail({ outboxId, maxAttempts: 5 }).then(
          () => undefined,
          () => undefined,
        ),
      );
    }
    if (cancels.request) {
      const req: CancelRequest = cancels.request;
      cancels.request = null;
      const { cancelled } = await cancelPendingWebhookDeliveries({ webhookId: state.webhookId, reason: req.reason });
      cancels.last = cancelled;
      cancels.done = req.version;
    }
    if (state.status === 'deleted' && !projection.pending() && cancels.request === null) {
      await condition(allHandlersFinished);
      await Promise.all(inFlight);
      return { ...state };
    }
    if (
      workflowInfo().continueAsNewSuggested &&
      !projection.pending() &&
      cancels.request === null &&
      notifications.length === 0
    ) {
      await condition(allHandlersFinished);
      await Promise.all(inFlight);
      if (projection.pending()) continue;
      await continueAsNew<typeof webhookSubscriptionWorkflow>({
        ...input,
        status: state.status === 'deleted' ? 'disabled' : state.status,
        consecutiveFailures: state.consecutiveFailures,
        pausedAtMs: state.pausedAtMs,
        autoPauseFailures: state.autoPauseFailures,
        recentDeliveryIds: recent.slice(-DEDUP_WINDOW),
      });
    }
  }
}

type CancelRequest = { reason: WebhookCancelReason; version: number };
/** The cancellation of waiting deliveries an update asked for, and how far the loop got with it. */
interface Cancels {
  request: CancelRequest | null;
  /** The projection version whose cancellation is done. */
  done: number;
  /** How many deliveries the last cancellation ended. */
  last: number;
}

/**
 * PATCH status (the `resume` and `disable` updates) and DELETE (`delete`): each changes the state,
 * asks the loop to project it (and to cancel waiting deliveries), and answers once that is done.
 * A deleted subscription refuses them all.
 */
function registerLifecycleUpdates(
  state: WebhookSubscriptionState,
  projection: ReturnType<typeof createProjection>,
  cancels: Cancels,
): void {
  const refuseIfDeleted = () => {
    if (state.status === 'deleted')
      throw ApplicationFailure.nonRetryable(`webhook ${state.webhookId} has been deleted`, WEBHOOK_DELETED);
  };
  const settle = async (withCancel: boolean): Promise<SubscriptionUpdateResult> => {
    const target = projection.version;
    await condition(() => projection.isProjected(target) && (!withCancel || cancels.done >= target));
    return { state: { ...state }, cancelledDeliveries: withCancel ? cancels.last : 0 };
  };
  setHandler(
    resumeSubscriptionUpdate,
    async () => {
      state.status = 'active';
      state.consecutiveFailures = 0;
      state.pausedAtMs = null;
      projection.changed();
      return settle(false);
    },
    { validator: refuseIfDeleted },
  );
  setHandler(
    disableSubscriptionUpdate,
    async () => {
      if (state.status !== 'disabled') {
        state.status = 'disabled';
        state.pausedAtMs = null;
      }
      projection.changed();
      cancels.request = { reason: 'disabled', version: projection.version };
      return settle(true);
    },
    { validator: refuseIfDeleted },
  );
  setHandler(
    deleteSubscriptionUpdate,
    async () => {
      state.status = 'deleted';
      projection.changed();
      cancels.request = { reason: 'deleted', version: projection.version };
      return settle(true);
    },
    { validator: refuseIfDeleted },
  );
}
