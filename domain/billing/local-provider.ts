import { randomBytes, timingSafeEqual } from 'node:crypto';
import type {
  BillingProvider,
  ChargeResult,
  CheckoutRequest,
  CheckoutSession,
  LocalPaymentRow,
  LocalPaymentStatus,
  OffSessionChargeRequest,
  ProviderEvent,
  ProviderReceipt,
} from './provider';
import { kindOfLocalPaymentMethod, localCard, localPaymentMethodId } from './test-cards';

/** Where the local provider keeps its sessions and payments (db/billing implements it). */
export interface LocalPaymentsStore {
  insertLocalPayment(
    row: Omit<LocalPaymentRow, 'created_at' | 'completed_at' | 'last_error' | 'invoice_id'>,
  ): Promise<LocalPaymentRow>;
  findLocalPayment(id: string): Promise<LocalPaymentRow | undefined>;
  findLocalPaymentByKey(key: string): Promise<LocalPaymentRow | undefined>;
  transitionLocalPayment(
    id: string,
    from: LocalPaymentStatus[],
    patch: Partial<
      Pick<LocalPaymentRow, 'status' | 'payment_method' | 'card_display' | 'last_error' | 'invoice_id'>
    > & { completed?: boolean },
  ): Promise<LocalPaymentRow | undefined>;
}

const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export class LocalPaymentError extends Error {
  constructor(
    public readonly code: 'not_found' | 'card_unknown' | 'card_declined' | 'already_completed',
    message: string,
  ) {
    super(message);
    this.name = 'LocalPaymentError';
  }
}

/**
 * The built-in provider (the default of `npm start`): checkout sessions, saved payment methods and
 * off-session payments kept in PostgreSQL, with a hosted page and an embedded form in the web app
 * and Stripe's test card numbers. Completing a payment emits a provider event through `emit` (the
 * billing capability signals the team's actor), the way Stripe sends a webhook.
 */
export function createLocalProvider(opts: { store: LocalPaymentsStore; publicBaseUrl: string }) {
  const { store, publicBaseUrl } = opts;
  const receiptOf = (payment: LocalPaymentRow, invoiceId: string): ProviderReceipt => ({
    id: invoiceId,
    number: `LOCAL-${invoiceId.slice(-8).toUpperCase()}`,
    hostedUrl: `${publicBaseUrl}/billing/local/invoices/${invoiceId}`,
    pdfUrl: `${publicBaseUrl}/billing/local/invoices/${invoiceId}.pdf`,
    createdAtMs: (payment.completed_at ?? new Date()).getTime(),
  });
  const invoiceIdOf = (paymentId: string) => `in_local_${paymentId.replace(/^(cs|pi)_local_/, '')}`;
  const resultOf = (p: LocalPaymentRow): ChargeResult | null => {
    if (p.status === 'succeeded')
      return { status: 'succeeded', paymentId: p.id, receipt: receiptOf(p, p.invoice_id ?? invoiceIdOf(p.id)) };
    if (p.status === 'requires_action')
      return { status: 'requires_action', paymentId: p.id, url: `${publicBaseUrl}/billing/local/authenticate/${p.id}` };
    if (p.status === 'failed')
      return { status: 'declined', paymentId: p.id, declineCode: p.last_error ?? 'card_declined' };
    return null;
  };
  const eventOf = (p: LocalPaymentRow, type: ProviderEvent['type']): ProviderEvent => ({
    id: rid('evt_local'),
    type,
    atMs: Date.now(),
    teamId: p.team_id,
    customerId: p.customer_id,
    plan: p.plan,
    interval: p.interval,
    paymentId: p.id,
    paymentMethodId: p.payment_method,
    cardDisplay: p.card_display,
    consent: p.kind === 'checkout',
    amountCents: p.amount_cents,
    currency: p.currency,
    receipt: p.status === 'succeeded' ? receiptOf(p, p.invoice_id ?? invoiceIdOf(p.id)) : null,
  });

  const provider: BillingProvider = {
    name: 'local',
    async createCustomer() {
      return rid('cus_local');
    },
    async createCheckout(req: CheckoutRequest): Promise<CheckoutSession> {
      const id = rid('cs_local');
      const row = await store.insertLocalPayment({
        id,
        kind: 'checkout',
        team_id: req.teamId,
        customer_id: req.customerId,
        idempotency_key: req.idempotencyKey,
        status: 'open',
        mode: req.mode,
        amount_cents: req.amountCents,
        currency: req.currency,
        plan: req.plan,
        interval: req.interval,
        client_secret: `${id}_secret_${randomBytes(16).toString('hex')}`,
        payment_method: null,
        card_display: null,
      });
      return {
        id: row.id,
        url: row.mode === 'hosted' ? `${publicBaseUrl}/billing/local/checkout/${row.id}` : null,
        clientSecret: row.mode === 'embedded' ? row.client_secret : null,
      };
    },
    async chargeOffSession(req: OffSessionChargeRequest): Promise<ChargeResult> {
      const kind = kindOfLocalPaymentMethod(req.paymentMethodId);
      const status: LocalPaymentStatus =
        kind === 'success' ? 'succeeded' : kind === 'authenticate' ? 'requires_action' : 'failed';
      const id = rid('pi_local');
      // The idempotency key is unique: a repeated call gets the first payment back, never a second one.
      const row = await store.insertLocalPayment({
        id,
        kind: 'charge',
        team_id: req.teamId,
        customer_id: req.customerId,
        idempotency_key: req.idempotencyKey,
        status,
        mode: null,
        amount_cents: req.amountCents,
        currency: req.currency,
        plan: req.plan,
        interval: req.interval,
        client_secret: null,
        payment_method: req.paymentMethodId,
        card_display: req.paymentMethodId.slice(-4),
      });
      if (row.id === id) {
        if (status === 'succeeded')
          return resultOf(
            (await store.transitionLocalPayment(id, ['succeeded'], { invoice_id: invoiceIdOf(id), completed: true }))!,
          )!;
        if (status === 'failed')
          return resultOf(
            (await store.transitionLocalPayment(id, ['failed'], {
              last_error: kind ? 'card_declined' : 'payment_method_unknown',
              completed: true,
            }))!,
          )!;
      }
      return resultOf(row) ?? { status: 'declined', paymentId: row.id, declineCode: 'processing_error' };
    },
    async findCharge({ idempotencyKey }) {
      const row = await store.findLocalPaymentByKey(idempotencyKey);
      return row ? resultOf(row) : null;
    },
  };

  return {
    provider,
    /** The session a page shows; the embedded form must present its client secret. */
    async session(id: string, clientSecret?: string): Promise<LocalPaymentRow> {
      const row = await store.findLocalPayment(id);
      if (!row || row.kind !== 'checkout')
        throw new LocalPaymentError('not_found', `checkout session ${id} was not found`);
      if (clientSecret !== undefined && !sameSecret(row.client_secret, clientSecret))
        throw new LocalPaymentError('not_found', `checkout session ${id} was not found`);
      return row;
    },
    async payment(id: string): Promise<LocalPaymentRow> {
      const row = await store.findLocalPayment(id);
      if (!row) throw new LocalPaymentError('not_found', `payment ${id} was not found`);
      return row;
    },
    /**
     * The human submits a card on the hosted page or the embedded form. Succeeds → the session
     * completes with consent to off-session charges (setup_future_usage=off_session) and an event;
     * a card that asks for authentication → `requires_action` (the page shows the bank's step);
     * declined → the session stays open for another card.
     */
    async pay(
      sessionId: string,
      cardNumber: string,
    ): Promise<{ session: LocalPaymentRow; event: ProviderEvent | null }> {
      const s = await this.session(sessionId);
      if (s.status === 'succeeded') return { session: s, event: null };
      if (s.status !== 'open')
        throw new LocalPaymentError('already_completed', `checkout session ${sessionId} is waiting for authentication`);
      const card = localCard(cardNumber);
      if (!card) {
        await store.transitionLocalPayment(sessionId, ['open'], { last_error: 'card_unknown' });
        throw new LocalPaymentError('card_unknown', 'Use one of the test cards listed on this page');
      }
      const patch = {
        payment_method: localPaymentMethodId(card.kind, card.last4),
        card_display: `Test card •••• ${card.last4}`,
      };
      if (card.kind === 'declined') {
        await store.transitionLocalPayment(sessionId, ['open'], { ...patch, last_error: 'card_declined' });
        throw new LocalPaymentError('card_declined', 'Your card was declined (card_declined). Try another card.');
      }
      if (card.kind === 'authenticate') {
        const row = await store.transitionLocalPayment(sessionId, ['open'], {
          ...patch,
          status: 'requires_action',
          last_error: null,
        });
        return { session: row ?? (await this.session(sessionId)), event: null };
      }
      return complete(sessionId, ['open'], patch);
    },
    /** The bank's authentication step (3-D Secure): approve completes the session or payment, fail declines it. */
    async authenticate(
      paymentId: string,
      approve: boolean,
    ): Promise<{ payment: LocalPaymentRow; event: ProviderEvent | null }> {
      const p = await this.payment(paymentId);
      if (p.status !== 'requires_action') return { payment: p, event: null };
      if (approve) {
        const r = await complete(paymentId, ['requires_action'], {});
        return { payment: r.session, event: r.event };
      }
      if (p.kind === 'checkout') {
        // A failed authentication in checkout returns the session to the card form.
        const row = await store.transitionLocalPayment(paymentId, ['requires_action'], {
          status: 'open',
          last_error: 'authentication_failed',
        });
        return { payment: row ?? p, event: null };
      }
      const row = await store.transitionLocalPayment(paymentId, ['requires_action'], {
        status: 'failed',
        last_error: 'authentication_failed',
        completed: true,
      });
      return { payment: row ?? p, event: row ? eventOf(row, 'payment.failed') : null };
    },
  };

  async function complete(
    id: string,
    from: LocalPaymentStatus[],
    patch: Partial<LocalPaymentRow>,
  ): Promise<{ session: LocalPaymentRow; event: ProviderEvent | null }> {
    const row = await store.transitionLocalPayment(id, from, {
      ...patch,
      status: 'succeeded',
      last_error: null,
      invoice_id: invoiceIdOf(id),
      completed: true,
    });
    // A double-submitted form: the second finds the row already moved and emits nothing.
    if (!row) return { session: (await store.findLocalPayment(id))!, event: null };
    return { session: row, event: eventOf(row, row.kind === 'checkout' ? 'checkout.completed' : 'payment.succeeded') };
  }
}
export type LocalProvider = ReturnType<typeof createLocalProvider>;

function sameSecret(a: string | null, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
