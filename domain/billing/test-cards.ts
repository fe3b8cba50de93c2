/**
 * The local provider's test cards: Stripe's own test numbers with the same meaning, so a person who
 * knows Stripe's test mode needs nothing new (README, "Billing").
 */
export const LOCAL_TEST_CARDS = {
  '4242424242424242': { kind: 'success', label: 'Succeeds (on and off session)' },
  '4000002760003184': { kind: 'authenticate', label: 'Requires authentication on every payment (3-D Secure)' },
  '4000000000000002': { kind: 'declined', label: 'Declined (card_declined)' },
  '4000000000000341': {
    kind: 'decline_off_session',
    label: 'Checkout succeeds; later off-session charges (renewals, upgrades) are declined',
  },
} as const;
export type LocalCardKind = (typeof LOCAL_TEST_CARDS)[keyof typeof LOCAL_TEST_CARDS]['kind'];

/** Digits only; null for a number that is not one of the test cards. */
export function localCard(number: string): { number: string; kind: LocalCardKind; last4: string } | null {
  const digits = number.replace(/[\s-]/g, '');
  const card = (LOCAL_TEST_CARDS as Record<string, { kind: LocalCardKind }>)[digits];
  return card ? { number: digits, kind: card.kind, last4: digits.slice(-4) } : null;
}

/** The saved payment method's id carries the card's behaviour (the local provider keeps no card data). */
export function localPaymentMethodId(kind: LocalCardKind, last4: string): string {
  return `pm_local_${kind}_${last4}`;
}
export function kindOfLocalPaymentMethod(pm: string): LocalCardKind | null {
  const m = /^pm_local_(success|authenticate|declined|decline_off_session)_\d{4}$/.exec(pm);
  return m ? (m[1] as LocalCardKind) : null;
}
