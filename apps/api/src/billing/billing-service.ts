import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import type Stripe from 'stripe';
import { AppError, DependencyUnavailableError, ForbiddenError, PaymentRequiredError, ConflictError } from '#lib/errors';
import { updateRefusal } from '#lib/update-refusal';
import { ProviderUnavailableError, type BillingProvider, type ProviderEvent } from '#domain/billing/provider';
import type { LocalProvider } from '#domain/billing/local-provider';
import { TEAM_MANAGER_ROLES } from '#db/accounts/accounts-repository';
import {
  cancelAtPeriodEndUpdate,
  chargeOffSessionUpdate,
  BILLING_ACCOUNT_WORKFLOW,
  BILLING_ALREADY_ON_PLAN,
  BILLING_INTERVALS,
  BILLING_NOTHING_TO_CANCEL,
  BILLING_PLANS,
  BILLING_PROVIDER_UNAVAILABLE,
  BILLING_REFUSALS,
  OFF_SESSION_CONSENT_REQUIRED,
  PLAN_CATALOGUE,
  type BillingAccountWorkflow,
  type BillingEventSignalInput,
  type BillingInterval,
  type BillingPlan,
  type BillingStatus,
  type PaidBillingPlan,
} from '#workflows/billing/contract';
import { billingAccountStartOptions, signalBillingEvent } from '#workflows/billing/client';
import type { ServiceDeps } from '../plugins/service-deps';
import type { Page } from '../plugins/pagination';
import type { BillingInvoiceRow } from '#db/billing/billing-repository';

/** The caller as a payer: a recruiter's team. */
export interface Payer {
  userId: string;
  role: 'seeker' | 'recruiter';
  teamId: string | null;
}

const isPlan = (s: unknown): s is BillingPlan =>
  typeof s === 'string' && (BILLING_PLANS as readonly string[]).includes(s);
const isInterval = (s: unknown): s is BillingInterval =>
  typeof s === 'string' && (BILLING_INTERVALS as readonly string[]).includes(s);

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

export class InvalidWebhookError extends AppError {
  constructor(message: string) {
    super(400, 'STRIPE_SIGNATURE_INVALID', message);
  }
}

/**
 * Billing use-cases (decision 0130). The team's `billing-account:<teamId>` actor owns the plan; the
 * API reads its projection, starts checkouts at the provider, and messages the actor (Updates for
 * upgrade and cancel, the `billingEvent` signal for provider events: Stripe webhooks, the local
 * provider's completed payments).
 */
export function createBillingService(
  deps: ServiceDeps & { provider: BillingProvider; local: LocalProvider | null; stripe: Stripe | null },
) {
  const { repos, config, temporal } = deps;
  const billing = repos.billing;
  const providerName = deps.provider.name;

  const unavailable = (err: unknown): never => {
    if (err instanceof ProviderUnavailableError) throw new DependencyUnavailableError('the payments provider', 5);
    throw err;
  };

  /** A seeker has nothing to buy; a recruiter pays as their team. */
  function teamOf(p: Payer): string {
    if (p.role !== 'recruiter')
      throw new ForbiddenError(
        'Billing is for recruiting teams; a job seeker has nothing to buy',
        'BILLING_NOT_FOR_SEEKERS',
      );
    if (!p.teamId)
      throw new ForbiddenError('Join or create a team first: billing belongs to a team', 'BILLING_TEAM_REQUIRED');
    return p.teamId;
  }
  async function managerTeamOf(p: Payer): Promise<string> {
    const teamId = teamOf(p);
    const m = await repos.accounts.findMembership(p.userId);
    if (!m || !TEAM_MANAGER_ROLES.has(m.role))
      throw new ForbiddenError("Only the team's owners and admins change its plan", 'BILLING_OWNER_REQUIRED');
    return teamId;
  }

  /** The team's name for the actor's start summary in the Temporal UI. */
  const teamName = async (teamId: string) => (await repos.accounts.findTeamById(teamId))?.name ?? null;
  const signal = async (teamId: string, e: BillingEventSignalInput) =>
    signalBillingEvent(temporal, config, teamId, e, await teamName(teamId));

  /** The local provider's events and Stripe's, in the actor's shape. */
  function toSignal(e: ProviderEvent): BillingEventSignalInput {
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

  async function ensureCustomer(teamId: string, userId: string): Promise<string> {
    const existing = await billing.findCustomer(teamId);
    if (existing) return existing.customer_id;
    const m = await repos.accounts.findMembership(userId);
    const user = await repos.accounts.findUserById(userId);
    const id = await deps.provider
      .createCustomer({ teamId, teamName: m?.team_name ?? teamId, email: user?.email ?? null })
      .catch(unavailable);
    return billing.insertCustomer(teamId, providerName, id);
  }

  function refusalToError(err: unknown, target?: { target_plan: string; interval: string }): never {
    const r = updateRefusal(err, BILLING_REFUSALS);
    if (!r) throw err;
    if (r.type === OFF_SESSION_CONSENT_REQUIRED) throw consentRequired(target!);
    if (r.type === BILLING_PROVIDER_UNAVAILABLE) throw new DependencyUnavailableError('the payments provider', 5);
    if (r.type === BILLING_ALREADY_ON_PLAN) throw new ConflictError(r.type, r.message, target);
    if (r.type === BILLING_NOTHING_TO_CANCEL) throw new ConflictError(r.type, r.message);
    throw err;
  }
  const consentRequired = (t: { target_plan: string; interval: string }) =>
    new PaymentRequiredError(
      OFF_SESSION_CONSENT_REQUIRED,
      'This team has not agreed to off-session charges: a human completes one checkout first ' +
        '(POST /billing/checkout), which records the consent',
      {
        ...t,
        checkout_url: `${config.publicBaseUrl}/recruiter/billing`,
      },
    );

  const service = {
    provider: providerName,
    teamOf,
    async status(p: Payer) {
      const teamId = teamOf(p);
      return { teamId, row: await billing.findAccount(teamId) };
    },
    async invoices(p: Payer, q: { limit: number; cursor?: string }): Promise<Page<BillingInvoiceRow>> {
      const teamId = teamOf(p);
      return deps.paginator.page<BillingInvoiceRow>(billing.invoicesQuery(teamId), {
        limit: q.limit,
        cursor: q.cursor,
        filter: { list: 'billing_invoices', teamId },
      });
    },

    async checkout(
      p: Payer,
      body: { mode: 'hosted' | 'embedded'; plan: PaidBillingPlan; interval: BillingInterval },
      idempotencyKey?: string,
    ) {
      const teamId = await managerTeamOf(p);
      const customerId = await ensureCustomer(teamId, p.userId);
      const amountCents = PLAN_CATALOGUE[body.plan].prices[body.interval];
      const back = `${config.publicBaseUrl}/recruiter/billing`;
      const session = await deps.provider
        .createCheckout({
          teamId,
          customerId,
          plan: body.plan,
          interval: body.interval,
          amountCents,
          currency: config.BILLING_CURRENCY,
          mode: body.mode,
          successUrl: `${back}?checkout=success`,
          cancelUrl: `${back}?checkout=cancelled`,
          returnUrl: `${back}?checkout=return&session_id={CHECKOUT_SESSION_ID}`,
          // The API's Idempotency-Key (when sent) reaches the provider too: a retried request opens one session.
          idempotencyKey: `checkout:${teamId}:${idempotencyKey ?? randomUUID()}`,
        })
        .catch(unavailable);
      return {
        id: session.id,
        mode: body.mode,
        url: session.url,
        client_secret: session.clientSecret,
        plan: body.plan,
        interval: body.interval,
        amount: amountCents,
        currency: config.BILLING_CURRENCY,
      };
    },

    /**
     * Upgrade (or change interval) by charging the consented payment method off-session: an Update
     * on the actor (update-with-start), which records the charge, asks the provider with our charge
     * id as idempotency key, and answers once the new plan is projected.
     */
    async chargeOffSession(p: Payer, body: { target_plan: PaidBillingPlan; interval: BillingInterval }) {
      const teamId = await managerTeamOf(p);
      const target = { target_plan: body.target_plan, interval: body.interval };
      const row = await billing.findAccount(teamId);
      // The projection answers the common case without a workflow round trip; the actor's validator decides the rest.
      if (!row?.consent_at) throw consentRequired(target);
      const chargeId = `ch_${randomUUID().replace(/-/g, '')}`;
      let result;
      try {
        result = await temporal.workflow.executeUpdateWithStart(chargeOffSessionUpdate, {
          args: [{ targetPlan: body.target_plan, interval: body.interval, chargeId, requestedBy: p.userId }],
          startWorkflowOperation: new WithStartWorkflowOperation<BillingAccountWorkflow>(BILLING_ACCOUNT_WORKFLOW, {
            ...billingAccountStartOptions(config, teamId, await teamName(teamId)),
            workflowIdConflictPolicy: 'USE_EXISTING',
          }),
        });
      } catch (err) {
        refusalToError(err, target);
      }
      const c = result.charge;
      if (c.outcome === 'requires_action') {
        throw new PaymentRequiredError(
          'AUTHENTICATION_REQUIRED',
          'The bank asks the card holder to authenticate this payment (SCA): open authentication_url ' +
            'in a browser; the plan changes once they do',
          {
            ...target,
            charge_id: chargeId,
            payment_id: c.paymentId,
            authentication_url: c.url,
          },
        );
      }
      if (c.outcome === 'declined') {
        throw new PaymentRequiredError(
          'CARD_DECLINED',
          `The card was declined (${c.declineCode}); nothing changed. A human can pay with another ` +
            `card through checkout`,
          {
            ...target,
            charge_id: chargeId,
            decline_code: c.declineCode,
            checkout_url: `${config.publicBaseUrl}/recruiter/billing`,
          },
        );
      }
      return {
        teamId,
        chargeId,
        paymentId: c.paymentId,
        invoiceId: c.invoice.id,
        amount: c.invoice.amountCents,
        currency: c.invoice.currency,
      };
    },

    async cancel(p: Payer) {
      const teamId = await managerTeamOf(p);
      try {
        await temporal.workflow.executeUpdateWithStart(cancelAtPeriodEndUpdate, {
          startWorkflowOperation: new WithStartWorkflowOperation<BillingAccountWorkflow>(BILLING_ACCOUNT_WORKFLOW, {
            ...billingAccountStartOptions(config, teamId, await teamName(teamId)),
            workflowIdConflictPolicy: 'USE_EXISTING',
          }),
        });
      } catch (err) {
        refusalToError(err);
      }
      return teamId;
    },

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
      await signal(e.teamId, toSignal(e));
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
          await signal(c.team_id, {
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
            await signal(c.team_id, {
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
      const normalised = await normaliseStripeEvent(event);
      if (normalised) await signal(normalised.teamId, normalised.signal);
      // Recorded after the signal: a failed signal (503) lets Stripe's retry through again.
      await billing.recordProviderEvent(event.id, event.type, normalised?.teamId ?? null);
      return { received: true, duplicate: false, ignored: !normalised };
    },
  };

  async function teamFor(
    metadata: Record<string, string> | null | undefined,
    customer: unknown,
  ): Promise<string | null> {
    const fromMeta = metadata?.team_id;
    if (fromMeta && (await billing.teamExists(fromMeta))) return fromMeta;
    const customerId = typeof customer === 'string' ? customer : ((customer as { id?: string } | null)?.id ?? null);
    return customerId ? ((await billing.findTeamByCustomer(customerId)) ?? null) : null;
  }

  async function normaliseStripeEvent(
    event: Stripe.Event,
  ): Promise<{ teamId: string; signal: BillingEventSignalInput } | null> {
    const atMs = event.created * 1000;
    const base = { eventId: event.id, atMs };
    switch (event.type) {
      case 'checkout.session.completed': {
        const s = event.data.object;
        const teamId = await teamFor(s.metadata, s.customer);
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
          signal: toSignal({
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
            currency: s.currency ?? config.BILLING_CURRENCY,
            receipt: {
              id: `in_${piId ?? s.id}`,
              number: null,
              hostedUrl: charge?.receipt_url ?? null,
              pdfUrl: null,
              createdAtMs: atMs,
            },
          }),
        };
      }
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed': {
        const pi = event.data.object;
        const chargeId = pi.metadata?.charge_id;
        const teamId = await teamFor(pi.metadata, pi.customer);
        if (!teamId || !chargeId) return null;
        const row = await billing.findCharge(chargeId);
        // Our own off-session charges are applied when they are made; an event only settles one a
        // crash left open (pending) or one that waited for authentication.
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
            ...base,
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
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.created': {
        const sub = event.data.object;
        const teamId = await teamFor(sub.metadata, sub.customer);
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
            ...base,
            type: 'subscription.updated',
            ...(isPlan(plan) ? { plan } : {}),
            ...(isInterval(interval) ? { interval } : {}),
            status: STRIPE_STATUS[sub.status] ?? 'incomplete',
            ...(periodEnd ? { currentPeriodEndMs: periodEnd * 1000 } : {}),
            cancelAtPeriodEnd: !!sub.cancel_at_period_end,
            customerId: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
          },
        };
      }
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        const teamId = await teamFor(sub.metadata, sub.customer);
        return teamId ? { teamId, signal: { ...base, type: 'subscription.deleted' } } : null;
      }
      case 'invoice.paid':
      case 'invoice.payment_failed':
      case 'invoice.voided':
      case 'invoice.marked_uncollectible': {
        const inv = event.data.object;
        const teamId = await teamFor(inv.metadata, inv.customer);
        if (!teamId || !inv.id) return null;
        const status =
          event.type === 'invoice.paid'
            ? 'paid'
            : event.type === 'invoice.voided'
              ? 'void'
              : event.type === 'invoice.marked_uncollectible'
                ? 'uncollectible'
                : 'open';
        const plan = inv.metadata?.plan;
        const interval = inv.metadata?.interval;
        return {
          teamId,
          signal: {
            ...base,
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
      }
      default:
        return null;
    }
  }

  return service;
}
export type BillingService = ReturnType<typeof createBillingService>;
