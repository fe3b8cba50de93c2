import { createHarness, eventually, type Harness } from '../helpers/harness';
import { billingStatus, checkoutAndPay } from './helpers';

describe('billing reconciliation (npm run billing:reconcile)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it(
    "a crash between the provider's charge and our record is settled from the provider, once; " +
      'a charge it never saw is closed',
    async () => {
      const rec = await h.recruiter();
      const { billing } = await checkoutAndPay(h, rec, { plan: 'pro', interval: 'month' });
      const repo = h.app.services.deps.repos.billing;
      const teamId = rec.teamId!;
      // What the charge activity had done when the process died: the record, then the provider's charge.
      await repo.insertPendingCharge({
        id: 'ch_crashed_1',
        team_id: teamId,
        reason: 'upgrade',
        plan: 'enterprise',
        interval: 'year',
        amount_cents: 199_000,
        currency: 'usd',
      });
      const customer = (await repo.findCustomer(teamId))!.customer_id;
      const local = h.app.services.localPayments!;
      const charged = await local.provider.chargeOffSession({
        teamId,
        customerId: customer,
        paymentMethodId: (await repo.findAccount(teamId))!.consent_payment_method!,
        amountCents: 199_000,
        currency: 'usd',
        idempotencyKey: 'ch_crashed_1',
        description: 'upgrade',
        plan: 'enterprise',
        interval: 'year',
        authenticationReturnUrl: 'http://jobfair.test/recruiter/billing',
      });
      expect(charged.status).toBe('succeeded');
      // And one that died before the provider heard of it.
      await repo.insertPendingCharge({
        id: 'ch_never_sent_1',
        team_id: teamId,
        reason: 'upgrade',
        plan: 'enterprise',
        interval: 'month',
        amount_cents: 19_900,
        currency: 'usd',
      });
      expect((await billingStatus(h, rec)).plan).toBe('pro');

      const r = await h.app.services.billing.reconcile({ olderThanMs: 0 });
      expect(r).toEqual({ checked: 2, succeeded: 1, declined: 1, waiting: 0 });
      const after = await eventually(async () => {
        const b = await billingStatus(h, rec);
        return b.plan === 'enterprise' ? b : null;
      });
      expect(after).toMatchObject({ interval: 'year', status: 'active' });
      expect(new Date(after.current_period_end).getTime()).toBeGreaterThan(
        new Date(billing.current_period_end).getTime(),
      );
      expect(
        await h
          .knex('billing_charges')
          .whereIn('id', ['ch_crashed_1', 'ch_never_sent_1'])
          .orderBy('id')
          .select('id', 'status', 'decline_code'),
      ).toEqual([
        { id: 'ch_crashed_1', status: 'succeeded', decline_code: null },
        { id: 'ch_never_sent_1', status: 'declined', decline_code: 'not_sent' },
      ]);
      // Run again: nothing left to settle; one payment at the provider for the key.
      expect(await h.app.services.billing.reconcile({ olderThanMs: 0 })).toEqual({
        checked: 0,
        succeeded: 0,
        declined: 0,
        waiting: 0,
      });
      expect(await h.knex('billing_local_payments').where({ idempotency_key: 'ch_crashed_1' }).count('* as n')).toEqual(
        [{ n: 1 }],
      );
    },
  );
});
