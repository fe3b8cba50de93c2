import { getExternalWorkflowHandle, uuid4 } from '@temporalio/workflow';
import { attemptOutcomeSignal, webhookSubscriptionWorkflowId, type WebhookDeliveryState } from './contract';
import type {
  createWebhookDeliveryActivities,
  AttemptWebhookDeliveryResult,
} from '../../activities/webhooks/delivery-activities';
import type { DeliveryRun } from './webhook-delivery-run';

type DeliveryActivities = ReturnType<typeof createWebhookDeliveryActivities>;
type DeliveryKey = { webhookId: string; eventId: string; run: number };

export const newLogId = () => `dlv_${uuid4().replace(/-/g, '')}`;

/**
 * One attempt (an activity). An attempt that could not run to the end (worker lost, activity
 * timeout) counts as a failed attempt, recorded like any other, and the schedule is kept.
 */
export async function attemptOnce(
  acts: Pick<DeliveryActivities, 'attemptWebhookDelivery' | 'recordWebhookDeliveryEnd'>,
  key: DeliveryKey,
  attempt: number,
  nextDelayMs: number | null,
): Promise<AttemptWebhookDeliveryResult> {
  const deliveryId = newLogId();
  try {
    return await acts.attemptWebhookDelivery({ ...key, attempt, deliveryId, nextDelayMs });
  } catch {
    const s: WebhookDeliveryState = nextDelayMs === null ? 'dead_letter' : 'retrying';
    const atMs = Date.now();
    await acts.recordWebhookDeliveryEnd({
      ...key,
      logId: deliveryId,
      state: s,
      errorKind: 'attempt_failed',
      attempt,
      nextDelayMs,
    });
    return {
      state: s,
      summary: {
        deliveryId,
        attempt,
        ok: false,
        httpStatus: null,
        errorKind: 'attempt_failed',
        latencyMs: null,
        responseSnippet: null,
        attemptedAtMs: atMs,
      },
    };
  }
}

/** Counts the attempt, keeps the first one's outcome for the first-outcome update, and tells the subscription actor. */
export async function reportOutcome(
  run: DeliveryRun,
  attempt: number,
  result: AttemptWebhookDeliveryResult,
): Promise<void> {
  run.attempts = result.summary ? attempt : run.attempts;
  if (attempt === 1) {
    run.first = result.summary;
    run.firstState = result.state;
    run.firstKnown = true;
  }
  if (result.summary) {
    try {
      await getExternalWorkflowHandle(webhookSubscriptionWorkflowId(run.input.webhookId)).signal(attemptOutcomeSignal, {
        deliveryId: result.summary.deliveryId,
        eventId: run.input.eventId,
        ok: result.summary.ok,
        atMs: result.summary.attemptedAtMs,
      });
    } catch {
      // The subscription actor is gone (deleted): nothing left to count.
    }
  }
}

/** What the retry's current details say the attempt got ("HTTP 500", "timeout"). */
export const outcomeInWords = (result: AttemptWebhookDeliveryResult): string =>
  result.summary
    ? result.summary.httpStatus
      ? `HTTP ${result.summary.httpStatus}`
      : (result.summary.errorKind ?? 'a failure')
    : 'a failure';
