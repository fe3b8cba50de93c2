import { randomBytes } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { startWorker, type StartedWorker } from '#apps/worker/src/worker';
import { testEnv } from '../helpers/env';
import { startReceiver, type Receiver } from './helpers';
import { emitterFor } from './emit';
import { appSecret } from '#lib/config';
import { createWebhooksRepository } from '#db/webhooks/webhooks-repository';
import { createOutboundHttpClient as createWebhookHttpClient } from '#lib/outbound-http/http-client';
import {
  createWebhookDeliveryActivities,
  type AttemptWebhookDeliveryResult,
} from '#activities/webhooks/delivery-activities';
import { webhookDeliveryWorkflowId, type WebhookDeliveryResult } from '#workflows/webhooks/contract';

/**
 * A retry whose 2xx was recorded but whose completion never reached the delivery workflow (seen
 * with Temporal's own database killed: the attempt activity timed out in the workflow's eyes, the
 * workflow recorded it as failed and sent the next retry). Reproduced without killing anything:
 * with no worker running, the lost attempt is made by the real attempt activity and the workflow's
 * view of it (a failed attempt) by the real record activity, as the workflow's catch would; then a
 * worker runs the workflow's own next attempt. The receiver must hear the event answered 2xx once.
 */
describe('a delivery already recorded as delivered is not sent again', () => {
  let h: Harness;
  let rx: Receiver;
  let workers: StartedWorker[] = [];
  const start = async () => {
    const env = testEnv();
    const w = await startWorker({
      config: h.config,
      knex: h.knex,
      address: env.temporalAddress,
      workflowBundle: { codePath: env.workflowBundle },
      shutdownGraceTime: '2 seconds',
    });
    workers.push(w);
    return w;
  };
  const stop = async (w: StartedWorker) => {
    await w.shutdown();
    workers = workers.filter((x) => x !== w);
  };

  beforeAll(async () => {
    // The first request of each event fails (the dispatcher's first attempt); every later one is answered 200.
    rx = await startReceiver((r) => (rx.forEvent(r.json.id).length <= 1 ? { status: 500 } : { status: 200 }));
    // Retry 1 waits 5 s: long enough to stop the worker while it waits (nothing runs the workflow then).
    h = await createHarness({ worker: false, env: { WEBHOOK_RETRY_SCHEDULE_MS: '5000,100,100,100,100' } });
  });
  afterAll(async () => {
    for (const w of workers) await w.shutdown();
    workers = [];
    await h?.close();
    await rx?.close();
  });

  const activities = () =>
    createWebhookDeliveryActivities({
      knex: h.knex,
      webhooksRepository: createWebhooksRepository(h.knex),
      httpClient: createWebhookHttpClient({
        policy: { allowLoopback: true },
        timeoutMs: h.config.WEBHOOK_TIMEOUT_MS,
      }),
      appSecret: appSecret(h.config),
    });
  const activityEnv = () =>
    new MockActivityEnvironment({
      startToCloseTimeoutMs: h.config.WEBHOOK_TIMEOUT_MS + 15_000,
      currentAttemptScheduledTimestampMs: Date.now(),
    });

  /** An event whose first attempt failed and whose retry workflow waits for retry 1, with no worker running. */
  const waitingRetry = async (path: string) => {
    const w = await start();
    const s = await h.seeker();
    const hook = (
      await h.call({
        method: 'POST',
        url: '/api/v1/webhooks',
        token: s.token,
        payload: { target_url: rx.url(path), events: ['interview.completed'] },
      })
    ).json();
    const e = await emitterFor(h, w)({ type: 'interview.completed', ownerUserIds: [s.user.id] });
    const handle = h.temporal.workflow.getHandle(webhookDeliveryWorkflowId(hook.id, e.id));
    await eventually(
      async () => (await handle.fetchHistory()).events!.some((ev) => ev.timerStartedEventAttributes),
      30_000,
      100,
    );
    await stop(w);
    // Only the dispatcher's failed first attempt has been sent; the workflow's retry 1 has not run.
    expect(rx.forEvent(e.id)).toHaveLength(1);
    const key = { webhookId: hook.id as string, eventId: e.id, run: 1 };
    return { key, handle, eventId: e.id };
  };

  /** Retry 1 made and answered 200, recorded as delivered — but its completion never reached the workflow. */
  const lostRetry = async (key: { webhookId: string; eventId: string; run: number }) => {
    const deliveryId = `dlv_${randomBytes(16).toString('hex')}`;
    const a = activities();
    const attempt: AttemptWebhookDeliveryResult = await activityEnv().run(a.attemptWebhookDelivery, {
      ...key,
      attempt: 2,
      deliveryId,
      nextDelayMs: 100,
    });
    expect(attempt.state).toBe('delivered');
    return { deliveryId, a };
  };

  const expectDeliveredOnce = async (
    key: { webhookId: string; eventId: string },
    handle: { result: () => Promise<unknown> },
  ) => {
    await start();
    const result = (await handle.result()) as WebhookDeliveryResult;
    expect(result.state).toBe('delivered');
    // The failed first attempt and the one retry answered 200: nothing after the recorded 2xx.
    expect(rx.forEvent(key.eventId)).toHaveLength(2);
    const row = await h
      .knex('webhook_deliveries')
      .where({ subscription_id: key.webhookId, event_id: key.eventId })
      .first();
    expect(row.state).toBe('delivered');
    const successes = await h
      .knex('webhook_delivery_attempts')
      .where({ subscription_id: key.webhookId, event_id: key.eventId, outcome: 'success' });
    expect(successes).toHaveLength(1);
  };

  it('the workflow records the lost attempt as failed, then its next attempt finds the 2xx and ends delivered', async () => {
    const { key, handle } = await waitingRetry('/lost-completion');
    const { deliveryId, a } = await lostRetry(key);
    // What the workflow's catch records for an attempt activity that timed out.
    await activityEnv().run(a.recordWebhookDeliveryEnd, {
      ...key,
      logId: deliveryId,
      state: 'retrying' as const,
      errorKind: 'attempt_failed',
      attempt: 2,
      nextDelayMs: 100,
    });
    await expectDeliveredOnce(key, handle);
  }, 120_000);

  it('a row moved back to retrying after its 2xx (a record by an older worker) is not sent again either', async () => {
    const { key, handle } = await waitingRetry('/stale-row');
    await lostRetry(key);
    // As the record of a worker without the check left it: the 2xx in the log, the row retrying.
    await h
      .knex('webhook_deliveries')
      .where({ subscription_id: key.webhookId, event_id: key.eventId, run: 1 })
      .update({ state: 'retrying', finished_at: null, last_error_kind: 'attempt_failed' });
    await expectDeliveredOnce(key, handle);
  }, 120_000);
});
