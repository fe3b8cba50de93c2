import { randomBytes } from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { attemptSummaryOf, type WebhookOwner } from '#db/webhooks/webhooks-repository';
import { operationHex, type OperationKey } from '#lib/operation-ids';
import { checkWebhookEventData } from '#domain/webhooks/event-catalogue';
import {
  WEBHOOK_DELIVERY_WORKFLOW,
  WEBHOOK_TEST_MESSAGE,
  firstOutcomeUpdate,
  webhookSubscriptionLabel,
  type FirstOutcomeUpdateResult,
  type WebhookDeliveryWorkflow,
} from '#workflows/webhooks/contract';
import { deliveryInput, deliveryStartOptions } from '#workflows/webhooks/client';
import type { WebhooksServiceDeps } from './deps';
import { loadSubscription } from './subscription-checks';

const newEventId = () => `evt_${randomBytes(12).toString('hex')}`;

export function testDelivery(deps: WebhooksServiceDeps) {
  const repo = deps.repos.webhooks;
  return {
    /**
     * Sends a `webhook.test` event through the normal delivery path (a real delivery workflow,
     * retries included) and answers with the first attempt's outcome.
     */
    async sendTest(
      owner: WebhookOwner,
      id: string,
      op: OperationKey | null = null,
    ): Promise<{ eventId: string; data: Record<string, unknown>; outcome: FirstOutcomeUpdateResult }> {
      const row = await loadSubscription(deps, owner, id);
      // Keyed: the event id derives from the key, so a retry after a crash joins the same delivery.
      const eventId = op ? `evt_${operationHex(op, `webhook-test:${row.id}`)}` : newEventId();
      const data = checkWebhookEventData('webhook.test', {
        webhook_id: row.id,
        message: WEBHOOK_TEST_MESSAGE,
        test: true,
      });
      if (op) {
        // A retry after a crash whose delivery already had its first attempt: answer from the log
        // (the workflow may have finished; starting it again would send a second test event).
        const [delivery, first] = await Promise.all([
          repo.latestRun(row.id, eventId),
          repo.firstAttempt(row.id, eventId, 1),
        ]);
        if (delivery && first)
          return { eventId, data, outcome: { state: delivery.state, attempt: attemptSummaryOf(first, 1) } };
      }
      await repo.insertEvent({
        id: eventId,
        type: 'webhook.test',
        owner_user_ids: row.owner_user_id ? [row.owner_user_id] : [],
        owner_team_id: row.owner_team_id,
        data,
        created_at: new Date(),
      });
      const input = deliveryInput(deps.config, {
        webhookId: row.id,
        eventId,
        eventType: 'webhook.test',
        run: 1,
        source: 'test',
        ownerTeamId: row.owner_team_id,
        ownerUserId: row.owner_user_id,
        subscriptionLabel: webhookSubscriptionLabel(row),
      });
      const startOptions = {
        ...deliveryStartOptions(deps.config, input, 'event'),
        workflowIdConflictPolicy: op ? ('USE_EXISTING' as const) : ('FAIL' as const),
      };
      const update = deps.temporal.workflow.executeUpdateWithStart(firstOutcomeUpdate, {
        startWorkflowOperation: new WithStartWorkflowOperation<WebhookDeliveryWorkflow>(
          WEBHOOK_DELIVERY_WORKFLOW,
          startOptions,
        ),
      });
      return { eventId, data, outcome: await firstOutcomeOrPending(deps, update, startOptions.workflowId) };
    },
  };
}

/**
 * The answer waits for the first attempt only so long (decision 0202): a worker that is catching up
 * (restart, outage) must not hold the request and its Idempotency-Key. Once the delivery is durably
 * started, `pending` is a true answer; the attempt shows in the log.
 */
async function firstOutcomeOrPending(
  deps: WebhooksServiceDeps,
  update: Promise<FirstOutcomeUpdateResult>,
  workflowId: string,
): Promise<FirstOutcomeUpdateResult> {
  let timer: NodeJS.Timeout | undefined;
  const waited = await Promise.race([
    update.then((outcome) => ({ outcome })),
    new Promise<null>((r) => (timer = setTimeout(() => r(null), deps.config.WEBHOOK_TEST_WAIT_MS))),
  ]).finally(() => clearTimeout(timer));
  if (waited) return waited.outcome;
  update.catch(() => undefined); // still waiting on the first attempt; its answer is no longer needed
  const started = await deps.temporal.workflow
    .getHandle(workflowId)
    .describe()
    .then(
      () => true,
      () => false,
    );
  // Not started yet (Temporal slow to take the start): wait for the update as before.
  if (!started) return update;
  return { state: 'pending', attempt: null };
}
