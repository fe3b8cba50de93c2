import Stripe from 'stripe';
import {
  ProviderUnavailableError,
  type BillingProvider,
  type ChargeResult,
  type CheckoutRequest,
  type CheckoutSession,
  type OffSessionChargeRequest,
} from './provider';

export interface StripeProviderOptions {
  secretKey: string;
  /** STRIPE_API_BASE: stripe-mock in tests, Stripe itself when unset. */
  apiBase?: string;
  timeoutMs: number;
}

/** One SDK client per process, pointed at STRIPE_API_BASE when set (stripe-mock). */
export function createStripeClient(opts: StripeProviderOptions): Stripe {
  const base = opts.apiBase ? new URL(opts.apiBase) : null;
  return new Stripe(opts.secretKey, {
    timeout: opts.timeoutMs,
    // Our callers retry (the activity, the human); the SDK's own retries would only hide an outage
    // past the API's answer time. Idempotency keys make any retry safe either way.
    maxNetworkRetries: 0,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
}

/** Network failures, timeouts, 429 and 5xx: the provider decided nothing we can rely on. */
function unavailable(err: unknown): boolean {
  const e = err as { type?: string; statusCode?: number };
  return (
    e?.type === 'StripeConnectionError' ||
    e?.type === 'StripeAPIError' ||
    e?.type === 'StripeRateLimitError' ||
    (typeof e?.statusCode === 'number' && e.statusCode >= 500)
  );
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (unavailable(err)) throw new ProviderUnavailableError(`Stripe ${what}: ${(err as Error).message}`);
    throw err;
  }
}

/**
 * Stripe through the official SDK: a Customer per team, Checkout Sessions in `payment` mode with
 * `setup_future_usage=off_session` (the one-time consent) and `ui_mode` `hosted_page` or
 * `embedded_page`, and off-session PaymentIntents (`off_session: true, confirm: true`) with our
 * charge id as the idempotency key.
 */
export function createStripeProvider(
  opts: StripeProviderOptions & { stripe?: Stripe },
): BillingProvider & { stripe: Stripe } {
  const stripe = opts.stripe ?? createStripeClient(opts);

  const fromPaymentIntent = async (
    pi: Stripe.PaymentIntent,
    req: Pick<
      OffSessionChargeRequest,
      | 'customerId'
      | 'plan'
      | 'interval'
      | 'amountCents'
      | 'currency'
      | 'idempotencyKey'
      | 'authenticationReturnUrl'
      | 'teamId'
    >,
  ): Promise<ChargeResult> => {
    if (pi.status === 'succeeded') {
      const charge = typeof pi.latest_charge === 'object' && pi.latest_charge ? pi.latest_charge : null;
      return {
        status: 'succeeded',
        paymentId: pi.id,
        receipt: {
          id: `in_${pi.id}`,
          number: null,
          hostedUrl: charge?.receipt_url ?? null,
          pdfUrl: null,
          createdAtMs: pi.created * 1000,
        },
      };
    }
    if (pi.status === 'requires_action' || pi.status === 'requires_confirmation') {
      // The human completes authentication on-session: a hosted Checkout for the same plan and price
      // (Stripe runs 3-D Secure there; its checkout.session.completed moves the plan).
      const session = await call('checkout for authentication', () =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            ui_mode: 'hosted_page',
            customer: req.customerId,
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: req.currency,
                  unit_amount: req.amountCents,
                  product_data: { name: `Job Fair ${req.plan} (${req.interval})` },
                },
              },
            ],
            payment_intent_data: {
              setup_future_usage: 'off_session',
              metadata: { team_id: req.teamId, plan: req.plan, interval: req.interval },
            },
            metadata: { team_id: req.teamId, plan: req.plan, interval: req.interval, authenticates: pi.id },
            success_url: req.authenticationReturnUrl,
            cancel_url: req.authenticationReturnUrl,
          },
          { idempotencyKey: `${req.idempotencyKey}:authenticate` },
        ),
      );
      return { status: 'requires_action', paymentId: pi.id, url: session.url ?? req.authenticationReturnUrl };
    }
    const code = pi.last_payment_error?.decline_code ?? pi.last_payment_error?.code ?? `payment_${pi.status}`;
    return { status: 'declined', paymentId: pi.id, declineCode: code };
  };

  return {
    name: 'stripe',
    stripe,
    async createCustomer({ teamId, teamName, email }) {
      const c = await call('customer', () =>
        stripe.customers.create(
          { name: teamName, ...(email ? { email } : {}), metadata: { team_id: teamId } },
          { idempotencyKey: `customer:${teamId}` },
        ),
      );
      return c.id;
    },
    async createCheckout(req: CheckoutRequest): Promise<CheckoutSession> {
      const base = {
        mode: 'payment' as const,
        customer: req.customerId,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: req.currency,
              unit_amount: req.amountCents,
              product_data: { name: `Job Fair ${req.plan} (${req.interval})` },
            },
          },
        ],
        // The one-time consent: the saved card may be charged later without the human present.
        payment_intent_data: {
          setup_future_usage: 'off_session' as const,
          metadata: { team_id: req.teamId, plan: req.plan, interval: req.interval },
        },
        metadata: { team_id: req.teamId, plan: req.plan, interval: req.interval },
        client_reference_id: req.teamId,
      };
      const session = await call('checkout', () =>
        stripe.checkout.sessions.create(
          req.mode === 'embedded'
            ? { ...base, ui_mode: 'embedded_page', return_url: req.returnUrl }
            : { ...base, ui_mode: 'hosted_page', success_url: req.successUrl, cancel_url: req.cancelUrl },
          { idempotencyKey: req.idempotencyKey },
        ),
      );
      return {
        id: session.id,
        url: req.mode === 'hosted' ? session.url : null,
        clientSecret: req.mode === 'embedded' ? session.client_secret : null,
      };
    },
    async chargeOffSession(req: OffSessionChargeRequest): Promise<ChargeResult> {
      try {
        const pi = await call('payment', () =>
          stripe.paymentIntents.create(
            {
              amount: req.amountCents,
              currency: req.currency,
              customer: req.customerId,
              payment_method: req.paymentMethodId,
              off_session: true,
              confirm: true,
              description: req.description,
              metadata: { team_id: req.teamId, plan: req.plan, interval: req.interval, charge_id: req.idempotencyKey },
              expand: ['latest_charge'],
            },
            { idempotencyKey: req.idempotencyKey },
          ),
        );
        return await fromPaymentIntent(pi, req);
      } catch (err) {
        const e = err as { type?: string; code?: string; decline_code?: string; payment_intent?: Stripe.PaymentIntent };
        if (e?.type === 'StripeCardError') {
          if (e.code === 'authentication_required' && e.payment_intent)
            return fromPaymentIntent({ ...e.payment_intent, status: 'requires_action' }, req);
          return {
            status: 'declined',
            paymentId: e.payment_intent?.id ?? null,
            declineCode: e.decline_code ?? e.code ?? 'card_declined',
          };
        }
        throw err;
      }
    },
    async findCharge({ idempotencyKey, providerPaymentId }) {
      const pi = providerPaymentId
        ? await call('payment lookup', () =>
            stripe.paymentIntents.retrieve(providerPaymentId, { expand: ['latest_charge'] }),
          )
        : (
            await call('payment search', () =>
              stripe.paymentIntents.search({
                query: `metadata['charge_id']:'${idempotencyKey.replace(/'/g, '')}'`,
                limit: 1,
              }),
            )
          ).data[0];
      if (!pi) return null;
      // Reconciliation only needs the outcome; the human's authentication link was handed out when the charge was made.
      if (pi.status === 'requires_action' || pi.status === 'requires_confirmation')
        return { status: 'requires_action', paymentId: pi.id, url: '' };
      const md = pi.metadata ?? {};
      return fromPaymentIntent(pi, {
        customerId: typeof pi.customer === 'string' ? pi.customer : (pi.customer?.id ?? ''),
        plan: md.plan ?? '',
        interval: md.interval ?? '',
        amountCents: pi.amount,
        currency: pi.currency,
        idempotencyKey,
        authenticationReturnUrl: '',
        teamId: md.team_id ?? '',
      });
    },
  };
}
