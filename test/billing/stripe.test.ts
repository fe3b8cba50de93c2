import Stripe from 'stripe';
import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { stripeMockUrl } from '../helpers/env';
import { createStripeClient, createStripeProvider } from '#domain/billing/stripe-provider';
import { ProviderUnavailableError } from '#domain/billing/provider';
import { freePort } from '#dev/ports';
import { billingStatus } from './helpers';

const WEBHOOK_SECRET = 'whsec_test_jobfair_billing';

/**
 * The Stripe adapter against stripe-mock v0.203.0 (the API of the pinned SDK 23.1.0), and what
 * stripe-mock cannot do (state across calls, webhooks) with signed fixture events posted to
 * POST /stripe/webhook.
 */
describe('billing on Stripe (stripe-mock)', () => {
  let h: Harness;
  let rec: TestUser;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        BILLING_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_jobfair',
        STRIPE_API_BASE: stripeMockUrl(),
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    });
    rec = await h.recruiter();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const signed = (event: Record<string, unknown>, o: { secret?: string; timestamp?: number } = {}) => {
    const payload = JSON.stringify({
      object: 'event',
      api_version: '2026-10-28.endive',
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      ...event,
    });
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: o.secret ?? WEBHOOK_SECRET,
      ...(o.timestamp ? { timestamp: o.timestamp } : {}),
    });
    return { payload, header };
  };
  const post = (payload: string, header: string) =>
    h.call({
      method: 'POST',
      url: '/stripe/webhook',
      payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
  const subscriptionUpdated = (id: string, status: string, extra: Record<string, unknown> = {}) =>
    signed({
      id,
      type: 'customer.subscription.updated',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: 'sub_test_1',
          object: 'subscription',
          customer: 'cus_unknown',
          status,
          cancel_at_period_end: false,
          metadata: { team_id: rec.teamId, plan: 'pro', interval: 'year' },
          items: {
            object: 'list',
            data: [
              {
                id: 'si_1',
                object: 'subscription_item',
                current_period_end: 1_900_000_000,
                price: { id: 'price_1', object: 'price', recurring: { interval: 'year' }, metadata: {} },
              },
            ],
          },
          ...extra,
        },
      },
    });

  it('hosted and embedded checkout go through the SDK to stripe-mock (ui_mode hosted_page / embedded_page)', async () => {
    const hosted = await h.call({
      method: 'POST',
      url: '/api/v1/billing/checkout',
      token: rec.token,
      payload: { mode: 'hosted', plan: 'pro', interval: 'month' },
    });
    expect(hosted.statusCode).toBe(201);
    expect(hosted.json()).toMatchObject({ mode: 'hosted', client_secret: null });
    expect(hosted.json().id).toMatch(/^cs_/);
    expect(hosted.json().url).toMatch(/^https:\/\//);
    const embedded = await h.call({
      method: 'POST',
      url: '/api/v1/billing/checkout',
      token: rec.token,
      payload: { mode: 'embedded', plan: 'enterprise', interval: 'year' },
    });
    expect(embedded.statusCode).toBe(201);
    expect(embedded.json()).toMatchObject({ mode: 'embedded', url: null, amount: 199_000 });
    expect(embedded.json()).toHaveProperty('client_secret');
    // One Stripe customer for the team, reused by the second checkout.
    const customers = await h.knex('billing_customers').where({ team_id: rec.teamId });
    expect(customers).toHaveLength(1);
    expect(customers[0]).toMatchObject({ provider: 'stripe' });
    expect(customers[0].customer_id).toMatch(/^cus_/);
  });

  it('stripe-mock validates requests against the pinned API: the old ui_mode names are refused', async () => {
    const stripe = createStripeClient({ secretKey: 'sk_test_jobfair', apiBase: stripeMockUrl(), timeoutMs: 5000 });
    await expect(
      stripe.checkout.sessions.create({
        mode: 'payment',
        ui_mode: 'embedded' as never,
        return_url: 'http://x/r',
        line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 100, product_data: { name: 'x' } } }],
      }),
    ).rejects.toThrow(/ui_mode/);
  });

  it('the adapter sends an off-session PaymentIntent and maps its outcome', async () => {
    const provider = createStripeProvider({ secretKey: 'sk_test_jobfair', apiBase: stripeMockUrl(), timeoutMs: 5000 });
    const customerId = await provider.createCustomer({
      teamId: rec.teamId!,
      teamName: 'Team',
      email: 'billing@test.local',
    });
    expect(customerId).toMatch(/^cus_/);
    const r = await provider.chargeOffSession({
      teamId: rec.teamId!,
      customerId,
      paymentMethodId: 'pm_card_visa',
      amountCents: 4900,
      currency: 'usd',
      idempotencyKey: 'ch_test_adapter_1',
      description: 'test',
      plan: 'pro',
      interval: 'month',
      authenticationReturnUrl: 'http://jobfair.test/recruiter/billing',
    });
    // stripe-mock answers a fixed fixture (status requires_payment_method): the adapter reads it as a decline, never as success.
    expect(r.status).toBe('declined');
    expect(r.paymentId).toMatch(/^pi_/);
  });

  it(
    'an unreachable Stripe → ProviderUnavailableError in the adapter, and 503 with Retry-After ' +
      'from the API with nothing changed',
    async () => {
      const port = await freePort();
      const provider = createStripeProvider({
        secretKey: 'sk_test_jobfair',
        apiBase: `http://127.0.0.1:${port}`,
        timeoutMs: 2000,
      });
      await expect(provider.createCustomer({ teamId: rec.teamId!, teamName: 'T', email: null })).rejects.toBeInstanceOf(
        ProviderUnavailableError,
      );
      const down = await createHarness({
        env: {
          BILLING_PROVIDER: 'stripe',
          STRIPE_SECRET_KEY: 'sk_test_jobfair',
          STRIPE_API_BASE: `http://127.0.0.1:${port}`,
          STRIPE_TIMEOUT_MS: '2000',
        },
        worker: false,
      });
      try {
        const r2 = await down.recruiter();
        const res = await down.call({
          method: 'POST',
          url: '/api/v1/billing/checkout',
          token: r2.token,
          payload: { mode: 'hosted' },
          retry: false,
        });
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('DEPENDENCY_UNAVAILABLE');
        expect(res.headers['retry-after']).toBeDefined();
        expect(await down.knex('billing_customers').count('* as n')).toEqual([{ n: 0 }]);
      } finally {
        await down.close();
      }
    },
  );

  it('a forged or stale webhook → 400 and nothing changes', async () => {
    const forged = subscriptionUpdated('evt_forged_1', 'past_due');
    const bad = signed(JSON.parse(forged.payload), { secret: 'whsec_someone_else' });
    const r1 = await post(forged.payload, bad.header);
    expect(r1.statusCode).toBe(400);
    expect(r1.json().code).toBe('STRIPE_SIGNATURE_INVALID');
    const stale = subscriptionUpdated('evt_stale_1', 'past_due');
    const staleSigned = signed(JSON.parse(stale.payload), { timestamp: Math.floor(Date.now() / 1000) - 600 });
    const r2 = await post(staleSigned.payload, staleSigned.header);
    expect(r2.statusCode).toBe(400);
    // A body altered after signing.
    const r3 = await post(forged.payload.replace('past_due', 'active'), forged.header);
    expect(r3.statusCode).toBe(400);
    const r4 = await h.call({
      method: 'POST',
      url: '/stripe/webhook',
      payload: forged.payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(r4.statusCode).toBe(400);
    expect(await h.knex('billing_provider_events').count('* as n')).toEqual([{ n: 0 }]);
    expect((await billingStatus(h, rec)).status).toBe('active');
  });

  it('status reflects customer.subscription.updated; the same event twice has one effect', async () => {
    const e1 = subscriptionUpdated('evt_sub_1', 'past_due');
    expect((await post(e1.payload, e1.header)).json()).toEqual({ received: true, duplicate: false, ignored: false });
    const b1 = await eventually(async () => {
      const b = await billingStatus(h, rec);
      return b.status === 'past_due' ? b : null;
    });
    expect(b1).toMatchObject({
      plan: 'pro',
      interval: 'year',
      current_period_end: new Date(1_900_000_000_000).toISOString(),
    });
    const e2 = subscriptionUpdated('evt_sub_2', 'active');
    await post(e2.payload, e2.header);
    await eventually(async () => (await billingStatus(h, rec)).status === 'active');
    // Stripe redelivers evt_sub_1: acknowledged, and the status stays what evt_sub_2 made it.
    const again = await post(e1.payload, e1.header);
    expect(again.statusCode).toBe(200);
    expect(again.json().duplicate).toBe(true);
    // Even past the API's record (e.g. two replicas racing), the actor ignores an id it has seen.
    await h.app.services.billing.stripeWebhook(Buffer.from(e1.payload), e1.header);
    const { signalBillingEvent } = await import('#workflows/billing/client');
    await signalBillingEvent(h.temporal, h.config, rec.teamId!, {
      eventId: 'evt_sub_1',
      type: 'subscription.updated',
      atMs: Date.now(),
      status: 'past_due',
    });
    // A marker that does not touch the status: once its invoice is projected, every earlier signal has been handled.
    const marker = signed({
      id: 'evt_invoice_1',
      type: 'invoice.paid',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: 'in_test_marker',
          object: 'invoice',
          customer: 'cus_unknown',
          number: 'TEST-0001',
          amount_paid: 49_000,
          amount_due: 49_000,
          currency: 'usd',
          created: Math.floor(Date.now() / 1000),
          period_start: null,
          period_end: null,
          hosted_invoice_url: 'https://invoice.stripe.com/i/test',
          invoice_pdf: 'https://pay.stripe.com/invoice/test/pdf',
          metadata: { team_id: rec.teamId, plan: 'pro', interval: 'year' },
        },
      },
    });
    await post(marker.payload, marker.header);
    await eventually(async () => (await h.knex('billing_invoices').where({ id: 'in_test_marker' }).first()) ?? null);
    const final = await billingStatus(h, rec);
    expect(final.status).toBe('active');
    const inv = (await h.call({ method: 'GET', url: '/api/v1/billing/invoices', token: rec.token }))
      .json()
      .data.find((i: { id: string }) => i.id === 'in_test_marker');
    expect(inv).toMatchObject({
      number: 'TEST-0001',
      amount: 49_000,
      status: 'paid',
      hosted_invoice_url: 'https://invoice.stripe.com/i/test',
      invoice_pdf: 'https://pay.stripe.com/invoice/test/pdf',
    });
  });

  it('checkout.session.completed records the consent (payment method from the PaymentIntent) and the plan', async () => {
    const team2 = await h.recruiter();
    const e = signed({
      id: 'evt_checkout_1',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: 'cs_test_1',
          object: 'checkout.session',
          customer: 'cus_x',
          payment_status: 'paid',
          payment_intent: 'pi_test_1',
          amount_total: 4900,
          currency: 'usd',
          metadata: { team_id: team2.teamId, plan: 'pro', interval: 'month' },
        },
      },
    });
    expect((await post(e.payload, e.header)).statusCode).toBe(200);
    const b = await eventually(async () => {
      const s = await billingStatus(h, team2);
      return s.plan === 'pro' ? s : null;
    });
    expect(b).toMatchObject({ interval: 'month', status: 'active' });
    expect(b.off_session_consent).not.toBeNull();
  });

  it('an event for no team of ours is acknowledged and ignored', async () => {
    const e = signed({
      id: 'evt_other_1',
      type: 'customer.subscription.deleted',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'sub_x', object: 'subscription', customer: 'cus_nobody', metadata: {} } },
    });
    expect((await post(e.payload, e.header)).json()).toEqual({ received: true, duplicate: false, ignored: true });
  });
});
