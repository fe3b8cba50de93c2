import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { testEnv } from '../helpers/env';
import { verifyWebhookSignature } from '#domain/webhooks/index';
import { startReceiver, startSmtp, type Receiver } from './helpers';
import { emitterFor } from './emit';
import {
  DEAD_LETTER_HOLD_MS,
  webhookDeliveryWorkflowId,
  webhookSubscriptionWorkflowId,
} from '#workflows/webhooks/contract';

const SCHEDULE = [200, 400, 600, 800, 1000];

async function createHook(h: Harness, u: TestUser, target: string, events: string[] = ['match.matched']) {
  const r = await h.call({
    method: 'POST',
    url: '/api/v1/webhooks',
    token: u.token,
    payload: { target_url: target, events },
  });
  expect(r.statusCode).toBe(201);
  return r.json() as { id: string; secret: string };
}
const deliveryRow = (h: Harness, webhookId: string, eventId: string, run = 1) =>
  h.knex('webhook_deliveries').where({ subscription_id: webhookId, event_id: eventId, run }).first();
const logOf = async (h: Harness, u: TestUser, webhookId: string) =>
  (await h.call({ method: 'GET', url: `/api/v1/webhooks/${webhookId}/deliveries`, token: u.token })).json()
    .deliveries as Array<Record<string, any>>;

describe('delivery: retry schedule, dead letter, replay', () => {
  let h: Harness;
  let rx: Receiver;
  let healthy = false;
  let emit: ReturnType<typeof emitterFor>;
  let s: TestUser;
  let hook: { id: string; secret: string };
  const events: string[] = [];
  let startedAt: Date;

  beforeAll(async () => {
    rx = await startReceiver(() => (healthy ? { status: 204 } : { status: 500, body: 'receiver exploded' }));
    h = await createHarness({
      env: {
        WEBHOOK_RETRY_SCHEDULE_MS: SCHEDULE.join(','),
        WEBHOOK_AUTO_PAUSE_FAILURES: '100',
        WEBHOOK_TIMEOUT_MS: '1000',
      },
    });
    emit = emitterFor(h);
    s = await h.seeker();
    hook = await createHook(h, s, rx.url('/flaky'));
  });
  afterAll(async () => {
    await h?.close();
    await rx?.close();
  });

  it('retries after the (scaled) schedule in order and dead-letters after the fifth retry fails', async () => {
    startedAt = new Date();
    for (let i = 0; i < 3; i++)
      events.push((await emit({ type: 'match.matched', ownerUserIds: [s.user.id], data: { match_id: `m-${i}` } })).id);
    const [e1] = events;
    await eventually(async () => events.every((e) => rx.forEvent(e).length === 6), 30_000);
    const got = rx.forEvent(e1);
    const gaps = got.slice(1).map((r, i) => r.at - got[i].at);
    // Never earlier than the schedule at the receiver (the upper side depends on machine load)…
    for (let i = 0; i < 5; i++) expect(gaps[i]).toBeGreaterThanOrEqual(SCHEDULE[i] - 5);
    // …and the durable timers between attempts are exactly the schedule, in order (from the workflow history).
    const history = await h.temporal.workflow.getHandle(`webhook-delivery:${hook.id}:${e1}`).fetchHistory();
    const timers = (history.events ?? [])
      .map((ev) => ev.timerStartedEventAttributes?.startToFireTimeout)
      .filter((d): d is NonNullable<typeof d> => !!d)
      .map((d) => Number(d.seconds ?? 0) * 1000 + Math.round((d.nanos ?? 0) / 1e6));
    // (Then, once the workflow has taken the dead letter in, the wait for its replay: decision 0196.)
    expect(timers.slice(0, SCHEDULE.length)).toEqual(SCHEDULE);
    expect(timers.slice(SCHEDULE.length).every((t) => t === DEAD_LETTER_HOLD_MS)).toBe(true);
    // One Svc-Delivery-Id per attempt, a fresh signature each time, same event id.
    expect(new Set(got.map((r) => r.headers['svc-delivery-id'])).size).toBe(6);
    for (const r of got) {
      expect(r.json.id).toBe(e1);
      expect(
        verifyWebhookSignature({ payload: r.rawBody, header: r.headers['svc-signature'], secret: hook.secret }),
      ).toBe(true);
    }

    const row = await eventually(async () => {
      const d = await deliveryRow(h, hook.id, e1);
      return d?.state === 'dead_letter' && d;
    });
    expect(row).toMatchObject({
      attempts: 6,
      last_http_status: 500,
      last_error_kind: 'http_error',
      next_attempt_at: null,
    });
    expect(row.finished_at).not.toBeNull();
    // No seventh attempt: the delivery's run has taken the dead letter in and now only waits for a
    // replay (its hold timer is in the history: decision 0196) — a fact, not "nothing came within 600 ms".
    await eventually(async () => {
      const hist = await h.temporal.workflow.getHandle(webhookDeliveryWorkflowId(hook.id, e1)).fetchHistory();
      return (hist.events ?? []).some((ev) => {
        const d = ev.timerStartedEventAttributes?.startToFireTimeout;
        return !!d && Number(d.seconds ?? 0) * 1000 + Math.round((d.nanos ?? 0) / 1e6) === DEAD_LETTER_HOLD_MS;
      });
    });
    expect(rx.forEvent(e1)).toHaveLength(6);

    const log = (await logOf(h, s, hook.id)).filter((d) => d.event_id === e1);
    expect(log.map((d) => d.attempt)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(
      log.every(
        (d) =>
          d.state === 'dead_letter' &&
          d.outcome === 'failure' &&
          d.http_status === 500 &&
          d.response_snippet === 'receiver exploded',
      ),
    ).toBe(true);
    expect(log.map((d) => d.delivery_id).sort()).toEqual(got.map((r) => String(r.headers['svc-delivery-id'])).sort());

    // Operators find dead letters in the Temporal UI by search attributes.
    await eventually(
      async () => {
        const ids: string[] = [];
        for await (const wf of h.temporal.workflow.list({
          query: `JobfairEntity="webhook_delivery" AND JobfairStatus="dead_letter" AND JobfairWebhookId="${hook.id}"`,
        }))
          ids.push(wf.workflowId);
        return events.every((e) => ids.includes(`webhook-delivery:${hook.id}:${e}`));
      },
      20_000,
      250,
    );
  });

  it('replays one dead letter (a new run with the same event id) via the API', async () => {
    const [e1] = events;
    healthy = true;
    const someAttempt = (await logOf(h, s, hook.id)).find((d) => d.event_id === e1)!;
    const r = await h.call({
      method: 'POST',
      url: `/api/v1/webhooks/${hook.id}/deliveries/${someAttempt.delivery_id}/replay`,
      token: s.token,
    });
    expect(r.statusCode).toBe(202);
    expect(r.json()).toEqual({ replayed: { event_id: e1, run: 2 } });
    await eventually(async () => rx.forEvent(e1).length === 7);
    const seventh = rx.forEvent(e1)[6];
    expect(seventh.json.id).toBe(e1);
    expect(
      verifyWebhookSignature({
        payload: seventh.rawBody,
        header: seventh.headers['svc-signature'],
        secret: hook.secret,
      }),
    ).toBe(true);
    await eventually(async () => (await deliveryRow(h, hook.id, e1, 2))?.state === 'delivered');
    expect((await deliveryRow(h, hook.id, e1, 1)).state).toBe('dead_letter');
    const log = await logOf(h, s, hook.id);
    expect(log[0]).toMatchObject({
      event_id: e1,
      run: 2,
      attempt: 1,
      outcome: 'success',
      http_status: 204,
      state: 'delivered',
    });

    // Not a dead letter any more, unknown ids, and other owners.
    const again = await h.call({
      method: 'POST',
      url: `/api/v1/webhooks/${hook.id}/deliveries/${e1}/replay`,
      token: s.token,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('DELIVERY_NOT_DEAD_LETTER');
    expect(
      (
        await h.call({
          method: 'POST',
          url: `/api/v1/webhooks/${hook.id}/deliveries/dlv_00000000000000000000000000000000/replay`,
          token: s.token,
        })
      ).statusCode,
    ).toBe(404);
    const stranger = await h.seeker();
    expect(
      (
        await h.call({
          method: 'POST',
          url: `/api/v1/webhooks/${hook.id}/deliveries/${e1}/replay`,
          token: stranger.token,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('replays every dead letter since a time', async () => {
    const [e1, e2, e3] = events;
    const none = await h.call({
      method: 'POST',
      url: `/api/v1/webhooks/${hook.id}/replay`,
      token: s.token,
      payload: { since: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(none.json()).toEqual({ replayed: [], skipped: [], has_more: false });
    const bad = await h.call({
      method: 'POST',
      url: `/api/v1/webhooks/${hook.id}/replay`,
      token: s.token,
      payload: { since: 'yesterday' },
    });
    expect(bad.statusCode).toBe(400);
    const r = await h.call({
      method: 'POST',
      url: `/api/v1/webhooks/${hook.id}/replay`,
      token: s.token,
      payload: { since: startedAt.toISOString() },
    });
    expect(r.statusCode).toBe(202);
    expect(
      r
        .json()
        .replayed.map((x: { event_id: string }) => x.event_id)
        .sort(),
    ).toEqual([e2, e3].sort());
    await eventually(async () => rx.forEvent(e2).length === 7 && rx.forEvent(e3).length === 7);
    await eventually(
      async () =>
        (await deliveryRow(h, hook.id, e2, 2))?.state === 'delivered' &&
        (await deliveryRow(h, hook.id, e3, 2))?.state === 'delivered',
    );
    expect(rx.forEvent(e1)).toHaveLength(7);
  });
  it(
    'the operator CLI (npm run webhooks:replay: ops replay --execute) replays a dead letter, ' +
      'and lists with --dry-run',
    async () => {
      healthy = false;
      const e4 = (await emit({ type: 'match.matched', ownerUserIds: [s.user.id], data: { match_id: 'm-4' } })).id;
      await eventually(async () => (await deliveryRow(h, hook.id, e4))?.state === 'dead_letter', 30_000);
      healthy = true;
      const root = path.join(__dirname, '..', '..');
      // The command `npm run webhooks:replay` runs (package.json).
      const run = (args: string[]) =>
        promisify(execFile)(
          path.join(root, 'node_modules', '.bin', 'tsx'),
          [path.join(root, 'apps', 'ops', 'src', 'ops.ts'), 'replay', '--execute', ...args],
          {
            cwd: root,
            env: {
              ...process.env,
              DATABASE_URL: h.dbUrl,
              TEMPORAL_ADDRESS: testEnv().temporalAddress,
              TEMPORAL_TASK_QUEUE: h.config.TEMPORAL_TASK_QUEUE,
              APP_SECRET: h.config.APP_SECRET!,
              NODE_ENV: 'test',
            },
          },
        );
      const dry = await run(['--webhook', hook.id, '--since', startedAt.toISOString(), '--dry-run']);
      expect(dry.stdout).toContain(e4);
      expect(dry.stdout).toContain('1 dead letter(s) would be replayed');
      const out = await run(['--webhook', hook.id, '--delivery', e4]);
      expect(out.stdout).toContain(`replaying ${e4} to ${hook.id} as run 2`);
      await eventually(async () => (await deliveryRow(h, hook.id, e4, 2))?.state === 'delivered');
      expect(rx.forEvent(e4)).toHaveLength(7);
      await expect(run(['--webhook', hook.id, '--delivery', e4])).rejects.toMatchObject({
        stderr: expect.stringContaining('DELIVERY_NOT_DEAD_LETTER'),
      });
    },
  );

  it(
    'marks a replayed dead letter in Temporal, and a keyed replay retried after its answer was ' +
      'lost answers with the first answer',
    async () => {
      healthy = false;
      const e5 = (await emit({ type: 'match.matched', ownerUserIds: [s.user.id], data: { match_id: 'm-5' } })).id;
      await eventually(async () => (await deliveryRow(h, hook.id, e5))?.state === 'dead_letter', 30_000);
      const stillToDo = async () => {
        const ids: string[] = [];
        for await (const wf of h.temporal.workflow.list({
          query:
            `JobfairEntity="webhook_delivery" AND JobfairStatus="dead_letter" AND ` +
            `ExecutionStatus="Running" AND JobfairWebhookId="${hook.id}"`,
        }))
          ids.push(wf.workflowId);
        return ids;
      };
      // The dead letter waits, open, for its replay: the "still to do" query finds it.
      await eventually(async () => (await stillToDo()).includes(`webhook-delivery:${hook.id}:${e5}`), 20_000, 250);
      healthy = true;
      const key = randomUUID();
      const first = await h.call({
        method: 'POST',
        url: `/api/v1/webhooks/${hook.id}/deliveries/${e5}/replay`,
        token: s.token,
        headers: { 'idempotency-key': key },
      });
      expect(first.statusCode).toBe(202);
      expect(first.json()).toEqual({ replayed: { event_id: e5, run: 2 } });
      await eventually(async () => (await deliveryRow(h, hook.id, e5, 2))?.state === 'delivered');
      // Marked: the replayed run says so, and "still to do" no longer lists it.
      await eventually(
        async () => {
          const marked: string[] = [];
          for await (const wf of h.temporal.workflow.list({
            query: `JobfairStatus="dead_letter_replayed" AND JobfairWebhookId="${hook.id}"`,
          }))
            marked.push(wf.workflowId);
          return (
            marked.includes(`webhook-delivery:${hook.id}:${e5}`) &&
            !(await stillToDo()).includes(`webhook-delivery:${hook.id}:${e5}`)
          );
        },
        20_000,
        250,
      );
      // The stored answer is lost (as when the API dies between the replay and storing it): the keyed retry reruns the handler.
      expect(await h.knex('idempotency_keys').where({ key }).del()).toBe(1);
      const retry = await h.call({
        method: 'POST',
        url: `/api/v1/webhooks/${hook.id}/deliveries/${e5}/replay`,
        token: s.token,
        headers: { 'idempotency-key': key },
      });
      expect(retry.statusCode).toBe(202);
      expect(retry.json()).toEqual(first.json());
      // One replay: no third run, seven requests at the receiver (six failures, one success).
      expect(await deliveryRow(h, hook.id, e5, 3)).toBeUndefined();
      expect(rx.forEvent(e5)).toHaveLength(7);
      // Without the key a second replay is still refused.
      expect(
        (
          await h.call({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/deliveries/${e5}/replay`, token: s.token })
        ).json().code,
      ).toBe('DELIVERY_NOT_DEAD_LETTER');
    },
  );
});

describe(
  'subscription actor: auto-pause with e-mail, not accepted while paused, re-enable, disable ' +
    'and delete cancel retries',
  () => {
    let h: Harness;
    let rx: Receiver;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let emit: ReturnType<typeof emitterFor>;
    const healthy = new Set<string>();

    beforeAll(async () => {
      smtp = await startSmtp();
      rx = await startReceiver((r) => (healthy.has(r.url) ? { status: 200, body: 'ok' } : { status: 500 }));
      h = await createHarness({
        env: {
          WEBHOOK_RETRY_SCHEDULE_MS: '1500,60000,60000,60000,60000',
          WEBHOOK_AUTO_PAUSE_FAILURES: '3',
          SMTP_URL: smtp.url,
          MAIL_FROM: 'Job Fair <hooks@jobfair.test>',
        },
      });
      emit = emitterFor(h);
    });
    afterAll(async () => {
      await h?.close();
      await rx?.close();
      await smtp?.close();
    });

    it(
      'pauses after N consecutive failures, e-mails the owner, accepts no new events, and ' + 'resumes when re-enabled',
      async () => {
        const s = await h.seeker();
        const hook = await createHook(h, s, rx.url('/down'));
        const t0 = new Date();
        const failing = await Promise.all(
          [1, 2, 3].map((i) =>
            emit({ type: 'match.matched', ownerUserIds: [s.user.id], data: { match_id: `m-${i}` } }),
          ),
        );

        const paused = await eventually(async () => {
          const w = (await h.call({ method: 'GET', url: `/api/v1/webhooks/${hook.id}`, token: s.token })).json();
          return w.status === 'paused' && w;
        });
        expect(paused.consecutive_failures).toBe(3);
        expect(paused.paused_at).not.toBeNull();
        const desc = await h.temporal.workflow.getHandle(webhookSubscriptionWorkflowId(hook.id)).describe();
        expect(desc.typedSearchAttributes.getAll().find((p) => p.key.name === 'JobfairStatus')?.value).toBe('paused');

        // The e-mail goes through the outbox and a real SMTP server.
        const mail = await eventually(async () => smtp.mails[0]);
        expect(mail.to).toEqual([s.user.email]);
        expect(mail.from).toBe('hooks@jobfair.test');
        expect(mail.raw).toContain(hook.id);
        expect(mail.raw).toMatch(/paused/);
        const outbox = await eventually(async () => {
          const row = await h.knex('email_outbox').where({ kind: 'webhook_paused' }).first();
          return row?.status === 'sent' && row;
        });
        expect(outbox.to_address).toBe(s.user.email);

        // While paused: a new event is recorded as not accepted, never sent.
        const blocked = await emit({ type: 'match.matched', ownerUserIds: [s.user.id] });
        const entry = await eventually(async () => (await logOf(h, s, hook.id)).find((d) => d.event_id === blocked.id));
        expect(entry).toMatchObject({
          state: 'not_accepted_paused',
          outcome: 'not_sent',
          attempt: null,
          error_kind: 'not_accepted_paused',
        });
        // Retries that come due while paused are not sent: they become dead letters (replayable).
        for (const e of failing) {
          await eventually(async () => (await deliveryRow(h, hook.id, e.id))?.state === 'dead_letter', 10_000);
        }
        const log = await logOf(h, s, hook.id);
        expect(log.filter((d) => d.error_kind === 'subscription_paused')).toHaveLength(3);
        expect(rx.forEvent(blocked.id)).toHaveLength(0);
        for (const e of failing) expect(rx.forEvent(e.id)).toHaveLength(1);

        // Re-enable: counter reset, new events flow again, and the dead letters can be replayed.
        healthy.add('/down');
        const resumed = await h.call({
          method: 'PATCH',
          url: `/api/v1/webhooks/${hook.id}`,
          token: s.token,
          payload: { status: 'active' },
        });
        expect(resumed.statusCode).toBe(200);
        expect(resumed.json()).toMatchObject({ status: 'active', consecutive_failures: 0, paused_at: null });
        const fresh = await emit({ type: 'match.matched', ownerUserIds: [s.user.id] });
        await eventually(async () => (await deliveryRow(h, hook.id, fresh.id))?.state === 'delivered');
        const replay = (
          await h.call({
            method: 'POST',
            url: `/api/v1/webhooks/${hook.id}/replay`,
            token: s.token,
            payload: { since: t0.toISOString() },
          })
        ).json();
        expect(replay.replayed.map((r: { event_id: string }) => r.event_id).sort()).toEqual(
          failing.map((e) => e.id).sort(),
        );
        for (const e of failing)
          await eventually(async () => (await deliveryRow(h, hook.id, e.id, 2))?.state === 'delivered');
        const after = await h.temporal.workflow.getHandle(webhookSubscriptionWorkflowId(hook.id)).describe();
        expect(after.typedSearchAttributes.getAll().find((p) => p.key.name === 'JobfairStatus')?.value).toBe('active');
        expect(smtp.mails).toHaveLength(1);
      },
    );

    it('a success resets the consecutive-failure counter', async () => {
      const s = await h.seeker();
      const hook = await createHook(h, s, rx.url('/sometimes'));
      const a = await emit({ type: 'match.matched', ownerUserIds: [s.user.id] });
      const b = await emit({ type: 'match.matched', ownerUserIds: [s.user.id] });
      await eventually(
        async () => (await h.knex('webhook_subscriptions').where({ id: hook.id }).first()).consecutive_failures === 2,
      );
      healthy.add('/sometimes');
      // Its own test event succeeds: back to zero.
      const t = (await h.call({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/test`, token: s.token })).json();
      expect(t.state).toBe('delivered');
      await eventually(
        async () => (await h.knex('webhook_subscriptions').where({ id: hook.id }).first()).consecutive_failures === 0,
      );
      // The two failed deliveries recover on their first retry.
      await eventually(
        async () =>
          (await deliveryRow(h, hook.id, a.id))?.state === 'delivered' &&
          (await deliveryRow(h, hook.id, b.id))?.state === 'delivered',
      );
      expect((await h.call({ method: 'GET', url: `/api/v1/webhooks/${hook.id}`, token: s.token })).json().status).toBe(
        'active',
      );
    });

    it('disable and delete end waiting retries as cancelled (recorded)', async () => {
      const s = await h.seeker();
      for (const how of ['disable', 'delete'] as const) {
        const hook = await createHook(h, s, rx.url(`/never-${how}`));
        const e = await emit({ type: 'match.matched', ownerUserIds: [s.user.id] });
        await eventually(async () => (await deliveryRow(h, hook.id, e.id))?.state === 'retrying');
        const r =
          how === 'disable'
            ? await h.call({
                method: 'PATCH',
                url: `/api/v1/webhooks/${hook.id}`,
                token: s.token,
                payload: { status: 'disabled' },
              })
            : await h.call({ method: 'DELETE', url: `/api/v1/webhooks/${hook.id}`, token: s.token });
        expect(r.statusCode).toBe(200);
        if (how === 'delete') expect(r.json().cancelled_deliveries).toBe(1);
        else expect(r.json().status).toBe('disabled');
        await eventually(async () => (await deliveryRow(h, hook.id, e.id))?.state === 'cancelled');
        const rows = await h
          .knex('webhook_delivery_attempts')
          .where({ subscription_id: hook.id })
          .orderBy('attempted_at');
        expect(rows.map((x) => [x.outcome, x.error_kind])).toEqual([
          ['failure', 'http_error'],
          ['not_sent', how === 'disable' ? 'subscription_disabled' : 'subscription_deleted'],
        ]);
        // Nothing more will be sent: the delivery's run has closed (not "nothing came within 1.8 s").
        await eventually(
          async () =>
            (await h.temporal.workflow.getHandle(webhookDeliveryWorkflowId(hook.id, e.id)).describe()).status.name !==
            'RUNNING',
        );
        expect(rx.received.filter((x) => x.url === `/never-${how}`)).toHaveLength(1);
      }
    });
  },
);
