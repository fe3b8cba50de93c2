import { createHarness, eventually, type Harness } from '../helpers/harness';
import { billingStatus, CARDS, checkoutAndPay } from './helpers';

/**
 * Renewal and dunning on millisecond schedules: the real billing-account actor, its durable timers
 * and the local provider. A month lasts 1.5 s; a failed renewal is retried after 300 ms, 300 ms, 300 ms.
 */
describe('billing renewals and dunning', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        BILLING_PERIOD_MONTH_MS: '1500',
        BILLING_PERIOD_YEAR_MS: '60000',
        BILLING_DUNNING_SCHEDULE_MS: '300,300,300',
        BILLING_FREE_MAX_LIVE_EVENTS: '1',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('a renewal that succeeds starts the next period and adds an invoice', async () => {
    const rec = await h.recruiter();
    const { billing } = await checkoutAndPay(h, rec, { plan: 'pro', interval: 'month' });
    const firstEnd = new Date(billing.current_period_end).getTime();
    const renewed = await eventually(async () => {
      const b = await billingStatus(h, rec);
      return new Date(b.current_period_end).getTime() > firstEnd ? b : null;
    }, 20_000);
    expect(renewed).toMatchObject({ plan: 'pro', status: 'active', failed_renewals: 0 });
    // The next period follows on from the last one (no drift by the time the timer fired).
    expect(new Date(renewed.current_period_end).getTime() - firstEnd).toBe(1500);
    const invoices = await eventually(async () => {
      const r = (await h.call({ method: 'GET', url: '/api/v1/billing/invoices', token: rec.token })).json();
      return r.data.length >= 2 ? r.data : null;
    });
    expect(invoices[0]).toMatchObject({ amount: 4900, status: 'paid', plan: 'pro' });
  });

  it('a renewal failure → past_due → retried on the schedule → back to free (canceled)', async () => {
    const rec = await h.recruiter();
    await checkoutAndPay(h, rec, { plan: 'pro', interval: 'month', card: CARDS.declineOffSession });
    const pastDue = await eventually(async () => {
      const b = await billingStatus(h, rec);
      return b.status === 'past_due' ? b : null;
    }, 20_000);
    expect(pastDue.plan).toBe('pro');
    expect(pastDue.failed_renewals).toBeGreaterThanOrEqual(1);
    expect(pastDue.next_retry_at).not.toBeNull();
    const downgraded = await eventually(async () => {
      const b = await billingStatus(h, rec);
      return b.plan === 'free' ? b : null;
    }, 20_000);
    expect(downgraded).toMatchObject({
      status: 'canceled',
      interval: null,
      current_period_end: null,
      limits: { live_events: 1 },
    });
    // One first attempt and three retries, each a recorded, declined renewal charge with its own id.
    const charges = await h
      .knex('billing_charges')
      .where({ team_id: rec.teamId, reason: 'renewal' })
      .orderBy('created_at');
    expect(charges.map((c) => c.status)).toEqual(['declined', 'declined', 'declined', 'declined']);
    expect(new Set(charges.map((c) => c.id)).size).toBe(4);
  });

  it('cancel at period end: the team returns to free when the period ends, without a charge', async () => {
    const rec = await h.recruiter();
    await checkoutAndPay(h, rec, { plan: 'pro', interval: 'year' });
    expect((await h.call({ method: 'POST', url: '/api/v1/billing/cancel', token: rec.token })).statusCode).toBe(200);
    // A year here is 60 s: still pro now.
    expect(await billingStatus(h, rec)).toMatchObject({ plan: 'pro', cancel_at_period_end: true });
    const rec2 = await h.recruiter();
    await checkoutAndPay(h, rec2, { plan: 'pro', interval: 'month' });
    expect((await h.call({ method: 'POST', url: '/api/v1/billing/cancel', token: rec2.token })).statusCode).toBe(200);
    const after = await eventually(async () => {
      const b = await billingStatus(h, rec2);
      return b.plan === 'free' ? b : null;
    }, 20_000);
    expect(after.status).toBe('canceled');
    expect(await h.knex('billing_charges').where({ team_id: rec2.teamId, reason: 'renewal' }).count('* as n')).toEqual([
      { n: 0 },
    ]);
  });
});
