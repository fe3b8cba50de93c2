import { randomBytes } from 'node:crypto';
import { temporal as proto } from '@temporalio/proto';
import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { startReceiver, type Receiver } from './helpers';
import { emitterFor } from './emit';
import { webhookDispatcherWorkflowId } from '#workflows/webhooks/contract';

/**
 * The idle dispatcher is woken by PostgreSQL NOTIFY (decision 0217), not by polling: with the
 * safety poll at 10 minutes, a delivery committed by another process (no in-process nudge: the
 * rows are written straight through the repository, as a fan-out in an API or another worker
 * would) goes out while the same activity call is waiting — it is not left for a later poll or
 * for the next call after the idle return.
 */
describe('webhook dispatcher: an idle dispatcher is woken by the commit of a delivery', () => {
  let h: Harness;
  let rx: Receiver;
  let s: TestUser;
  let hook: { id: string };

  beforeAll(async () => {
    rx = await startReceiver(() => ({ status: 204 }));
    h = await createHarness({ env: { WEBHOOK_DISPATCH_POLL_MS: '600000', WEBHOOK_TIMEOUT_MS: '5000' } });
    s = await h.seeker();
    const r = await h.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      token: s.token,
      payload: { target_url: rx.url('/ok'), events: ['match.matched'] },
    });
    expect(r.statusCode).toBe(201);
    hook = r.json();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await rx?.close();
  });

  const dispatcher = () => h.temporal.workflow.getHandle(webhookDispatcherWorkflowId(h.config.TEMPORAL_TASK_QUEUE));
  const callsScheduled = async () =>
    ((await dispatcher().fetchHistory()).events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).length;

  it('a delivery committed while the dispatcher waits goes out from the waiting call', async () => {
    // The dispatcher starts with the first emitted event (the real fan-out) and delivers it.
    const first = await emitterFor(h)({ type: 'match.matched', ownerUserIds: [s.user.id] });
    await eventually(async () => rx.forEvent(first.id).length === 1, 30_000);
    // Its activity call is running, with nothing left to do: it waits for a wake-up.
    await eventually(
      async () =>
        (await dispatcher().describe()).raw.pendingActivities?.some(
          (a) => a.state === proto.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED,
        ) ?? false,
      30_000,
    );
    await eventually(
      async () =>
        (await h.knex('webhook_deliveries').whereNotNull('first_attempt_due_at').count<{ n: number }[]>({ n: '*' }))[0]
          .n === 0,
      30_000,
    );
    const calls = await callsScheduled();

    // Another process commits a delivery: domain event + delivery row in one transaction, no nudge.
    const repo = h.app.services.deps.repos.webhooks;
    const eventId = `evt_${randomBytes(12).toString('hex')}`;
    await h.knex.transaction(async (trx) => {
      await repo.insertEvent(
        {
          id: eventId,
          type: 'match.matched',
          owner_user_ids: [s.user.id],
          owner_team_id: null,
          data: { match_id: 'm-2' },
          created_at: new Date(),
        },
        trx,
      );
      await repo.queueFirstAttempts(
        [{ subscription_id: hook.id, event_id: eventId, event_type: 'match.matched' }],
        trx,
      );
    });
    await eventually(async () => rx.forEvent(eventId).length === 1, 20_000);
    await eventually(
      async () =>
        (await h.knex('webhook_deliveries').where({ subscription_id: hook.id, event_id: eventId, run: 1 }).first())
          ?.state === 'delivered',
      20_000,
    );
    // The call that was waiting sent it: no new call was scheduled meanwhile (the idle return is 30 s, the safety poll 10 minutes).
    expect(await callsScheduled()).toBe(calls);
  });
});
