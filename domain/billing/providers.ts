import type { Config } from '#lib/config';
import { createLocalProvider, type LocalPaymentsStore, type LocalProvider } from './local-provider';
import type Stripe from 'stripe';
import type { BillingProvider } from './provider';
import type { createStripeProvider as CreateStripeProvider } from './stripe-provider';

/**
 * The configured provider, built once per process (the API's services and the worker's activities):
 * `local` (default without STRIPE_SECRET_KEY) or `stripe`. `local` is also returned for its pages
 * and form handlers, which only the local provider has.
 */
export function createBillingProvider(
  config: Pick<
    Config,
    'billingProvider' | 'STRIPE_SECRET_KEY' | 'STRIPE_API_BASE' | 'STRIPE_TIMEOUT_MS' | 'publicBaseUrl'
  >,
  localStore: LocalPaymentsStore,
): { provider: BillingProvider; local: LocalProvider | null; stripe: Stripe | null } {
  if (config.billingProvider === 'stripe') {
    // Required here, not imported at the top: the Stripe SDK (~220 files) is loaded only by a
    // process configured for Stripe; with the local provider it is never in memory (decision 0210).
    const { createStripeProvider } = require('./stripe-provider') as {
      createStripeProvider: typeof CreateStripeProvider;
    };
    const stripe = createStripeProvider({
      secretKey: config.STRIPE_SECRET_KEY!,
      apiBase: config.STRIPE_API_BASE,
      timeoutMs: config.STRIPE_TIMEOUT_MS,
    });
    return { provider: stripe, local: null, stripe: stripe.stripe };
  }
  const local = createLocalProvider({ store: localStore, publicBaseUrl: config.publicBaseUrl });
  return { provider: local.provider, local, stripe: null };
}
