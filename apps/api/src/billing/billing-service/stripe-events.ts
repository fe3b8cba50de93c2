import type Stripe from 'stripe';
import type { BillingEventSignalInput, BillingStatus } from '#workflows/billing/contract';
import type { BillingServiceDeps } from './deps';
import { isInterval, isPlan, toSignal } from './account-signal';
import { unavailable } from './refusals';

// Stripe's webhook events in the billing account actor's shape: one normaliser per event type (a
// table), null for an event of no team of ours or one that changes nothing.

type Normalised = { teamId: string; signal: BillingEventSignalInput } | null;
type EventOf<T extends Stripe.Event['type']> = Extract<Stripe.Event, { type: T }>;
type Normaliser<T extends Stripe.Event['type']> = (deps: BillingServiceDeps, event: EventOf<T>) => Promise<Normalised>;

/** Stripe subscription statuses onto ours. */
const STRIPE_STATUS: Record<string, BillingStatus> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  paused: 'past_due',
  canceled: 'canceled',
  incomplete: 'incomplete',
  incomplete_expired: 'canceled',
};

/** The team an object belongs to: its `team_id` metadata when that team exists, else its customer's team. */
async function teamFor(
  deps: BillingServiceDeps,
  metadata: Record<string, string> | null | undefined,
  customer: unknown,
): Promise<string | null> {
  const billing = deps.repos.billing;
  const fromMeta = metadata?.team_id;
  if (fromMeta && (await billing.teamExists(fromMeta))) return fromMeta;
  const customerId = typeof customer === 'string' ? customer : ((customer as { id?: string } | null)?.id ?? null);
  return customerId ? ((await billing.findTeamByCustomer(customerId)) ?? null) : null;
}

const base = (event: Stripe.Event) => ({ eventId: event.id, atMs: event.created * 1000 });

/** A paid checkout: the plan, the consent to off-session charges (the saved payment method) and its receipt. */
const checkoutCompleted: Normaliser<'checkout.session.completed'> = async (deps, event) => {
  const atMs = event.created * 1000;
  const s = event.data.object;
  const teamId = await teamFor(deps, s.metadata, s.customer);
  if (!teamId || s.payment_status !== 'paid') return null;
  const piId = typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null);
  // The session does not carry the saved payment method; its PaymentIntent does.
  const pi = piId
    ? await deps
        .stripe!.paymentIntents.retrieve(piId, { expand: ['payment_method', 'latest_charge'] })
        .catch(unavailable)
    : null;
  const pm = pi?.payment_method && typeof pi.payment_method === 'object' ? pi.payment_method : null;
  const charge = pi?.latest_charge && typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  const plan = s.metadata?.plan;
  const interval = s.metadata?.interval;
  return {
    teamId,
    signal: toSignal(deps, {
      id: event.id,
      type: 'checkout.completed',
      atMs,
      teamId,
      customerId: typeof s.customer === 'string' ? s.customer : (s.customer?.id ?? null),
      plan: plan ?? '',
      interval: interval ?? '',
      paymentId: piId ?? s.id,
      paymentMethodId: pm?.id ?? (typeof pi?.payment_method === 'string' ? pi.payment_method : null),
      cardDisplay: pm?.card ? `${pm.card.brand} •••• ${pm.card.last4}` : null,
      consent: true,
      amountCents: s.amount_total ?? 0,
      currency: s.currency ?? deps.config.BILLING_CURRENCY,
      receipt: {
        id: `in_${piId ?? s.id}`,
        number: null,
        hostedUrl: charge?.receipt_url ?? null,
        pdfUrl: null,
        createdAtMs: atMs,
      },
    }),
  };
};

/**
 * Our own off-session charges are applied when they are made; an event only settles one a crash
 * left open (pending) or one that waited for authentication.
 */
const paymentIntentSettled: Normaliser<'payment_intent.succeeded' | 'payment_intent.payment_failed'> = async (
  deps,
  event,
) => {
  const billing = deps.repos.billing;
  const atMs = event.created * 1000;
  const pi = event.data.object;
  const chargeId = pi.metadata?.charge_id;
  const teamId = await teamFor(deps, pi.metadata, pi.customer);
  if (!teamId || !chargeId) return null;
  const row = await billing.findCharge(chargeId);
  if (!row || (row.status !== 'pending' && row.status !== 'requires_action')) return null;
  const ok = event.type === 'payment_intent.succeeded';
  await billing.settleCharge(chargeId, {
    status: ok ? 'succeeded' : 'declined',
    providerPaymentId: pi.id,
    declineCode: ok ? null : (pi.last_payment_error?.decline_code ?? 'payment_failed'),
  });
  return {
    teamId,
    signal: {
      ...base(event),
      type: ok ? 'payment.succeeded' : 'payment.failed',
      paymentId: pi.id,
      ...(ok
        ? {
            plan: row.plan,
            interval: row.interval,
            invoice: {
              id: `in_${pi.id}`,
              number: null,
              amountCents: pi.amount,
              currency: pi.currency,
              status: 'paid' as const,
              plan: row.plan,
              interval: row.interval,
              periodStartMs: atMs,
              periodEndMs: null,
              hostedUrl: null,
              pdfUrl: null,
              createdAtMs: atMs,
            },
          }
        : {}),
    },
  };
};

/** A subscription created or changed at Stripe: plan, interval, status, period end, cancellation. */
const subscriptionUpdated: Normaliser<'customer.subscription.updated' | 'customer.subscription.created'> = async (
  deps,
  event,
) => {
  const sub = event.data.object;
  const teamId = await teamFor(deps, sub.metadata, sub.customer);
  if (!teamId) return null;
  const item = sub.items?.data?.[0];
  const plan = sub.metadata?.plan ?? item?.price?.metadata?.plan ?? item?.price?.lookup_key ?? undefined;
  const interval = sub.metadata?.interval ?? item?.price?.recurring?.interval;
  const periodEnd =
    (item as { current_period_end?: number } | undefined)?.current_period_end ??
    (sub as unknown as { current_period_end?: number }).current_period_end;
  return {
    teamId,
    signal: {
      ...base(event),
      type: 'subscription.updated',
      ...(isPlan(plan) ? { plan } : {}),
      ...(isInterval(interval) ? { interval } : {}),
      status: STRIPE_STATUS[sub.status] ?? 'incomplete',
      ...(periodEnd ? { currentPeriodEndMs: periodEnd * 1000 } : {}),
      cancelAtPeriodEnd: !!sub.cancel_at_period_end,
      customerId: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
    },
  };
};

const subscriptionDeleted: Normaliser<'customer.subscription.deleted'> = async (deps, event) => {
  const sub = event.data.object;
  const teamId = await teamFor(deps, sub.metadata, sub.customer);
  return teamId ? { teamId, signal: { ...base(event), type: 'subscription.deleted' } } : null;
};

const INVOICE_STATUS = {
  'invoice.paid': 'paid',
  'invoice.voided': 'void',
  'invoice.marked_uncollectible': 'uncollectible',
  'invoice.payment_failed': 'open',
} as const;

/** An invoice Stripe paid, failed to collect, voided or wrote off: recorded on the team's invoice list. */
const invoiceRecorded: Normaliser<keyof typeof INVOICE_STATUS> = async (deps, event) => {
  const inv = event.data.object;
  const teamId = await teamFor(deps, inv.metadata, inv.customer);
  if (!teamId || !inv.id) return null;
  const status = INVOICE_STATUS[event.type];
  const plan = inv.metadata?.plan;
  const interval = inv.metadata?.interval;
  return {
    teamId,
    signal: {
      ...base(event),
      type: 'invoice.recorded',
      invoice: {
        id: inv.id,
        number: inv.number ?? null,
        amountCents: status === 'paid' ? inv.amount_paid : inv.amount_due,
        currency: inv.currency,
        status,
        plan: isPlan(plan) ? plan : null,
        interval: isInterval(interval) ? interval : null,
        periodStartMs: inv.period_start ? inv.period_start * 1000 : null,
        periodEndMs: inv.period_end ? inv.period_end * 1000 : null,
        hostedUrl: inv.hosted_invoice_url ?? null,
        pdfUrl: inv.invoice_pdf ?? null,
        createdAtMs: inv.created * 1000,
      },
    },
  };
};

type AnyNormaliser = (deps: BillingServiceDeps, event: Stripe.Event) => Promise<Normalised>;
/** A normaliser under the event types it takes (the compiler holds each to its own event types). */
const handles = <T extends Stripe.Event['type']>(types: readonly T[], normalise: Normaliser<T>) =>
  types.map((type) => [type, normalise as AnyNormaliser] as const);

/** By event type; an event type not listed changes nothing. */
const NORMALISERS = new Map<Stripe.Event['type'], AnyNormaliser>([
  ...handles(['checkout.session.completed'], checkoutCompleted),
  ...handles(['payment_intent.succeeded', 'payment_intent.payment_failed'], paymentIntentSettled),
  ...handles(['customer.subscription.updated', 'customer.subscription.created'], subscriptionUpdated),
  ...handles(['customer.subscription.deleted'], subscriptionDeleted),
  ...handles(
    ['invoice.paid', 'invoice.payment_failed', 'invoice.voided', 'invoice.marked_uncollectible'],
    invoiceRecorded,
  ),
]);

/** The actor's signal for a Stripe event and the team it goes to; null when it is for none of ours or not ours to act on. */
export async function normaliseStripeEvent(deps: BillingServiceDeps, event: Stripe.Event): Promise<Normalised> {
  const normalise = NORMALISERS.get(event.type);
  return normalise ? normalise(deps, event) : null;
}
