import type { ProviderEvent } from '#domain/billing/provider';
import type { BillingServiceDeps } from './deps';
import { signalAccount, toSignal } from './account-signal';
import { unavailable } from './refusals';

/** What the local provider reports, and what `billing:reconcile` finds at the provider, reach the team's actor. */
export function providerEvents(deps: BillingServiceDeps) {
  const billing = deps.repos.billing;
  return {
    /** A completed local payment (hosted page, embedded form, authentication page) → the team's actor. */
    async deliverLocalEvent(e: ProviderEvent | null): Promise<void> {
      if (!e) return;
      if (e.type !== 'checkout.completed') {
        // An off-session payment the human authenticated (or failed to): settle our charge record too.
        const key = (await billing.findLocalPayment(e.paymentId))?.idempotency_key;
        const charge = key ? await billing.findCharge(key) : undefined;
        if (charge)
          await billing.settleCharge(charge.id, {
            status: e.type === 'payment.succeeded' ? 'succeeded' : 'declined',
            providerPaymentId: e.paymentId,
            declineCode: e.type === 'payment.failed' ? 'authentication_failed' : null,
          });
      }
      await signalAccount(deps, e.teamId, toSignal(deps, e));
    },

    /**
     * `npm run billing:reconcile`: upgrade charges a crash left open (recorded `pending`, or waiting
     * for authentication) are looked up at the provider by our charge id; what the provider did is
     * settled in our record and signalled to the actor (event id `reconcile_<chargeId>`, so a second
     * run changes nothing). A charge the provider never saw is closed as `declined` (`not_sent`).
     */
    async reconcile(opts: {
      olderThanMs: number;
    }): Promise<{ checked: number; succeeded: number; declined: number; waiting: number }> {
      const out = { checked: 0, succeeded: 0, declined: 0, waiting: 0 };
      for (const c of await billing.listUnsettledCharges(new Date(Date.now() - opts.olderThanMs))) {
        out.checked++;
        const r = await deps.provider
          .findCharge({ idempotencyKey: c.id, providerPaymentId: c.provider_payment_id })
          .catch(unavailable);
        const atMs = Date.now();
        if (r?.status === 'succeeded') {
          await billing.settleCharge(c.id, { status: 'succeeded', providerPaymentId: r.paymentId });
          await signalAccount(deps, c.team_id, {
            eventId: `reconcile_${c.id}`,
            type: 'payment.succeeded',
            atMs,
            plan: c.plan,
            interval: c.interval,
            paymentId: r.paymentId,
            invoice: {
              id: r.receipt.id,
              number: r.receipt.number,
              amountCents: c.amount_cents,
              currency: c.currency,
              status: 'paid',
              plan: c.plan,
              interval: c.interval,
              periodStartMs: atMs,
              periodEndMs: null,
              hostedUrl: r.receipt.hostedUrl,
              pdfUrl: r.receipt.pdfUrl,
              createdAtMs: r.receipt.createdAtMs,
            },
          });
          out.succeeded++;
        } else if (r?.status === 'requires_action') {
          out.waiting++;
        } else {
          await billing.settleCharge(c.id, {
            status: 'declined',
            providerPaymentId: r?.paymentId ?? null,
            declineCode: r ? r.declineCode : 'not_sent',
          });
          if (r?.paymentId)
            await signalAccount(deps, c.team_id, {
              eventId: `reconcile_${c.id}`,
              type: 'payment.failed',
              atMs,
              paymentId: r.paymentId,
            });
          out.declined++;
        }
      }
      return out;
    },
  };
}
