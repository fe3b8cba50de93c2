import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';
import {
  BILLING_INTERVALS,
  BILLING_INVOICE_STATUSES,
  BILLING_PLANS,
  BILLING_STATUSES,
  PAID_BILLING_PLANS,
  PLAN_CATALOGUE,
  maxLiveEventsOf,
  type BillingPlan,
} from '#workflows/billing/contract';
import type { BillingAccountRow, BillingInvoiceRow } from '#db/billing/billing-repository';
import { iso } from '#lib/dates';

export const planSchema = z.enum(BILLING_PLANS);
export const paidPlanSchema = z.enum(PAID_BILLING_PLANS);
export const intervalSchema = z.enum(BILLING_INTERVALS);

export const planEntrySchema = z
  .object({
    id: planSchema,
    name: z.string(),
    limits: z.object({
      live_events: z.number().int().nullable().describe('Live (or paused) events at once; null = unlimited'),
      seats: z.number().int().nullable().describe('Recruiters in the team; null = unlimited'),
    }),
    prices: z.object({ month: z.number().int().describe('Smallest currency unit'), year: z.number().int() }),
    currency: z.string(),
  })
  .meta({ id: 'BillingPlan' });

export const plansSchema = z.object({ plans: z.array(planEntrySchema), intervals: z.array(intervalSchema) });

export const billingStatusSchema = z
  .object({
    team_id: z.uuid(),
    plan: planSchema,
    interval: intervalSchema.nullable(),
    status: z
      .enum(BILLING_STATUSES)
      .describe(
        '`active`, `past_due` (a renewal failed; retried on the dunning schedule, then back to ' +
          'free), `canceled` (back on free), `incomplete`',
      ),
    current_period_end: isoDateTime.nullable(),
    cancel_at_period_end: z.boolean(),
    off_session_consent: z
      .object({
        consented_at: isoDateTime,
        payment_method: z.string().nullable().describe('Card brand/last four, for display'),
      })
      .nullable()
      .describe(
        'The one-time agreement (given in checkout) that lets POST /billing/charge-offsession ' +
          'charge without the human present',
      ),
    failed_renewals: z.number().int().min(0),
    next_retry_at: isoDateTime.nullable(),
    pending_authentication: z
      .object({
        payment_id: z.string(),
        target_plan: paidPlanSchema,
        interval: intervalSchema,
        authentication_url: z.string(),
      })
      .nullable()
      .describe('An off-session charge waiting for the human to authenticate (SCA); the plan changes once they do'),
    limits: z.object({ live_events: z.number().int().nullable(), seats: z.number().int().nullable() }),
    provider: z.enum(['local', 'stripe']),
    updated_at: isoDateTime.nullable(),
  })
  .meta({ id: 'BillingStatus' });

export const invoiceSchema = z
  .object({
    id: z.string(),
    number: z.string().nullable(),
    amount: z.number().int().describe('Smallest currency unit'),
    currency: z.string(),
    status: z.enum(BILLING_INVOICE_STATUSES),
    plan: planSchema.nullable(),
    interval: intervalSchema.nullable(),
    period_start: isoDateTime.nullable(),
    period_end: isoDateTime.nullable(),
    hosted_invoice_url: z.string().nullable(),
    invoice_pdf: z.string().nullable(),
    created_at: isoDateTime,
  })
  .meta({ id: 'BillingInvoice' });

export const checkoutBodySchema = z.strictObject({
  mode: z
    .enum(['hosted', 'embedded'])
    .describe('`hosted`: answer a `url` to open; `embedded`: answer a `client_secret` for the embedded form'),
  plan: paidPlanSchema.default('pro').describe('Plan to buy (default pro)'),
  interval: intervalSchema.default('month').describe('Billing interval (default month)'),
});

export const checkoutSchema = z
  .object({
    id: z.string().describe('Checkout session id'),
    mode: z.enum(['hosted', 'embedded']),
    url: z.string().nullable().describe('Hosted mode: the page the human opens'),
    client_secret: z
      .string()
      .nullable()
      .describe(
        "Embedded mode: mounts the embedded form (Stripe.js `initEmbeddedCheckout`, or the local provider's form)",
      ),
    plan: paidPlanSchema,
    interval: intervalSchema,
    amount: z.number().int(),
    currency: z.string(),
  })
  .meta({ id: 'BillingCheckout' });

export const chargeBodySchema = z.strictObject({
  target_plan: paidPlanSchema.describe('The plan to move to'),
  interval: intervalSchema.describe('Its billing interval'),
});

export const chargeResultSchema = z
  .object({
    charge: z.object({
      id: z.string(),
      status: z.literal('succeeded'),
      amount: z.number().int(),
      currency: z.string(),
      payment_id: z.string(),
      invoice_id: z.string(),
    }),
    billing: billingStatusSchema,
  })
  .meta({ id: 'BillingCharge' });

export function toPlanEntry(id: BillingPlan, currency: string, freeMaxLiveEvents: number) {
  const p = PLAN_CATALOGUE[id];
  return {
    id,
    name: p.name,
    limits: { live_events: maxLiveEventsOf(id, freeMaxLiveEvents), seats: p.maxSeats },
    prices: { ...p.prices },
    currency,
  };
}

export function toBillingStatus(
  teamId: string,
  row: BillingAccountRow | undefined,
  provider: 'local' | 'stripe',
  freeMaxLiveEvents: number,
): z.infer<typeof billingStatusSchema> {
  const plan = row?.plan ?? 'free';
  const limits = { live_events: maxLiveEventsOf(plan, freeMaxLiveEvents), seats: PLAN_CATALOGUE[plan].maxSeats };
  if (!row)
    return {
      team_id: teamId,
      plan,
      interval: null,
      status: 'active',
      current_period_end: null,
      cancel_at_period_end: false,
      off_session_consent: null,
      failed_renewals: 0,
      next_retry_at: null,
      pending_authentication: null,
      limits,
      provider,
      updated_at: null,
    };
  const pa = row.pending_authentication;
  return {
    team_id: teamId,
    plan,
    interval: row.interval,
    status: row.status,
    current_period_end: iso(row.current_period_end),
    cancel_at_period_end: row.cancel_at_period_end,
    off_session_consent: row.consent_at
      ? { consented_at: iso(row.consent_at)!, payment_method: row.consent_display }
      : null,
    failed_renewals: row.failed_renewals,
    next_retry_at: iso(row.next_retry_at),
    pending_authentication: pa
      ? { payment_id: pa.paymentId, target_plan: pa.targetPlan, interval: pa.interval, authentication_url: pa.url }
      : null,
    limits,
    provider,
    updated_at: iso(row.updated_at),
  };
}

export function toInvoice(r: BillingInvoiceRow): z.infer<typeof invoiceSchema> {
  return {
    id: r.id,
    number: r.number,
    amount: r.amount_cents,
    currency: r.currency,
    status: r.status,
    plan: r.plan,
    interval: r.interval,
    period_start: iso(r.period_start),
    period_end: iso(r.period_end),
    hosted_invoice_url: r.hosted_url,
    invoice_pdf: r.pdf_url,
    created_at: iso(r.created_at)!,
  };
}
