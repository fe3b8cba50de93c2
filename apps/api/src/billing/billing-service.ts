import type { BillingServiceDeps } from './billing-service/deps';
import { teamOf } from './billing-service/payer';
import { accountReads } from './billing-service/account-reads';
import { checkoutUseCase } from './billing-service/checkout';
import { planChanges } from './billing-service/plan-changes';
import { providerEvents } from './billing-service/provider-events';
import { stripeWebhookUseCase } from './billing-service/stripe-webhook';

export type { Payer } from './billing-service/payer';
export { InvalidWebhookError } from './billing-service/stripe-webhook';

/**
 * Billing use-cases (decision 0130). The team's `billing-account:<teamId>` actor owns the plan; the
 * API reads its projection, starts checkouts at the provider, and messages the actor (Updates for
 * upgrade and cancel, the `billingEvent` signal for provider events: Stripe webhooks, the local
 * provider's completed payments). One module per use-case group in `billing-service/`.
 */
export function createBillingService(deps: BillingServiceDeps) {
  return {
    provider: deps.provider.name,
    teamOf,
    ...accountReads(deps),
    ...checkoutUseCase(deps),
    ...planChanges(deps),
    ...providerEvents(deps),
    ...stripeWebhookUseCase(deps),
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
