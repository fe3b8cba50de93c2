import type { ProviderEvent } from '#domain/billing/provider';
import {
  BILLING_INTERVALS,
  BILLING_PLANS,
  type BillingEventSignalInput,
  type BillingInterval,
  type BillingPlan,
} from '#workflows/billing/contract';
import { signalBillingEvent } from '#workflows/billing/client';
import type { BillingServiceDeps } from './deps';

// Provider events reach the team's `billing-account:<teamId>` actor as its `billingEvent` signal.

export const isPlan = (s: unknown): s is BillingPlan =>
  typeof s === 'string' && (BILLING_PLANS as readonly string[]).includes(s);
export const isInterval = (s: unknown): s is BillingInterval =>
  typeof s === 'string' && (BILLING_INTERVALS as readonly string[]).includes(s);

/** The team's name for the actor's start summary in the Temporal UI. */
export const teamName = async (deps: BillingServiceDeps, teamId: string) =>
  (await deps.repos.accounts.findTeamById(teamId))?.name ?? null;

export const signalAccount = async (deps: BillingServiceDeps, teamId: string, e: BillingEventSignalInput) =>
  signalBillingEvent(deps.temporal, deps.config, teamId, e, await teamName(deps, teamId));

/** The local provider's events and Stripe's, in the actor's shape. */
export function toSignal(deps: BillingServiceDeps, e: ProviderEvent): BillingEventSignalInput {
  const { config } = deps;
  const plan = isPlan(e.plan) ? e.plan : undefined;
  const interval = isInterval(e.interval) ? e.interval : undefined;
  return {
    eventId: e.id,
    type: e.type,
    atMs: e.atMs,
    plan,
    interval,
    customerId: e.customerId,
    paymentId: e.paymentId,
    consent:
      e.consent && e.paymentMethodId
        ? { paymentMethodId: e.paymentMethodId, display: e.cardDisplay, consentedAtMs: e.atMs }
        : null,
    ...(e.receipt
      ? {
          invoice: {
            id: e.receipt.id,
            number: e.receipt.number,
            amountCents: e.amountCents,
            currency: e.currency,
            status: 'paid' as const,
            plan: plan ?? null,
            interval: interval ?? null,
            periodStartMs: e.atMs,
            periodEndMs:
              plan && interval
                ? e.atMs + (interval === 'month' ? config.BILLING_PERIOD_MONTH_MS : config.BILLING_PERIOD_YEAR_MS)
                : null,
            hostedUrl: e.receipt.hostedUrl,
            pdfUrl: e.receipt.pdfUrl,
            createdAtMs: e.receipt.createdAtMs,
          },
        }
      : {}),
  };
}
