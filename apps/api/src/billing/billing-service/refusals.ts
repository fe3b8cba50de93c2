import { ConflictError, DependencyUnavailableError, PaymentRequiredError } from '#lib/errors';
import { updateRefusal } from '#lib/update-refusal';
import { ProviderUnavailableError } from '#domain/billing/provider';
import {
  BILLING_ALREADY_ON_PLAN,
  BILLING_NOTHING_TO_CANCEL,
  BILLING_PROVIDER_UNAVAILABLE,
  BILLING_REFUSALS,
  OFF_SESSION_CONSENT_REQUIRED,
} from '#workflows/billing/contract';
import type { BillingServiceDeps } from './deps';

// How the provider's and the account actor's refusals reach the caller.

/** The provider unreachable → 503 with Retry-After; anything else as it was. */
export const unavailable = (err: unknown): never => {
  if (err instanceof ProviderUnavailableError) throw new DependencyUnavailableError('the payments provider', 5);
  throw err;
};

export const consentRequired = (deps: BillingServiceDeps, t: { target_plan: string; interval: string }) =>
  new PaymentRequiredError(
    OFF_SESSION_CONSENT_REQUIRED,
    'This team has not agreed to off-session charges: a human completes one checkout first ' +
      '(POST /billing/checkout), which records the consent',
    {
      ...t,
      checkout_url: `${deps.config.publicBaseUrl}/recruiter/billing`,
    },
  );

/** An Update the billing account actor refused, as the API's error. */
export function refusalToError(
  deps: BillingServiceDeps,
  err: unknown,
  target?: { target_plan: string; interval: string },
): never {
  const r = updateRefusal(err, BILLING_REFUSALS);
  if (!r) throw err;
  if (r.type === OFF_SESSION_CONSENT_REQUIRED) throw consentRequired(deps, target!);
  if (r.type === BILLING_PROVIDER_UNAVAILABLE) throw new DependencyUnavailableError('the payments provider', 5);
  if (r.type === BILLING_ALREADY_ON_PLAN) throw new ConflictError(r.type, r.message, target);
  if (r.type === BILLING_NOTHING_TO_CANCEL) throw new ConflictError(r.type, r.message);
  throw err;
}
