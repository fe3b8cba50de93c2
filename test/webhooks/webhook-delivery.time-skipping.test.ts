import { randomUUID } from 'node:crypto';
import { loadConfig } from '#lib/config';
import {
  DEAD_LETTER_HOLD_MS,
  WEBHOOK_DELIVERY_WORKFLOW,
  WEBHOOK_SUBSCRIPTION_WORKFLOW,
  subscriptionStateQuery,
  webhookDeliveryWorkflowId,
  webhookSubscriptionWorkflowId,
  type WebhookDeliveryInput,
  type WebhookDeliveryWorkflow,
  type WebhookSubscriptionWorkflow,
} from '#workflows/webhooks/contract';
import type {
  AttemptWebhookDeliveryInput,
  createWebhookDeliveryActivities,
} from '#activities/webhooks/delivery-activities';
import type {
  createWebhookSubscriptionActivities,
  ProjectWebhookSubscriptionInput,
} from '#activities/webhooks/subscription-activities';
import type { createEmailActivities } from '#activities/notifications/email-activities';
import { createTimeSkipping, timerDurations, until, type TimeSkipping } from '../helpers/time-skipping';

/** Production durations: the config defaults, exactly as a deployment without overrides runs them. */
const { WEBHOOK_RETRY_SCHEDULE_MS, WEBHOOK_TIMEOUT_MS, WEBHOOK_AUTO_PAUSE_FAILURES } = loadConfig({});
const TOTAL_MS = WEBHOOK_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
/** Workflow time may run on by this much while a workflow task or activity is in flight (a loaded machine). */
const SLACK_MS = 10_000;

type Stubs = ReturnType<typeof createWebhookDeliveryActivities> &
  ReturnType<typeof createWebhookSubscriptionActivities> &
  Pick<ReturnType<typeof createEmailActivities>, 'sendOutboxEmail'>;

/** A receiver that always fails: every attempt answers 500. Each attempt is recorded with the server's (skipped) time. */
function stubs(ts: TimeSkipping) {
  const attempts: Array<AttemptWebhookDeliveryInput & { atMs: number }> = [];
  const recordedEnds: unknown[] = [];
  const subscriptionProjections: ProjectWebhookSubscriptionInput[] = [];
  const activities: Stubs = {
    async beginWebhookDelivery() {
      return { state: 'pending' };
    },
    async attemptWebhookDelivery(input) {
      const atMs = await ts.now();
      attempts.push({ ...input, atMs });
      return {
        state: input.nextDelayMs === null ? 'dead_letter' : 'retrying',
        summary: {
          deliveryId: input.deliveryId,
          attempt: input.attempt,
          ok: false,
          httpStatus: 500,
          errorKind: 'http_error',
          latencyMs: 3,
          responseSnippet: 'receiver exploded',
          attemptedAtMs: atMs,
        },
      };
    },
    async recordWebhookDeliveryEnd(input) {
      recordedEnds.push(input);
    },
    async projectWebhookSubscription(input) {
      subscriptionProjections.push(structuredClone(input));
    },
    async notifyWebhookPaused() {
      return { queued: true };
    },
    async cancelPendingWebhookDeliveries() {
      return { cancelled: 0 };
    },
    async sendOutboxEmail() {
      return { status: 'sent' };
    },
  };
  return { activities, attempts, recordedEnds, subscriptionProjections };
}

describe('webhookDelivery on the time-skipping server (production retry schedule, stubbed activities)', () => {
  let ts: TimeSkipping;
  beforeAll(async () => {
    ts = await createTimeSkipping();
  }, 300_000);
  afterAll(async () => ts?.teardown());

  it(
    `a delivery that always fails retries after ${WEBHOOK_RETRY_SCHEDULE_MS.join(', ')} ms, ` +
      `then dead-letters; the subscription counts every failure`,
    async () => {
      const { activities, attempts, recordedEnds, subscriptionProjections } = stubs(ts);
      await ts.withWorker(activities, async (taskQueue) => {
        const webhookId = `whk_${randomUUID().replace(/-/g, '')}`;
        const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
        const ownerUserId = randomUUID();
        const subscription = await ts.env.client.workflow.start<WebhookSubscriptionWorkflow>(
          WEBHOOK_SUBSCRIPTION_WORKFLOW,
          {
            taskQueue,
            workflowId: webhookSubscriptionWorkflowId(webhookId),
            args: [
              {
                webhookId,
                ownerUserId,
                ownerTeamId: null,
                autoPauseFailures: WEBHOOK_AUTO_PAUSE_FAILURES,
                status: 'active',
                consecutiveFailures: 0,
                pausedAtMs: null,
              },
            ],
          },
        );
        const input: WebhookDeliveryInput = {
          webhookId,
          eventId,
          eventType: 'match.matched',
          run: 1,
          source: 'event',
          retryScheduleMs: WEBHOOK_RETRY_SCHEDULE_MS,
          attemptTimeoutMs: WEBHOOK_TIMEOUT_MS,
          ownerUserId,
          ownerTeamId: null,
        };
        const delivery = await ts.env.client.workflow.start<WebhookDeliveryWorkflow>(WEBHOOK_DELIVERY_WORKFLOW, {
          taskQueue,
          workflowId: webhookDeliveryWorkflowId(webhookId, eventId),
          args: [input],
        });

        // The first attempt runs at once; a second before the first delay has passed would be too early.
        await until(() => attempts.length === 1, 'the first attempt');
        await ts.env.sleep(WEBHOOK_RETRY_SCHEDULE_MS[0] - 1_000);
        expect(attempts).toHaveLength(1);

        // Then through the whole schedule and a minute more, in one skip: the server fires each retry
        // timer in turn and holds its clock while an attempt or a workflow task is in flight. (Not by
        // awaiting the result through the time-skipping client: between the delivery's end and the
        // client locking the clock again, the server would skip on to the next timer it knows, the
        // subscription's default 10-year execution timeout.)
        // The dead letter then waits for its replay (decision 0196) for DEAD_LETTER_HOLD_MS: skip that too.
        await ts.env.sleep(TOTAL_MS - (WEBHOOK_RETRY_SCHEDULE_MS[0] - 1_000) + 60_000 + DEAD_LETTER_HOLD_MS);
        const result = await ts.client.workflow.getHandle<WebhookDeliveryWorkflow>(delivery.workflowId).result();
        expect(result).toEqual({ state: 'dead_letter', attempts: WEBHOOK_RETRY_SCHEDULE_MS.length + 1 });
        expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
        expect(attempts.map((a) => a.nextDelayMs)).toEqual([...WEBHOOK_RETRY_SCHEDULE_MS, null]);
        expect(new Set(attempts.map((a) => a.deliveryId)).size).toBe(6);
        // The durable timers between attempts are exactly the schedule, in order…
        expect(timerDurations(await delivery.fetchHistory())).toEqual([
          ...WEBHOOK_RETRY_SCHEDULE_MS,
          DEAD_LETTER_HOLD_MS,
        ]);
        // …and each attempt ran one delay after the one before, in workflow time (never earlier).
        const gaps = attempts.slice(1).map((a, i) => a.atMs - attempts[i].atMs);
        gaps.forEach((gap, i) => {
          expect(gap).toBeGreaterThanOrEqual(WEBHOOK_RETRY_SCHEDULE_MS[i]);
          expect(gap).toBeLessThan(WEBHOOK_RETRY_SCHEDULE_MS[i] + SLACK_MS);
        });
        expect(attempts[5].atMs - attempts[0].atMs).toBeGreaterThanOrEqual(TOTAL_MS);
        // Every attempt's outcome was a value: nothing had to be recorded by the workflow itself.
        expect(recordedEnds).toEqual([]);

        // The subscription actor counted six consecutive failures (below the auto-pause threshold).
        await until(
          async () => (await subscription.query(subscriptionStateQuery)).consecutiveFailures === 6,
          'the subscription counts six failures',
        );
        expect(await subscription.query(subscriptionStateQuery)).toMatchObject({
          status: 'active',
          consecutiveFailures: 6,
        });
        await until(() => subscriptionProjections.at(-1)?.consecutiveFailures === 6, 'the failure count is projected');
        await subscription.terminate('test over');
      });
    },
  );
});
