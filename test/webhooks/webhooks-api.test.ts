import { createHash } from 'node:crypto';
import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { verifyWebhookSignature } from '#domain/webhooks/index';
import { startReceiver, type Receiver } from './helpers';
import { emitterFor } from './emit';
import { webhookSubscriptionWorkflowId } from '#workflows/webhooks/contract';

describe('webhooks API: subscriptions, ownership, secrets, test events, fan-out', () => {
  let h: Harness;
  let rx: Receiver;
  let emit: ReturnType<typeof emitterFor>;
  beforeAll(async () => {
    rx = await startReceiver();
    h = await createHarness({
      env: { WEBHOOK_SECRET_OVERLAP_MS: '60000', WEBHOOK_RETRY_SCHEDULE_MS: '60000,60000,60000,60000,60000' },
    });
    emit = emitterFor(h);
  });
  afterAll(async () => {
    await h?.close();
    await rx?.close();
  });

  const create = async (u: TestUser, body: Record<string, unknown>) =>
    h.call({ method: 'POST', url: '/api/v1/webhooks', token: u.token, payload: body });

  it('creates a subscription, returns the secret once and stores only a hash and a salt', async () => {
    const s = await h.seeker();
    const res = await create(s, {
      target_url: rx.url('/a'),
      events: ['match.matched', 'match.matched', 'interview.completed'],
      description: 'my agent',
    });
    expect(res.statusCode).toBe(201);
    const w = res.json();
    expect(w).toMatchObject({
      target_url: rx.url('/a'),
      events: ['match.matched', 'interview.completed'],
      description: 'my agent',
      status: 'active',
      consecutive_failures: 0,
      owner: { type: 'user', id: s.user.id },
    });
    expect(w.id).toMatch(/^whk_[0-9a-f]{24}$/);
    expect(w.secret).toMatch(/^svc_whsec_[0-9A-Za-z]{43}$/);

    const row = await h.knex('webhook_subscriptions').where({ id: w.id }).first();
    expect(JSON.stringify(row)).not.toContain(w.secret);
    expect(JSON.stringify(row)).not.toContain(w.secret.slice('svc_whsec_'.length));
    expect(row.secret_hash).toBe(createHash('sha256').update(w.secret).digest('hex'));
    const idem = await h.knex('idempotency_keys').select('response_body');
    expect(JSON.stringify(idem)).not.toContain(w.secret);

    const got = await h.call({ method: 'GET', url: `/api/v1/webhooks/${w.id}`, token: s.token });
    expect(got.statusCode).toBe(200);
    expect(got.json().secret).toBeUndefined();
    const list = await h.call({ method: 'GET', url: '/api/v1/webhooks', token: s.token });
    expect(list.json()).toMatchObject({ data: [{ id: w.id }], has_more: false });
    expect(list.body).not.toContain('svc_whsec_');

    // The actor runs and is visible to operators.
    const desc = await h.temporal.workflow.getHandle(webhookSubscriptionWorkflowId(w.id)).describe();
    expect(desc.status.name).toBe('RUNNING');
    expect(desc.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value])).toEqual(
      expect.arrayContaining([
        ['JobfairEntity', 'webhook_subscription'],
        ['JobfairStatus', 'active'],
        ['JobfairWebhookId', w.id],
        ['JobfairUserId', s.user.id],
      ]),
    );
  });

  it('create and rotate-secret honour Idempotency-Key: a retry returns the same secret, stored only sealed', async () => {
    const s = await h.seeker();
    const key = '9b2f7c1e-4d3a-4e8b-9f6a-1c2d3e4f5a6b';
    const body = { target_url: rx.url('/idem'), events: ['match.matched'] };
    const first = await h.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      token: s.token,
      payload: body,
      headers: { 'idempotency-key': key },
    });
    const again = await h.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      token: s.token,
      payload: body,
      headers: { 'idempotency-key': key },
    });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await h.knex('webhook_subscriptions').where({ target_url: rx.url('/idem') })).toHaveLength(1);

    const rotKey = '3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f';
    const url = `/api/v1/webhooks/${first.json().id}/rotate-secret`;
    const rot1 = await h.call({ method: 'POST', url, token: s.token, headers: { 'idempotency-key': rotKey } });
    const rot2 = await h.call({ method: 'POST', url, token: s.token, headers: { 'idempotency-key': rotKey } });
    expect(rot1.statusCode).toBe(200);
    expect(rot2.json().secret).toBe(rot1.json().secret);
    const stored = JSON.stringify(await h.knex('idempotency_keys').select('response_body'));
    for (const secret of [first.json().secret, rot1.json().secret]) {
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(secret.slice('svc_whsec_'.length));
    }
  });

  it('refuses bad input with 400 and no side effect; 401 and 403 by token', async () => {
    const s = await h.seeker();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ target_url: rx.url(), events: ['match.exploded'] }, /events/],
      [{ target_url: rx.url(), events: [] }, /events/],
      [{ target_url: rx.url() }, /events/],
      [{ target_url: 'https://10.0.0.8/hook', events: ['match.matched'] }, /private/],
      [{ target_url: 'https://169.254.169.254/latest', events: ['match.matched'] }, /metadata/],
      [{ target_url: 'http://hooks.example.com/x', events: ['match.matched'] }, /https:/],
      [{ target_url: 'https://[::ffff:192.168.1.1]/', events: ['match.matched'] }, /private/],
      [{ target_url: rx.url(), events: ['match.matched'], secret: 'mine' }, /secret/],
    ];
    for (const [body, msg] of cases) {
      const r = await create(s, body);
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('VALIDATION');
      expect(r.body).toMatch(msg);
    }
    expect(await h.knex('webhook_subscriptions').where({ owner_user_id: s.user.id }).first()).toBeUndefined();

    expect((await h.call({ method: 'GET', url: '/api/v1/webhooks' })).statusCode).toBe(401);
    const readOnly = await s.tokenWith(['webhooks:read']);
    const r403 = await h.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      token: readOnly,
      payload: { target_url: rx.url(), events: ['match.matched'] },
    });
    expect(r403.statusCode).toBe(403);
    expect(r403.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required_scope: 'webhooks:write' } });
    const noRead = await s.tokenWith(['profile:read']);
    expect((await h.call({ method: 'GET', url: '/api/v1/webhooks', token: noRead })).json().code).toBe(
      'INSUFFICIENT_SCOPE',
    );
  });

  it('team subscriptions are shared by the team; other owners get 404 on every route', async () => {
    const r1 = await h.recruiter();
    const r2 = await h.recruiter({ teamId: r1.teamId! });
    const other = await h.recruiter();
    const seeker = await h.seeker();
    const w = (await create(r1, { target_url: rx.url('/team'), events: ['match.matched'] })).json();
    expect(w.owner).toEqual({ type: 'team', id: r1.teamId });
    expect((await h.call({ method: 'GET', url: `/api/v1/webhooks/${w.id}`, token: r2.token })).statusCode).toBe(200);
    for (const u of [other, seeker]) {
      const calls = [
        { method: 'GET' as const, url: `/api/v1/webhooks/${w.id}` },
        { method: 'PATCH' as const, url: `/api/v1/webhooks/${w.id}`, payload: { description: 'x' } },
        { method: 'DELETE' as const, url: `/api/v1/webhooks/${w.id}` },
        { method: 'POST' as const, url: `/api/v1/webhooks/${w.id}/test` },
        { method: 'GET' as const, url: `/api/v1/webhooks/${w.id}/deliveries` },
        { method: 'POST' as const, url: `/api/v1/webhooks/${w.id}/rotate-secret` },
        {
          method: 'POST' as const,
          url: `/api/v1/webhooks/${w.id}/replay`,
          payload: { since: new Date(0).toISOString() },
        },
      ];
      for (const c of calls) {
        const r = await h.call({ ...c, token: u.token });
        expect([c.url, r.statusCode, r.json().code]).toEqual([c.url, 404, 'NOT_FOUND']);
      }
      expect(
        (await h.call({ method: 'GET', url: '/api/v1/webhooks', token: u.token }))
          .json()
          .data.map((x: { id: string }) => x.id),
      ).not.toContain(w.id);
    }
    expect(
      (await h.call({ method: 'GET', url: '/api/v1/webhooks/whk_000000000000000000000000', token: r1.token }))
        .statusCode,
    ).toBe(404);
    expect((await h.call({ method: 'GET', url: '/api/v1/webhooks/nope', token: r1.token })).statusCode).toBe(400);
  });

  it('lists with the shared pagination, and PATCH changes settings (validated)', async () => {
    const s = await h.seeker();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await create(s, { target_url: rx.url(`/p${i}`), events: ['match.accepted'] })).json().id);
    const p1 = (await h.call({ method: 'GET', url: '/api/v1/webhooks?limit=2', token: s.token })).json();
    expect(p1.data.map((x: { id: string }) => x.id)).toEqual([ids[2], ids[1]]);
    expect(p1.has_more).toBe(true);
    const p2 = (
      await h.call({
        method: 'GET',
        url: `/api/v1/webhooks?limit=2&cursor=${encodeURIComponent(p1.next_cursor)}`,
        token: s.token,
      })
    ).json();
    expect(p2).toMatchObject({ data: [{ id: ids[0] }], has_more: false });

    const patched = await h.call({
      method: 'PATCH',
      url: `/api/v1/webhooks/${ids[0]}`,
      token: s.token,
      payload: { target_url: rx.url('/moved'), events: ['changelog.api'], description: 'moved' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      target_url: rx.url('/moved'),
      events: ['changelog.api'],
      description: 'moved',
      status: 'active',
    });
    const bad = await h.call({
      method: 'PATCH',
      url: `/api/v1/webhooks/${ids[0]}`,
      token: s.token,
      payload: { target_url: 'https://192.168.0.1/' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (
        await h.call({
          method: 'PATCH',
          url: `/api/v1/webhooks/${ids[0]}`,
          token: s.token,
          payload: { status: 'paused' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await h.call({ method: 'PATCH', url: `/api/v1/webhooks/${ids[0]}`, token: s.token, payload: {} })).statusCode,
    ).toBe(400);
    expect((await h.knex('webhook_subscriptions').where({ id: ids[0] }).first()).target_url).toBe(rx.url('/moved'));
  });

  it('test event: delivered through the real path, signed, with all headers; the answer says what happened', async () => {
    const s = await h.seeker();
    const w = (await create(s, { target_url: rx.url('/test-me'), events: ['match.matched'] })).json();
    const res = await h.call({ method: 'POST', url: `/api/v1/webhooks/${w.id}/test`, token: s.token });
    expect(res.statusCode).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({
      state: 'delivered',
      event: {
        type: 'webhook.test',
        data: { webhook_id: w.id, message: 'This is a test event from Job Fair.', test: true },
      },
      attempt: { attempt: 1, http_status: 200, error_kind: null, response_snippet: 'ok' },
    });
    const got = rx.forEvent(t.event.id);
    expect(got).toHaveLength(1);
    const req = got[0];
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/test-me');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['svc-event']).toBe('webhook.test');
    expect(req.headers['svc-delivery-id']).toBe(t.attempt.delivery_id);
    expect(req.headers['svc-delivery-id']).toMatch(/^dlv_[0-9a-f]{32}$/);
    expect(req.headers['svc-subscription-id']).toBe(w.id);
    expect(req.headers['svc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(
      verifyWebhookSignature({ payload: req.rawBody, header: req.headers['svc-signature'], secret: w.secret }),
    ).toBe(true);
    expect(
      verifyWebhookSignature({ payload: req.rawBody, header: req.headers['svc-signature'], secret: 'svc_whsec_wrong' }),
    ).toBe(false);
    expect(req.json).toEqual({
      id: t.event.id,
      type: 'webhook.test',
      created_at: expect.any(Number),
      data: t.event.data,
    });
    expect(Math.abs(req.json.created_at - Date.now() / 1000)).toBeLessThan(30);

    const log = (await h.call({ method: 'GET', url: `/api/v1/webhooks/${w.id}/deliveries`, token: s.token })).json();
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]).toMatchObject({
      delivery_id: t.attempt.delivery_id,
      event_id: t.event.id,
      event_type: 'webhook.test',
      attempt: 1,
      run: 1,
      outcome: 'success',
      http_status: 200,
      state: 'delivered',
      response_snippet: 'ok',
    });
    expect(log.deliveries[0].latency_ms).toBeGreaterThanOrEqual(0);
    expect(log.has_more).toBeUndefined();

    // A failing receiver: the answer says so and the retry is scheduled.
    rx.setResponder((r) =>
      r.url === '/test-fail' ? { status: 503, body: 'down for maintenance' } : { status: 200, body: 'ok' },
    );
    await h.call({
      method: 'PATCH',
      url: `/api/v1/webhooks/${w.id}`,
      token: s.token,
      payload: { target_url: rx.url('/test-fail') },
    });
    const failed = (await h.call({ method: 'POST', url: `/api/v1/webhooks/${w.id}/test`, token: s.token })).json();
    expect(failed).toMatchObject({
      state: 'retrying',
      attempt: { attempt: 1, http_status: 503, error_kind: 'http_error', response_snippet: 'down for maintenance' },
    });
    rx.setResponder(() => ({ status: 200, body: 'ok' }));
  });

  it('rotate-secret: two v1 signatures until the overlap ends, then only the new one', async () => {
    const s = await h.seeker();
    const w = (await create(s, { target_url: rx.url('/rot'), events: ['match.matched'] })).json();
    const rot = await h.call({ method: 'POST', url: `/api/v1/webhooks/${w.id}/rotate-secret`, token: s.token });
    expect(rot.statusCode).toBe(200);
    const r = rot.json();
    expect(r.secret).toMatch(/^svc_whsec_/);
    expect(r.secret).not.toBe(w.secret);
    expect(new Date(r.previous_secret_expires_at).getTime()).toBeGreaterThan(Date.now());
    const row = await h.knex('webhook_subscriptions').where({ id: w.id }).first();
    expect(JSON.stringify(row)).not.toContain(r.secret);

    const t1 = (await h.call({ method: 'POST', url: `/api/v1/webhooks/${w.id}/test`, token: s.token })).json();
    const d1 = rx.forEvent(t1.event.id)[0];
    const sig1 = String(d1.headers['svc-signature']);
    expect(sig1.match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhookSignature({ payload: d1.rawBody, header: sig1, secret: r.secret })).toBe(true);
    expect(verifyWebhookSignature({ payload: d1.rawBody, header: sig1, secret: w.secret })).toBe(true);

    // The overlap ends by moving its end into the past (the signer reads it at every attempt), not by
    // sleeping past a short overlap that a loaded machine could outlast before t1 was even sent.
    await h
      .knex('webhook_subscriptions')
      .where({ id: w.id })
      .update({ previous_secret_expires_at: h.knex.raw("now() - interval '1 second'") });
    // t has a one-second resolution: the next attempt is in a later second (a condition, not a sleep).
    const t1Seconds = Number(/t=(\d+)/.exec(sig1)![1]);
    await eventually(async () => Math.floor(Date.now() / 1000) > t1Seconds, 5_000, 50);
    const t2 = (await h.call({ method: 'POST', url: `/api/v1/webhooks/${w.id}/test`, token: s.token })).json();
    const d2 = rx.forEvent(t2.event.id)[0];
    const sig2 = String(d2.headers['svc-signature']);
    expect(sig2.match(/v1=/g)).toHaveLength(1);
    expect(verifyWebhookSignature({ payload: d2.rawBody, header: sig2, secret: r.secret })).toBe(true);
    expect(verifyWebhookSignature({ payload: d2.rawBody, header: sig2, secret: w.secret })).toBe(false);
    // t is fresh per attempt and close to now.
    expect(Number(/t=(\d+)/.exec(sig2)![1])).toBeGreaterThan(Number(/t=(\d+)/.exec(sig1)![1]));
  });

  it(
    'fan-out: owners only (team, user, broadcast), subscribed types only, duplicate emits ' +
      'collapse, oversize never sent',
    async () => {
      const rec = await h.recruiter();
      const otherRec = await h.recruiter();
      const seeker = await h.seeker();
      const teamHook = (
        await create(rec, { target_url: rx.url('/team-hook'), events: ['match.matched', 'changelog.api'] })
      ).json();
      const otherTeamHook = (
        await create(otherRec, { target_url: rx.url('/other-team'), events: ['match.matched'] })
      ).json();
      const seekerHook = (
        await create(seeker, { target_url: rx.url('/seeker-hook'), events: ['match.matched', 'changelog.api'] })
      ).json();

      const matched = await emit({
        type: 'match.matched',
        ownerTeamId: rec.teamId,
        ownerUserIds: [seeker.user.id],
        data: { match_id: 'm-1', role_title: 'Engineer', seeker_headline: 'TS dev' },
      });
      await eventually(async () => rx.forEvent(matched.id).length === 2);
      // A duplicate emission of the same event (retried activity) creates no second delivery.
      await emit({ ...matched });
      const accepted = await emit({ type: 'match.accepted', ownerTeamId: rec.teamId, ownerUserIds: [seeker.user.id] });
      const changelog = await emit({ type: 'changelog.api', data: { entry_id: 'c1', title: 'New route' } });
      // A broadcast: other tests' changelog.api subscriptions in this file get it too, so wait for these two.
      await eventually(async () =>
        ['/team-hook', '/seeker-hook'].every((u) => rx.forEvent(changelog.id).some((r) => r.url === u)),
      );
      // Quiet, proven rather than waited for: the emitter records every delivery (a row per
      // subscription, decision 0195) before it returns, so none exists for match.accepted (no
      // subscription wants it), and both deliveries of match.matched have reached their final state
      // (no late duplicate can still arrive).
      expect(
        await h
          .knex('webhook_deliveries')
          .whereIn('subscription_id', [teamHook.id, otherTeamHook.id, seekerHook.id])
          .andWhere({ event_id: accepted.id }),
      ).toHaveLength(0);
      await eventually(async () => {
        const rows = await h.knex('webhook_deliveries').where({ event_id: matched.id });
        return rows.length === 2 && rows.every((r: { state: string }) => r.state === 'delivered');
      });
      expect(
        rx
          .forEvent(matched.id)
          .map((r) => r.url)
          .sort(),
      ).toEqual(['/seeker-hook', '/team-hook']);
      expect(
        rx
          .forEvent(matched.id)
          .map((r) => r.headers['svc-subscription-id'])
          .sort(),
      ).toEqual([seekerHook.id, teamHook.id].sort());
      expect(rx.forEvent(accepted.id)).toHaveLength(0);
      expect(rx.forEvent(changelog.id).map((r) => r.url)).toEqual(
        expect.arrayContaining(['/team-hook', '/seeker-hook']),
      );
      expect(rx.forEvent(changelog.id).map((r) => r.url)).not.toContain('/other-team');
      expect(await h.knex('webhook_deliveries').where({ event_id: matched.id })).toHaveLength(2);
      expect(await h.knex('webhook_deliveries').where({ subscription_id: otherTeamHook.id })).toHaveLength(0);
      const sig = rx.forEvent(matched.id).find((r) => r.url === '/team-hook')!;
      expect(
        verifyWebhookSignature({ payload: sig.rawBody, header: sig.headers['svc-signature'], secret: teamHook.secret }),
      ).toBe(true);
      expect(sig.json.data).toEqual({ match_id: 'm-1', role_title: 'Engineer', seeker_headline: 'TS dev' });

      // Oversize: the raw body would exceed 64 KB → not delivered, never truncated, recorded.
      const big = await emit({
        type: 'match.matched',
        ownerTeamId: rec.teamId,
        data: { role_title: 'x'.repeat(64 * 1024) },
      });
      const logged = await eventually(async () => {
        const log = (
          await h.call({ method: 'GET', url: `/api/v1/webhooks/${teamHook.id}/deliveries`, token: rec.token })
        ).json();
        return log.deliveries.find((d: { event_id: string }) => d.event_id === big.id);
      });
      expect(logged).toMatchObject({
        state: 'oversize',
        outcome: 'not_sent',
        error_kind: 'oversize',
        attempt: null,
        http_status: null,
      });
      expect(rx.forEvent(big.id)).toHaveLength(0);
      const justUnder = await emit({
        type: 'match.matched',
        ownerTeamId: rec.teamId,
        data: { role_title: 'y'.repeat(64 * 1024 - 200) },
      });
      await eventually(async () => rx.forEvent(justUnder.id).length === 1);
      expect(Buffer.byteLength(rx.forEvent(justUnder.id)[0].rawBody)).toBeLessThanOrEqual(64 * 1024);
    },
  );

  it('DELETE stops future deliveries and hides the subscription', async () => {
    const s = await h.seeker();
    const w = (await create(s, { target_url: rx.url('/gone'), events: ['match.matched'] })).json();
    const del = await h.call({ method: 'DELETE', url: `/api/v1/webhooks/${w.id}`, token: s.token });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ id: w.id, deleted: true, cancelled_deliveries: 0 });
    expect((await h.call({ method: 'GET', url: `/api/v1/webhooks/${w.id}`, token: s.token })).statusCode).toBe(404);
    expect((await h.call({ method: 'DELETE', url: `/api/v1/webhooks/${w.id}`, token: s.token })).statusCode).toBe(404);
    const e = await emit({ type: 'match.matched', ownerUserIds: [s.user.id] });
    // The emitter records every delivery before it returns: none was recorded for the deleted subscription.
    expect(await h.knex('webhook_deliveries').where({ subscription_id: w.id, event_id: e.id })).toHaveLength(0);
    expect(rx.forEvent(e.id)).toHaveLength(0);
    expect((await h.knex('webhook_subscriptions').where({ id: w.id }).first()).status).toBe('deleted');
    const desc = await h.temporal.workflow.getHandle(webhookSubscriptionWorkflowId(w.id)).describe();
    expect(desc.status.name).toBe('COMPLETED');
  });

  it('a subscription without a description answers "" (a string, as the spec types it) on every read path', async () => {
    const s = await h.seeker();
    const created = await create(s, { target_url: rx.url('/no-description'), events: ['match.accepted'] });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect(created.json().description).toBe('');
    const read = async () => ({
      get: (await h.call({ method: 'GET', url: `/api/v1/webhooks/${id}`, token: s.token })).json().description,
      list: (await h.call({ method: 'GET', url: '/api/v1/webhooks', token: s.token }))
        .json()
        .data.find((w: { id: string }) => w.id === id).description,
    });
    expect(await read()).toEqual({ get: '', list: '' });
    const set = async (description: string | null) =>
      (
        await h.call({ method: 'PATCH', url: `/api/v1/webhooks/${id}`, token: s.token, payload: { description } })
      ).json().description;
    expect(await set('for my agent')).toBe('for my agent');
    // null clears it (PATCH keeps accepting null); it reads back as "".
    expect(await set(null)).toBe('');
    expect(await read()).toEqual({ get: '', list: '' });
    const rotated = await h.call({ method: 'POST', url: `/api/v1/webhooks/${id}/rotate-secret`, token: s.token });
    expect(rotated.json().description).toBe('');
    const doc = (await h.call({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const schema = doc.components.schemas.WebhookSubscription.properties.description;
    expect(schema.type).toBe('string');
  });

  it('documents every route in OpenAPI with an operationId and the event types', async () => {
    const doc = (await h.call({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const ops = Object.entries(
      doc.paths as Record<string, Record<string, { operationId?: string; description?: string }>>,
    )
      .filter(([p]) => p.includes('/webhooks'))
      .flatMap(([, item]) => Object.values(item).map((o) => o.operationId));
    expect(ops.sort()).toEqual(
      [
        'createWebhook',
        'deleteWebhook',
        'getWebhook',
        'listWebhookDeliveries',
        'listWebhooks',
        'replayWebhookDeadLetters',
        'replayWebhookDelivery',
        'rotateWebhookSecret',
        'testWebhook',
        'updateWebhook',
      ].sort(),
    );
    expect(doc.paths['/api/v1/webhooks'].post.description).toContain('interview.completed');
  });
});
