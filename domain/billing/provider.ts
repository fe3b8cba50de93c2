/**
 * The payments provider behind one adapter (decision 0130): Stripe through the official SDK, or the
 * built-in local provider. Knows nothing of teams' plans or workflows: the billing capability maps
 * these shapes onto its contract.
 */
export type CheckoutMode = 'hosted' | 'embedded';

export interface CheckoutRequest {
  teamId: string;
  customerId: string;
  plan: string;
  interval: string;
  amountCents: number;
  currency: string;
  mode: CheckoutMode;
  /** Hosted: where the provider sends the human after paying / giving up. */
  successUrl: string;
  cancelUrl: string;
  /** Embedded: where the form sends the human after paying. */
  returnUrl: string;
  idempotencyKey: string;
}

export interface CheckoutSession {
  id: string;
  /** Hosted mode: the page the human opens. */
  url: string | null;
  /** Embedded mode: what the embedded form is mounted with. */
  clientSecret: string | null;
}

export interface OffSessionChargeRequest {
  teamId: string;
  customerId: string;
  paymentMethodId: string;
  amountCents: number;
  currency: string;
  /** Our charge id: the same key charges once, however often it is sent. */
  idempotencyKey: string;
  description: string;
  plan: string;
  interval: string;
  /** Where the human completes authentication (the provider may supply its own page). */
  authenticationReturnUrl: string;
}

export interface ProviderReceipt {
  id: string;
  number: string | null;
  hostedUrl: string | null;
  pdfUrl: string | null;
  createdAtMs: number;
}

export type ChargeResult =
  | { status: 'succeeded'; paymentId: string; receipt: ProviderReceipt }
  | { status: 'requires_action'; paymentId: string; url: string }
  | { status: 'declined'; paymentId: string | null; declineCode: string };

export interface BillingProvider {
  readonly name: 'local' | 'stripe';
  createCustomer(input: { teamId: string; teamName: string; email: string | null }): Promise<string>;
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  chargeOffSession(req: OffSessionChargeRequest): Promise<ChargeResult>;
  /** Reconciliation: the provider's record of a charge we sent (by our key), or null when it never arrived. */
  findCharge(input: { idempotencyKey: string; providerPaymentId: string | null }): Promise<ChargeResult | null>;
}

/** The provider could not be reached or answered 5xx/429: nothing was decided (503 DEPENDENCY_UNAVAILABLE upstream). */
export class ProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

/**
 * A provider event in one shape (the local provider produces these directly; Stripe webhooks are
 * normalised to them by the billing capability).
 */
export interface ProviderEvent {
  id: string;
  type: 'checkout.completed' | 'payment.succeeded' | 'payment.failed';
  atMs: number;
  teamId: string;
  customerId: string | null;
  plan: string;
  interval: string;
  paymentId: string;
  paymentMethodId: string | null;
  cardDisplay: string | null;
  /** The human agreed to future off-session charges (setup_future_usage=off_session). */
  consent: boolean;
  amountCents: number;
  currency: string;
  receipt: ProviderReceipt | null;
}

export type LocalPaymentStatus = 'open' | 'requires_action' | 'succeeded' | 'failed';
/** The local provider's record of a checkout session (`cs_local_…`) or payment (`pi_local_…`). */
export interface LocalPaymentRow {
  id: string;
  kind: 'checkout' | 'charge';
  team_id: string;
  customer_id: string;
  idempotency_key: string | null;
  status: LocalPaymentStatus;
  mode: CheckoutMode | null;
  amount_cents: number;
  currency: string;
  plan: string;
  interval: string;
  client_secret: string | null;
  payment_method: string | null;
  card_display: string | null;
  last_error: string | null;
  invoice_id: string | null;
  created_at: Date;
  completed_at: Date | null;
}
