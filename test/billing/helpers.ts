import { eventually, type Harness, type TestUser } from '../helpers/harness';

export const CARDS = {
  success: '4242 4242 4242 4242',
  authenticate: '4000 0027 6000 3184',
  declined: '4000 0000 0000 0002',
  declineOffSession: '4000 0000 0000 0341',
} as const;

export async function billingStatus(h: Harness, rec: TestUser) {
  const res = await h.call({ method: 'GET', url: '/api/v1/billing/status', token: rec.token });
  if (res.statusCode !== 200) throw new Error(`status: ${res.statusCode} ${res.body}`);
  return res.json().billing;
}

/**
 * What a human does in the browser, through the same local-provider calls the hosted page and the
 * embedded form make: start a checkout over the API, pay with a test card (authenticating when the
 * card asks), then wait until the actor has projected the plan.
 */
export async function checkoutAndPay(
  h: Harness,
  rec: TestUser,
  o: { plan?: 'pro' | 'enterprise'; interval?: 'month' | 'year'; card?: string; mode?: 'hosted' | 'embedded' } = {},
) {
  const plan = o.plan ?? 'pro';
  const interval = o.interval ?? 'month';
  const res = await h.call({
    method: 'POST',
    url: '/api/v1/billing/checkout',
    token: rec.token,
    payload: { mode: o.mode ?? 'hosted', plan, interval },
  });
  if (res.statusCode !== 201) throw new Error(`checkout: ${res.statusCode} ${res.body}`);
  const session = res.json();
  const local = h.app.services.localPayments!;
  const paid = await local.pay(session.id, o.card ?? CARDS.success);
  let event = paid.event;
  if (paid.session.status === 'requires_action') event = (await local.authenticate(session.id, true)).event;
  await h.app.services.billing.deliverLocalEvent(event);
  const billing = await eventually(async () => {
    const b = await billingStatus(h, rec);
    return b.plan === plan && b.interval === interval && b.off_session_consent ? b : null;
  });
  return { session, billing };
}
