import { createHarness, eventually, type Harness } from '../helpers/harness';
import { startWorker, type StartedWorker } from '#apps/worker/src/worker';
import { testEnv } from '../helpers/env';
import { startReceiver, type Receiver } from './helpers';
import { emitterFor } from './emit';
import { webhookDeliveryWorkflowId } from '#workflows/webhooks/contract';

describe('delivery survives a worker restart mid-schedule', () => {
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

  beforeAll(async () => {
    // The first two attempts fail; the third succeeds.
    rx = await startReceiver((r) =>
      rx.forEvent(r.json.id).length <= 2 ? { status: 502 } : { status: 200, body: 'finally' },
    );
    h = await createHarness({ worker: false, env: { WEBHOOK_RETRY_SCHEDULE_MS: '100,2500,100,100,100' } });
  });
  afterAll(async () => {
    for (const w of workers) await w.shutdown();
    workers = [];
    await h?.close();
    await rx?.close();
  });

  it(
    'the retry timer fires while no worker runs; a new worker on the same task queue completes ' + 'the delivery',
    async () => {
      const first = await start();
      const s = await h.seeker();
      const hook = (
        await h.call({
          method: 'POST',
          url: '/api/v1/webhooks',
          token: s.token,
          payload: { target_url: rx.url('/restart'), events: ['interview.completed'] },
        })
      ).json();
      const e = await emitterFor(h, first)({ type: 'interview.completed', ownerUserIds: [s.user.id] });
      await eventually(async () => rx.forEvent(e.id).length === 2);
      await eventually(
        async () =>
          (await h.knex('webhook_deliveries').where({ subscription_id: hook.id, event_id: e.id }).first())?.state ===
          'retrying',
      );
      // The 2.5 s retry timer is in the history before the worker goes: the row says 'retrying' as soon
      // as the attempt is recorded, which can be before the workflow task that starts the timer.
      const handle = h.temporal.workflow.getHandle(webhookDeliveryWorkflowId(hook.id, e.id));
      await eventually(
        async () => (await handle.fetchHistory()).events!.filter((ev) => ev.timerStartedEventAttributes).length >= 2,
        30_000,
        100,
      );

      await first.shutdown();
      workers = workers.filter((w) => w !== first);
      // The pending 2.5 s retry timer fires in Temporal with nobody polling: a condition on the
      // workflow's history (the second TimerFired event), not a sleep a loaded machine could misjudge.
      await eventually(
        async () => (await handle.fetchHistory()).events!.filter((ev) => ev.timerFiredEventAttributes).length >= 2,
        30_000,
        200,
      );
      expect(rx.forEvent(e.id)).toHaveLength(2);

      await start();
      await eventually(
        async () =>
          (await h.knex('webhook_deliveries').where({ subscription_id: hook.id, event_id: e.id }).first())?.state ===
          'delivered',
        20_000,
      );
      const got = rx.forEvent(e.id);
      expect(got).toHaveLength(3);
      expect(got[2].at - got[1].at).toBeGreaterThanOrEqual(2500);
      const attempts = await h
        .knex('webhook_delivery_attempts')
        .where({ subscription_id: hook.id, event_id: e.id })
        .orderBy('attempt');
      expect(attempts.map((a) => [a.attempt, a.outcome, a.http_status])).toEqual([
        [1, 'failure', 502],
        [2, 'failure', 502],
        [3, 'success', 200],
      ]);
    },
  );
});
