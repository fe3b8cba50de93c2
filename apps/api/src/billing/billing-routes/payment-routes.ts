import { z } from 'zod';
import { requireAuth } from '../../plugins/auth';
import { errorEnvelopeSchema } from '../../plugins/http-schemas';
import {
  billingStatusSchema,
  chargeBodySchema,
  chargeResultSchema,
  checkoutBodySchema,
  checkoutSchema,
  toBillingStatus,
} from '../billing-schemas';
import { PAYER, payer, tags, write, type BillingApp } from './route-settings';

/** Identical off-session charges by one token within a minute are one call (the spec's automatic bucket for cost-bearing routes). */
export const CHARGE_COST_BUCKET_MS = 60_000;

/** POST /billing/checkout. */
export function checkoutRoutes(app: BillingApp): void {
  const service = app.services.billing;

  app.post('/billing/checkout', {
    config: write,
    schema: {
      operationId: 'createBillingCheckout',
      tags,
      summary: 'Start a checkout for a plan (hosted page or embedded form)',
      description:
        `A human pays once in the browser; the payment method is saved with ` +
        `\`setup_future_usage=off_session\`, which records the team's one-time consent to ` +
        `off-session charges (POST /billing/charge-offsession). \`mode: "hosted"\` answers a ` +
        `\`url\` to open; \`mode: "embedded"\` answers a \`client_secret\` for the embedded form. ` +
        `The plan changes when the provider reports the payment (Stripe: ` +
        `\`checkout.session.completed\` at POST /stripe/webhook). Team owners and admins only ` +
        `(else 403 \`BILLING_OWNER_REQUIRED\`). ${PAYER}`,
      body: checkoutBodySchema,
      response: { 201: checkoutSchema, 403: errorEnvelopeSchema },
    },
    handler: async (request, reply) => {
      const key = request.headers['idempotency-key'];
      const out = await service.checkout(
        payer(requireAuth(request)),
        request.body,
        typeof key === 'string' ? key : undefined,
      );
      return reply.code(201).send(out);
    },
  });
}

/** POST /billing/charge-offsession and /billing/cancel. */
export function planChangeRoutes(app: BillingApp): void {
  const service = app.services.billing;
  const freeMax = app.config.BILLING_FREE_MAX_LIVE_EVENTS;

  app.post('/billing/charge-offsession', {
    config: { scope: 'billing:write', rateClass: 'cost', costBucketMs: CHARGE_COST_BUCKET_MS },
    schema: {
      operationId: 'chargeBillingOffSession',
      tags,
      summary: 'Move to a plan by charging the saved payment method off-session',
      description: [
        `Cost-bearing. Charges the team's consented payment method the price of \`target_plan\` ` +
          `for \`interval\` and starts a new period on that plan (no proration).`,
        '- No prior one-time consent (no completed checkout) → 402 `OFF_SESSION_CONSENT_REQUIRED` ' +
          'with `details.target_plan`, `details.interval`, `details.checkout_url`.',
        '- The bank asks for authentication (SCA) → 402 `AUTHENTICATION_REQUIRED` with ' +
          '`details.authentication_url` for a human to open; the account is unchanged until they ' +
          'complete it.',
        '- Declined → 402 `CARD_DECLINED` with `details.decline_code`; nothing changes.',
        '- Already on that plan and interval → 409 `BILLING_ALREADY_ON_PLAN`. The provider ' +
          'unreachable → 503 `DEPENDENCY_UNAVAILABLE` with Retry-After, nothing changed.',
        `Fired many times with one Idempotency-Key, it charges once (our charge id is also the ` +
          `provider's idempotency key). ${PAYER}`,
      ].join('\n'),
      body: chargeBodySchema,
      response: { 200: chargeResultSchema, 402: errorEnvelopeSchema, 403: errorEnvelopeSchema },
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const r = await service.chargeOffSession(payer(auth), request.body);
      const { row } = await service.status(payer(auth));
      return {
        charge: {
          id: r.chargeId,
          status: 'succeeded' as const,
          amount: r.amount,
          currency: r.currency,
          payment_id: r.paymentId,
          invoice_id: r.invoiceId,
        },
        billing: toBillingStatus(r.teamId, row, service.provider, freeMax),
      };
    },
  });

  app.post('/billing/cancel', {
    config: write,
    schema: {
      operationId: 'cancelBillingPlan',
      tags,
      summary: 'Cancel the paid plan at the end of the current period',
      description:
        `The team keeps its plan until \`current_period_end\`, then returns to free (status ` +
        `\`canceled\`). On free → 409 \`BILLING_NOTHING_TO_CANCEL\`. Owners and admins only. ` +
        `${PAYER}`,
      response: { 200: z.object({ billing: billingStatusSchema }), 403: errorEnvelopeSchema },
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      await service.cancel(payer(auth));
      const { teamId, row } = await service.status(payer(auth));
      return { billing: toBillingStatus(teamId, row, service.provider, freeMax) };
    },
  });
}
