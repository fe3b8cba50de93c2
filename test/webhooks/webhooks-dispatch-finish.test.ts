import { randomBytes } from 'node:crypto';
import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { startReceiver, type Receiver } from './helpers';
import { emitterFor } from './emit';
import { firstAttemptId } from '#activities/webhooks/dispatcher-activities';
import {
  subscriptionStateQuery,
  webhookDeliveryWorkflowId,
  webhookSubscriptionWorkflowId,
} from '#workflows/webhooks/contract';

/**
 * The dispatcher finishes a batch (outcome signals, retry workflows, dequeue) while it claims the
 * next one (decision 0240). A batch leaves the queue only after its signals and retry starts, so a
 * worker lost after recording an attempt and before signalling it leaves the row queued: the next
 * claim answers from the record — no second POST — signals the failure counter and starts the
 * retry. The state such a crash leaves (attempt recorded, row `retrying`, still queued, lease run
 * out) is written here straight to PostgreSQL, then the real dispatcher takes it.
 */
describe('webhook dispatcher: a first attempt recorded but never signalled is counted and retried', () => {
  let h: Harness;
  let rx: Receiver;
  let s: TestUser;
  let hook: { id: string };
  let status = 500;

  beforeAll(async () => {
    rx = await startReceiver(() => ({ status }));
    // The first retry waits 10 minutes: nothing but the first attempt can reach the receiver here.
    h = await createHarness({
      env: { WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_RETRY_SCHEDULE_MS: '600000,600000,600000,600000,600000' },
    });
    s = await h.seeker();
    const r = await h.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      token: s.token,
      payload: { target_url: rx.url('/fails'), events: ['match.matched'] },
    });
    expect(r.statusCode).toBe(201);
    hook = r.json();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await rx?.close();
  });

  const actor = () => h.temporal.workflow.getHandle(webhookSubscriptionWorkflowId(hook.id));

  it('a failure counted by a live batch, then one left by a lost worker, are both counted once', async () => {
    // A live failure through the real fan-out and dispatcher: counted once, its retry started.
    const first = await emitterFor(h)({ type: 'match.matched', ownerUserIds: [s.user.id] });
    await eventually(async () => rx.forEvent(first.id).length === 1, 30_000);
    await eventually(async () => (await actor().query(subscriptionStateQuery)).consecutiveFailures === 1, 30_000);
    await eventually(
      async () =>
        (await h.knex('webhook_deliveries').where({ subscription_id: hook.id, event_id: first.id }).first())
          ?.first_attempt_due_at === null,
      30_000,
    );
    await eventually(
      async () =>
        Boolean(
          await h.temporal.workflow
            .getHandle(webhookDeliveryWorkflowId(hook.id, first.id))
            .describe()
            .catch(() => null),
        ),
      30_000,
    );

    // What a worker lost between the record and the signal leaves behind, committed in one transaction.
    const repo = h.app.services.deps.repos.webhooks;
    const eventId = `evt_${randomBytes(12).toString('hex')}`;
    const key = { subscription_id: hook.id, event_id: eventId, run: 1 };
    const attemptedAt = new Date(Date.now() - 90_000);
    await h.knex.transaction(async (trx) => {
      await repo.insertEvent(
        {
          id: eventId,
          type: 'match.matched',
          owner_user_ids: [s.user.id],
          owner_team_id: null,
          data: { lost: true },
          created_at: attemptedAt,
        },
        trx,
      );
      await repo.queueFirstAttempts(
        [{ subscription_id: hook.id, event_id: eventId, event_type: 'match.matched' }],
        trx,
      );
      await repo.insertAttempt(
        {
          id: firstAttemptId(key),
          ...key,
          event_type: 'match.matched',
          attempt: 1,
          outcome: 'failure',
          http_status: 500,
          error_kind: 'http_status',
          latency_ms: 3,
          response_snippet: null,
          attempted_at: attemptedAt,
        },
        trx,
      );
      await trx('webhook_deliveries')
        .where(key)
        .update({
          state: 'retrying',
          attempts: 1,
          last_http_status: 500,
          last_error_kind: 'http_status',
          last_attempt_at: attemptedAt,
          next_attempt_at: new Date(attemptedAt.getTime() + 600_000),
          dispatch_lease_until: new Date(Date.now() - 1_000),
        });
    });

    // The dispatcher takes it again: the failure counter moves once, its retry workflow starts, the row leaves the queue.
    await eventually(async () => (await actor().query(subscriptionStateQuery)).consecutiveFailures === 2, 30_000);
    await eventually(
      async () =>
        Boolean(
          await h.temporal.workflow
            .getHandle(webhookDeliveryWorkflowId(hook.id, eventId))
            .describe()
            .catch(() => null),
        ),
      30_000,
    );
    await eventually(
      async () => (await h.knex('webhook_deliveries').where(key).first())?.first_attempt_due_at === null,
      30_000,
    );
    // Answered from the record: the event was not POSTed again, and there is still one attempt row.
    expect(rx.forEvent(eventId)).toHaveLength(0);
    expect(await h.knex('webhook_delivery_attempts').where(key)).toHaveLength(1);
    expect((await h.knex('webhook_deliveries').where(key).first())?.state).toBe('retrying');

    // A later success resets the counter: the next batch's signal still reaches the actor.
    status = 204;
    const ok = await emitterFor(h)({ type: 'match.matched', ownerUserIds: [s.user.id] });
    await eventually(async () => rx.forEvent(ok.id).length === 1, 30_000);
    await eventually(async () => (await actor().query(subscriptionStateQuery)).consecutiveFailures === 0, 30_000);
  });
});
