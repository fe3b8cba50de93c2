import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { billingStatus, CARDS, checkoutAndPay } from './helpers';
import { LocalPaymentError } from '#domain/billing/local-provider';
import { CHARGE_COST_BUCKET_MS } from '#apps/api/src/billing/billing-routes/payment-routes';
import { withinOneCostBucket } from '../helpers/cost-bucket';

describe('billing API (local provider, real actor)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ env: { BILLING_FREE_MAX_LIVE_EVENTS: '1' } });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const charge = (rec: TestUser, payload: unknown, headers: Record<string, string> = {}) =>
    h.call({
      method: 'POST',
      url: '/api/v1/billing/charge-offsession',
      token: rec.token,
      payload: payload as object,
      headers,
      // The charge's automatic cost bucket applies only without a key: send only the test's own.
      idempotencyKey: false,
    });

  it('lists the plan catalogue publicly', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/billing/plans' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.plans.map((p: { id: string }) => p.id)).toEqual(['free', 'pro', 'enterprise']);
    expect(body.plans[0].limits.live_events).toBe(1);
    expect(body.intervals).toEqual(['month', 'year']);
  });

  it('a seeker has nothing to buy; a new team is free and active', async () => {
    const seeker = await h.seeker();
    const res = await h.call({ method: 'GET', url: '/api/v1/billing/status', token: seeker.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('BILLING_NOT_FOR_SEEKERS');
    const rec = await h.recruiter();
    const b = await billingStatus(h, rec);
    expect(b).toMatchObject({
      plan: 'free',
      status: 'active',
      interval: null,
      off_session_consent: null,
      provider: 'local',
    });
  });

  it('unknown plan or interval → 400 VALIDATION naming the allowed values', async () => {
    const rec = await h.recruiter();
    const res = await charge(rec, { target_plan: 'platinum', interval: 'month' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION');
    expect(res.body).toMatch(/pro/);
    expect(res.body).toMatch(/enterprise/);
    const res2 = await charge(rec, { target_plan: 'pro', interval: 'week' });
    expect(res2.statusCode).toBe(400);
    expect(res2.body).toMatch(/month/);
    const res3 = await h.call({
      method: 'POST',
      url: '/api/v1/billing/checkout',
      token: rec.token,
      payload: { mode: 'popup' },
    });
    expect(res3.statusCode).toBe(400);
    expect(res3.body).toMatch(/hosted/);
  });

  it(
    'without prior consent, charge-offsession → 402 OFF_SESSION_CONSENT_REQUIRED with ' +
      'target_plan and interval; nothing changes',
    async () => {
      const rec = await h.recruiter();
      const res = await charge(rec, { target_plan: 'pro', interval: 'year' });
      expect(res.statusCode).toBe(402);
      expect(res.json()).toMatchObject({
        code: 'OFF_SESSION_CONSENT_REQUIRED',
        details: { target_plan: 'pro', interval: 'year' },
      });
      expect((await billingStatus(h, rec)).plan).toBe('free');
      expect(await h.knex('billing_charges').where({ team_id: rec.teamId }).count('* as n')).toEqual([{ n: 0 }]);
    },
  );

  it('hosted checkout: a url to open; paying records consent, the plan and an invoice', async () => {
    const rec = await h.recruiter();
    const { session, billing } = await checkoutAndPay(h, rec, { mode: 'hosted', plan: 'pro', interval: 'month' });
    expect(session.url).toMatch(/^http:\/\/jobfair\.test\/billing\/local\/checkout\/cs_local_/);
    expect(session.client_secret).toBeNull();
    expect(session.amount).toBe(4900);
    expect(billing).toMatchObject({ plan: 'pro', interval: 'month', status: 'active', cancel_at_period_end: false });
    expect(billing.off_session_consent.payment_method).toMatch(/4242$/);
    expect(new Date(billing.current_period_end).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const inv = await eventually(async () => {
      const r = (await h.call({ method: 'GET', url: '/api/v1/billing/invoices', token: rec.token })).json();
      return r.data.length === 1 ? r.data[0] : null;
    });
    expect(inv).toMatchObject({ amount: 4900, status: 'paid', plan: 'pro', interval: 'month' });
    expect(inv.hosted_invoice_url).toMatch(/\/billing\/local\/invoices\/in_local_/);
    expect(inv.invoice_pdf).toMatch(/\.pdf$/);
  });

  it(
    'embedded checkout: a client_secret for the form; a card that asks for authentication ' + 'completes after it',
    async () => {
      const rec = await h.recruiter();
      const { session, billing } = await checkoutAndPay(h, rec, {
        mode: 'embedded',
        plan: 'enterprise',
        interval: 'year',
        card: CARDS.authenticate,
      });
      expect(session.url).toBeNull();
      expect(session.client_secret).toMatch(/^cs_local_[0-9a-f]+_secret_[0-9a-f]+$/);
      expect(billing).toMatchObject({ plan: 'enterprise', interval: 'year', status: 'active' });
      // The form must present the secret: a wrong one finds no session.
      await expect(h.app.services.localPayments!.session(session.id, 'cs_local_wrong')).rejects.toBeInstanceOf(
        LocalPaymentError,
      );
    },
  );

  it('a declined card in checkout changes nothing and the session stays open for another card', async () => {
    const rec = await h.recruiter();
    const res = await h.call({
      method: 'POST',
      url: '/api/v1/billing/checkout',
      token: rec.token,
      payload: { mode: 'hosted', plan: 'pro', interval: 'month' },
    });
    const id = res.json().id;
    await expect(h.app.services.localPayments!.pay(id, CARDS.declined)).rejects.toMatchObject({
      code: 'card_declined',
    });
    expect((await h.app.services.localPayments!.session(id)).status).toBe('open');
    expect((await billingStatus(h, rec)).plan).toBe('free');
  });

  it('consent, then an off-session charge moves the plan and adds an invoice', async () => {
    const rec = await h.recruiter();
    await checkoutAndPay(h, rec, { plan: 'pro', interval: 'month' });
    await withinOneCostBucket(CHARGE_COST_BUCKET_MS);
    const res = await charge(rec, { target_plan: 'enterprise', interval: 'month' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.charge).toMatchObject({ status: 'succeeded', amount: 19_900, currency: 'usd' });
    expect(body.billing).toMatchObject({ plan: 'enterprise', interval: 'month', status: 'active' });
    const invoices = (await h.call({ method: 'GET', url: '/api/v1/billing/invoices', token: rec.token })).json();
    expect(invoices.data.map((i: { amount: number }) => i.amount)).toEqual([19_900, 4_900]);
    // The identical call within a minute is the same call (the cost-bearing bucket): no second charge.
    const same = await charge(rec, { target_plan: 'enterprise', interval: 'month' });
    expect(same.statusCode).toBe(200);
    expect(same.headers['idempotent-replayed']).toBe('true');
    expect(same.json().charge.id).toBe(body.charge.id);
    // Another token asking for the plan the team is on: a conflict, not a second charge.
    const other = await charge(
      { ...rec, token: await rec.tokenWith(['billing:write']) },
      { target_plan: 'enterprise', interval: 'month' },
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('BILLING_ALREADY_ON_PLAN');
    expect(await h.knex('billing_charges').where({ team_id: rec.teamId }).count('* as n')).toEqual([{ n: 1 }]);
  });

  it(
    'SCA: the bank asks for authentication → 402 AUTHENTICATION_REQUIRED with a URL; the ' +
      'account is unchanged until the human completes it',
    async () => {
      const rec = await h.recruiter();
      await checkoutAndPay(h, rec, { plan: 'pro', interval: 'month', card: CARDS.authenticate });
      const res = await charge(rec, { target_plan: 'enterprise', interval: 'year' });
      expect(res.statusCode).toBe(402);
      const err = res.json();
      expect(err.code).toBe('AUTHENTICATION_REQUIRED');
      expect(err.details).toMatchObject({ target_plan: 'enterprise', interval: 'year' });
      expect(err.details.authentication_url).toMatch(
        /^http:\/\/jobfair\.test\/billing\/local\/authenticate\/pi_local_/,
      );
      const before = await billingStatus(h, rec);
      expect(before).toMatchObject({ plan: 'pro', interval: 'month' });
      expect(before.pending_authentication).toMatchObject({ target_plan: 'enterprise', interval: 'year' });
      // The human opens the URL and approves.
      const { event } = await h.app.services.localPayments!.authenticate(err.details.payment_id, true);
      await h.app.services.billing.deliverLocalEvent(event);
      const after = await eventually(async () => {
        const b = await billingStatus(h, rec);
        return b.plan === 'enterprise' ? b : null;
      });
      expect(after).toMatchObject({ interval: 'year', pending_authentication: null });
      expect((await h.knex('billing_charges').where({ id: err.details.charge_id }).first()).status).toBe('succeeded');
    },
  );

  it('a declined off-session charge → 402 CARD_DECLINED, nothing changes', async () => {
    const rec = await h.recruiter();
    await checkoutAndPay(h, rec, { plan: 'pro', interval: 'month', card: CARDS.declineOffSession });
    const res = await charge(rec, { target_plan: 'enterprise', interval: 'month' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      code: 'CARD_DECLINED',
      details: { decline_code: 'card_declined', target_plan: 'enterprise', interval: 'month' },
    });
    expect(await billingStatus(h, rec)).toMatchObject({ plan: 'pro', interval: 'month' });
  });

  it('20 concurrent charge-offsession calls with one Idempotency-Key charge once', async () => {
    const rec = await h.recruiter();
    await checkoutAndPay(h, rec, { plan: 'pro', interval: 'month' });
    const key = '3f2b8c1e-5d6a-4e7b-9c0d-1a2b3c4d5e6f';
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        charge(rec, { target_plan: 'enterprise', interval: 'year' }, { 'idempotency-key': key }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.every((c) => c === 200 || c === 409)).toBe(true);
    expect(await h.knex('billing_charges').where({ team_id: rec.teamId }).count('* as n')).toEqual([{ n: 1 }]);
    expect(
      await h.knex('billing_local_payments').where({ team_id: rec.teamId, kind: 'charge' }).count('* as n'),
    ).toEqual([{ n: 1 }]);
    // A replay afterwards answers the same charge without another.
    const replay = await charge(rec, { target_plan: 'enterprise', interval: 'year' }, { 'idempotency-key': key });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().charge.id).toBe(answers.find((a) => a.statusCode === 200)!.json().charge.id);
  });

  it('invoices paginate by the shared rules (limit, signed cursor bound to the filter)', async () => {
    const rec = await h.recruiter();
    await checkoutAndPay(h, rec, { plan: 'pro', interval: 'month' });
    expect((await charge(rec, { target_plan: 'enterprise', interval: 'month' })).statusCode).toBe(200);
    const first = (await h.call({ method: 'GET', url: '/api/v1/billing/invoices?limit=1', token: rec.token })).json();
    expect(first.data).toHaveLength(1);
    expect(first.has_more).toBe(true);
    const second = (
      await h.call({
        method: 'GET',
        url: `/api/v1/billing/invoices?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`,
        token: rec.token,
      })
    ).json();
    expect(second.data).toHaveLength(1);
    expect(second.has_more).toBe(false);
    expect(second.data[0].id).not.toBe(first.data[0].id);
    // Another team's cursor (another filter) is refused.
    const other = await h.recruiter();
    const bad = await h.call({
      method: 'GET',
      url: `/api/v1/billing/invoices?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`,
      token: other.token,
    });
    expect(bad.statusCode).toBe(400);
    const tooMany = await h.call({ method: 'GET', url: '/api/v1/billing/invoices?limit=1000', token: rec.token });
    expect(tooMany.statusCode).toBe(400);
  });

  it('cancel keeps the plan until the period ends; free has nothing to cancel', async () => {
    const rec = await h.recruiter();
    const none = await h.call({ method: 'POST', url: '/api/v1/billing/cancel', token: rec.token });
    expect(none.statusCode).toBe(409);
    expect(none.json().code).toBe('BILLING_NOTHING_TO_CANCEL');
    await checkoutAndPay(h, rec);
    const res = await h.call({ method: 'POST', url: '/api/v1/billing/cancel', token: rec.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().billing).toMatchObject({ plan: 'pro', cancel_at_period_end: true });
  });

  it('only owners and admins change the plan', async () => {
    const owner = await h.recruiter();
    const member = await h.recruiter({ teamId: owner.teamId! });
    const res = await h.call({
      method: 'POST',
      url: '/api/v1/billing/checkout',
      token: member.token,
      payload: { mode: 'hosted' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('BILLING_OWNER_REQUIRED');
    expect((await h.call({ method: 'GET', url: '/api/v1/billing/status', token: member.token })).statusCode).toBe(200);
  });
});
