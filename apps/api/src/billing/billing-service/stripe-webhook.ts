import type Stripe from 'stripe';
import { AppError } from '#lib/errors';
import type { BillingServiceDeps } from './deps';
import { signalAccount } from './account-signal';
import { normaliseStripeEvent } from './stripe-events';

export class InvalidWebhookError extends AppError {
  constructor(message: string) {
    super(400, 'STRIPE_SIGNATURE_INVALID', message);
  }
}

export function stripeWebhookUseCase(deps: BillingServiceDeps) {
  const { config } = deps;
  const billing = deps.repos.billing;
  return {
    /**
     * POST /stripe/webhook: verified with `stripe.webhooks.constructEvent` on the raw body (a forged or
     * stale signature → 400, nothing changes), normalised, and signalled to the team's actor, which
     * deduplicates by Stripe's event id. Events of no team of ours are acknowledged and ignored.
     */
    async stripeWebhook(
      rawBody: Buffer,
      signature: string | undefined,
    ): Promise<{ received: true; duplicate: boolean; ignored: boolean }> {
      if (!deps.stripe || !config.STRIPE_WEBHOOK_SECRET)
        throw new AppError(
          404,
          'NOT_FOUND',
          'Stripe webhooks are not configured (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)',
        );
      if (!signature) throw new InvalidWebhookError('Missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = deps.stripe.webhooks.constructEvent(rawBody, signature, config.STRIPE_WEBHOOK_SECRET);
      } catch (err) {
        throw new InvalidWebhookError(`Stripe signature verification failed: ${(err as Error).message}`);
      }
      if (await billing.isProviderEventRecorded(event.id)) return { received: true, duplicate: true, ignored: false };
      const normalised = await normaliseStripeEvent(deps, event);
      if (normalised) await signalAccount(deps, normalised.teamId, normalised.signal);
      // Recorded after the signal: a failed signal (503) lets Stripe's retry through again.
      await billing.recordProviderEvent(event.id, event.type, normalised?.teamId ?? null);
      return { received: true, duplicate: false, ignored: !normalised };
    },
  };
}
