import { continueAsNew, proxyActivities, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import type { WebhookDispatchTotals, WebhookDispatcherInput } from './contract';
import type { createWebhookDispatcherActivities } from '../../activities/webhooks/dispatcher-activities';

const { dispatchWebhookFirstAttempts } = proxyActivities<ReturnType<typeof createWebhookDispatcherActivities>>({
  // One call waits up to DISPATCH_IDLE_WAIT_MS for work and then works through at most
  // DISPATCH_MAX_PER_CALL deliveries; it heartbeats all along, so a lost worker is noticed in 30 s.
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

const DISPATCH_IDLE_WAIT_MS = 30_000;
const DISPATCH_MAX_PER_CALL = 2_000;
/** Calls per run before continue-as-new (each call is ~6 history events). */
const CALLS_PER_RUN = 500;

/**
 * `webhook-dispatcher:<task queue>` (decision 0195): the first attempt of every emitted event.
 * The fan-out records each delivery in PostgreSQL (`first_attempt_due_at`) and makes sure this
 * workflow runs; each activity call claims due deliveries in batches, POSTs them concurrently,
 * records every attempt, signals each subscription actor once per batch with the outcomes, and
 * starts a `webhookDelivery` workflow (with `resume`) only for a delivery whose first attempt
 * failed — retries, dead letter and replay stay one workflow per delivery.
 */
export async function webhookDispatcherWorkflow(input: WebhookDispatcherInput): Promise<void> {
  const totals: WebhookDispatchTotals = {
    attempted: 0,
    delivered: 0,
    failed: 0,
    notSent: 0,
    retriesStarted: 0,
    ...input.totals,
  };
  const utc = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)} UTC`;
  setCurrentDetails(
    `Dispatching first attempts of webhook deliveries for task queue ${input.taskQueue}; ${totals.attempted} attempted so far.`,
  );
  for (let call = 0; call < CALLS_PER_RUN; call++) {
    const r = await dispatchWebhookFirstAttempts({
      maxDeliveries: DISPATCH_MAX_PER_CALL,
      idleWaitMs: DISPATCH_IDLE_WAIT_MS,
    });
    totals.attempted += r.attempted;
    totals.delivered += r.delivered;
    totals.failed += r.failed;
    totals.notSent += r.notSent;
    totals.retriesStarted += r.retriesStarted;
    setCurrentDetails(
      `First attempts of webhook deliveries (task queue ${input.taskQueue}): ${totals.attempted} attempted — ${totals.delivered} delivered, ${totals.failed} failed and handed to a retry workflow, ${totals.notSent} not sent (paused, disabled, oversize). ` +
        `Last call at ${utc(Date.now())}: ${r.attempted} attempted${r.sweptRetries ? `, ${r.sweptRetries} overdue retries restarted` : ''}. Failed deliveries: JobfairEntity="webhook_delivery" AND JobfairStatus="retrying".`,
    );
    if (workflowInfo().continueAsNewSuggested) break;
  }
  await continueAsNew<typeof webhookDispatcherWorkflow>({ ...input, totals });
}
