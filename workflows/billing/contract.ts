import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { detailLines, temporalName, type StartMetadata } from '../shared/contract';
/**
 * Contract of the billing capability: the `billing-account:<teamId>` actor, the plan catalogue and
 * the billing vocabularies. No I/O: workflows, activities, clients, the API and db import it.
 */
export const billingAccountWorkflowId = (teamId: string): string => `billing-account:${teamId}`;

/** Plans a team can be on; `free` is where every team starts and where a lapsed one returns. */
export const BILLING_PLANS = ['free', 'pro', 'enterprise'] as const;
export type BillingPlan = (typeof BILLING_PLANS)[number];
export const PAID_BILLING_PLANS = ['pro', 'enterprise'] as const satisfies readonly BillingPlan[];
export type PaidBillingPlan = (typeof PAID_BILLING_PLANS)[number];
export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
/** Stripe Billing's subscription statuses that matter here. */
export const BILLING_STATUSES = ['active', 'past_due', 'canceled', 'incomplete'] as const;
export type BillingStatus = (typeof BILLING_STATUSES)[number];
export const BILLING_INVOICE_STATUSES = ['paid', 'open', 'void', 'uncollectible'] as const;
export type BillingInvoiceStatus = (typeof BILLING_INVOICE_STATUSES)[number];
/** What a charge was for. */
export const BILLING_CHARGE_REASONS = ['upgrade', 'renewal'] as const;
export type BillingChargeReason = (typeof BILLING_CHARGE_REASONS)[number];
/** Where a charge stands in our record (`pending`: sent to the provider, outcome not yet recorded — `npm run billing:reconcile` settles it). */
export const BILLING_CHARGE_STATUSES = ['pending', 'succeeded', 'requires_action', 'declined'] as const;
export type BillingChargeStatus = (typeof BILLING_CHARGE_STATUSES)[number];

export interface PlanDefinition {
  name: string;
  /** Live (or paused) events a team may have at once; null = unlimited. */
  maxLiveEvents: number | null;
  /** Recruiters in the team; null = unlimited. */
  maxSeats: number | null;
  /** Price per interval in the smallest currency unit (cents). */
  prices: Record<BillingInterval, number>;
}

/**
 * The catalogue (decision 0130): what each plan costs and buys. It is code, not environment: prices
 * are part of the published contract (GET /billing/plans, OpenAPI enums) and change with a release.
 */
export const PLAN_CATALOGUE: Record<BillingPlan, PlanDefinition> = {
  free: { name: 'Free', maxLiveEvents: 1, maxSeats: 3, prices: { month: 0, year: 0 } },
  pro: { name: 'Pro', maxLiveEvents: 5, maxSeats: 25, prices: { month: 4_900, year: 49_000 } },
  enterprise: { name: 'Enterprise', maxLiveEvents: null, maxSeats: null, prices: { month: 19_900, year: 199_000 } },
};

/**
 * Live events at once a plan allows. Free's comes from BILLING_FREE_MAX_LIVE_EVENTS (default 1, the
 * catalogue's); the test harness raises it for suites that are not about billing.
 */
export function maxLiveEventsOf(plan: BillingPlan, freeMaxLiveEvents: number): number | null {
  return plan === 'free' ? freeMaxLiveEvents : PLAN_CATALOGUE[plan].maxLiveEvents;
}

/** The recorded one-time consent to charge the saved payment method off-session. */
export interface BillingConsent {
  paymentMethodId: string;
  /** Card brand and last four digits, for the page. */
  display: string | null;
  consentedAtMs: number;
}

/** A charge that waits for the human to authenticate (SCA). */
export interface PendingAuthentication {
  paymentId: string;
  targetPlan: PaidBillingPlan;
  interval: BillingInterval;
  url: string;
}

export interface BillingAccountState {
  teamId: string;
  plan: BillingPlan;
  interval: BillingInterval | null;
  status: BillingStatus;
  providerCustomerId: string | null;
  consent: BillingConsent | null;
  currentPeriodEndMs: number | null;
  cancelAtPeriodEnd: boolean;
  /** Failed renewal attempts in a row (dunning). */
  failedRenewals: number;
  /** When the next renewal retry runs while past_due. */
  nextRetryAtMs: number | null;
  pendingAuthentication: PendingAuthentication | null;
  /**
   * A Stripe subscription reports this account (customer.subscription.* events): Stripe renews and
   * dunning is its own, so the actor runs no renewal timer of its own (no double charge).
   */
  providerManaged: boolean;
}

export interface BillingAccountInput {
  teamId: string;
  /** BILLING_PERIOD_MONTH_MS / BILLING_PERIOD_YEAR_MS. */
  periodMs: Record<BillingInterval, number>;
  /** BILLING_DUNNING_SCHEDULE_MS: delays before renewal retries 1..n; after the last one fails the team returns to free. */
  dunningScheduleMs: number[];
  currency: string;
  /** Carried across continue-as-new. */
  state?: BillingAccountState;
  recentEventIds?: string[];
}
export type BillingAccountResult = BillingAccountState;

export function initialBillingState(teamId: string): BillingAccountState {
  return {
    teamId,
    plan: 'free',
    interval: null,
    status: 'active',
    providerCustomerId: null,
    consent: null,
    currentPeriodEndMs: null,
    cancelAtPeriodEnd: false,
    failedRenewals: 0,
    nextRetryAtMs: null,
    pendingAuthentication: null,
    providerManaged: false,
  };
}

/** An invoice as the provider reported it (recorded by the actor's activity, upserted by id). */
export interface BillingInvoiceRecord {
  id: string;
  number: string | null;
  amountCents: number;
  currency: string;
  status: BillingInvoiceStatus;
  plan: BillingPlan | null;
  interval: BillingInterval | null;
  periodStartMs: number | null;
  periodEndMs: number | null;
  hostedUrl: string | null;
  pdfUrl: string | null;
  createdAtMs: number;
}

/** The provider events the actor understands, normalised from Stripe's or the local provider's. */
export const BILLING_EVENT_TYPES = [
  'checkout.completed',
  'payment.succeeded',
  'payment.failed',
  'subscription.updated',
  'subscription.deleted',
  'invoice.recorded',
] as const;
export type BillingEventType = (typeof BILLING_EVENT_TYPES)[number];

/** Signal `billingEvent`: one per provider event, deduplicated by `eventId` (Stripe's `evt_…`). */
export interface BillingEventSignalInput {
  eventId: string;
  type: BillingEventType;
  atMs: number;
  plan?: BillingPlan;
  interval?: BillingInterval;
  status?: BillingStatus;
  customerId?: string | null;
  /** checkout.completed with setup_future_usage=off_session: the saved payment method. */
  consent?: BillingConsent | null;
  currentPeriodEndMs?: number | null;
  cancelAtPeriodEnd?: boolean;
  /** payment.succeeded / payment.failed: the payment it settles (clears a pending authentication). */
  paymentId?: string;
  invoice?: BillingInvoiceRecord;
}

export interface ChargeOffSessionUpdateInput {
  targetPlan: PaidBillingPlan;
  interval: BillingInterval;
  /** Our charge id; the provider's idempotency key, so a retried call charges once. */
  chargeId: string;
  requestedBy: string;
}

export type ChargeOutcome =
  | { outcome: 'succeeded'; paymentId: string; invoice: BillingInvoiceRecord }
  | { outcome: 'requires_action'; paymentId: string; url: string }
  | { outcome: 'declined'; paymentId: string | null; declineCode: string };

export interface ChargeOffSessionUpdateResult {
  charge: ChargeOutcome;
  state: BillingAccountState;
}

/** Refusals of the actor's Updates (the API maps them to 402/409). */
export const OFF_SESSION_CONSENT_REQUIRED = 'OFF_SESSION_CONSENT_REQUIRED';
export const BILLING_ALREADY_ON_PLAN = 'BILLING_ALREADY_ON_PLAN';
export const BILLING_NOTHING_TO_CANCEL = 'BILLING_NOTHING_TO_CANCEL';
/** The provider could not be reached: nothing changed (503 DEPENDENCY_UNAVAILABLE). */
export const BILLING_PROVIDER_UNAVAILABLE = 'BILLING_PROVIDER_UNAVAILABLE';
export const BILLING_REFUSALS = [
  OFF_SESSION_CONSENT_REQUIRED,
  BILLING_ALREADY_ON_PLAN,
  BILLING_NOTHING_TO_CANCEL,
  BILLING_PROVIDER_UNAVAILABLE,
] as const;

/** Provider events (Stripe webhooks, the local provider, reconciliation). */
export const billingEventSignal = defineSignal<[BillingEventSignalInput]>('billingEvent');
/** POST /billing/charge-offsession: charges the consented payment method and moves the plan. */
export const chargeOffSessionUpdate = defineUpdate<ChargeOffSessionUpdateResult, [ChargeOffSessionUpdateInput]>(
  'chargeOffSession',
);
/** POST /billing/cancel: the plan ends at the current period's end (then free). */
export const cancelAtPeriodEndUpdate = defineUpdate<BillingAccountState, []>('cancelAtPeriodEnd');
export const billingStateQuery = defineQuery<BillingAccountState>('state');

/** Workflow type `billingAccountWorkflow` (its export in workflows/index.ts). */
export const BILLING_ACCOUNT_WORKFLOW = 'billingAccountWorkflow';
export type BillingAccountWorkflow = (input: BillingAccountInput) => Promise<BillingAccountResult>;

/** What the Temporal UI shows for `billing-account:<teamId>`: the team by name (workflows/shared/summary.ts). */
export function billingAccountStartMetadata(teamId: string, teamName: string | null): StartMetadata {
  const team = temporalName(teamName, 'a team');
  return {
    staticSummary: `Billing account of ${team}`,
    staticDetails: detailLines([
      ['Team', team],
      ['Team id', teamId],
    ]),
  };
}
