import type Stripe from 'stripe';
import type { BillingProvider } from '#domain/billing/provider';
import type { LocalProvider } from '#domain/billing/local-provider';
import type { ServiceDeps } from '../../plugins/service-deps';

/** What the billing use-cases are built from. */
export type BillingServiceDeps = ServiceDeps & {
  provider: BillingProvider;
  local: LocalProvider | null;
  stripe: Stripe | null;
};
