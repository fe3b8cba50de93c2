import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, NotFoundError } from '#lib/errors';
import { LOCAL_TEST_CARDS } from '#domain/billing/test-cards';
import { LocalPaymentError } from '#domain/billing/local-provider';
import type { LocalPaymentRow } from '#domain/billing/provider';
import {
  BILLING_INTERVALS,
  PAID_BILLING_PLANS,
  PLAN_CATALOGUE,
  maxLiveEventsOf,
  type BillingInterval,
  type PaidBillingPlan,
} from '#workflows/billing/contract';
import { recruiter, consoleNav } from '../web/console';
import { formBody, str } from '../web/core';
import { html, type SafeHtml } from '../web/html';
import { cardTable } from '../web/tables';
import { actionButton, fmtDate, fmtDateText, input, postForm, radios, sendPage } from '../web/layout';
import { toBillingStatus, toInvoice } from './billing-schemas';
import { invoicePdf } from './invoice-pdf';
import { BILLING_LABELS, errorMessage } from '../web/messages';

const money = (cents: number, currency: string) =>
  `${(cents / 100).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })} ${currency.toUpperCase()}`;
const DONE: Record<string, string> = {
  paid: 'Payment received. Your plan is updated below.',
  charged: 'Your saved card was charged and the plan changed.',
  cancelled: 'The plan will end at the end of the current period; the team then returns to Free.',
  'checkout-cancelled': 'Checkout was cancelled; nothing changed.',
  authenticated: 'Payment authenticated. Your plan is updated below.',
  recording: 'Payment received. The plan change is still being recorded: reload this page in a moment.',
};

/**
 * How long the page a payment redirects to waits for the billing actor to project the plan paid
 * for (`?plan=…&interval=…`): the payment is signalled to the actor, whose projection lands a
 * moment later; the page must not say "updated below" above the old plan. Bounded: past it, the
 * page says the change is still being recorded.
 */
const SETTLE_WAIT_MS = 5_000;
const SETTLE_POLL_MS = 100;

/** The PRG target of a payment: `/recruiter/billing?done=…&plan=…&interval=…`. */
const paidTarget = (done: string, p: { plan: string; interval: string }) =>
  `/recruiter/billing?done=${done}&plan=${encodeURIComponent(p.plan)}&interval=${encodeURIComponent(p.interval)}`;

/**
 * The Billing page for team owners (`/recruiter/billing`: plan, status, invoices, change plan,
 * cancel) and the local provider's pages (hosted checkout, the bank's authentication step,
 * invoices). Pages call the same billing service as the API.
 */
const billingPages: FastifyPluginAsync = async (app) => {
  const billing = app.services.billing;
  const local = app.services.localPayments;
  const currency = app.config.BILLING_CURRENCY;
  const freeMax = app.config.BILLING_FREE_MAX_LIVE_EVENTS;
  const canManage = (role: string) => role === 'owner' || role === 'admin';

  const billingPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    o: {
      problem?: string;
      status?: number;
      embedded?: { id: string; clientSecret: string; plan: string; interval: string; amount: number };
    } = {},
  ) => {
    const r = recruiter(request);
    const payer = { userId: r.user.id, role: 'recruiter' as const, teamId: r.teamId };
    const q = request.query as { done?: string; plan?: string; interval?: string };
    const paidFor =
      q.done && DONE[q.done] && (PAID_BILLING_PLANS as readonly string[]).includes(q.plan ?? '') ? q : null;
    const showsPlan = (x: Awaited<ReturnType<typeof billing.status>>['row']) =>
      !paidFor || (x?.plan === paidFor.plan && (!paidFor.interval || x?.interval === paidFor.interval));
    let { teamId, row } = await billing.status(payer);
    for (const deadline = Date.now() + SETTLE_WAIT_MS; !showsPlan(row) && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
      ({ teamId, row } = await billing.status(payer));
    }
    const b = toBillingStatus(teamId, row, billing.provider, freeMax);
    const invoices = (await billing.invoices(payer, { limit: 20 })).data.map(toInvoice);
    const liveNow = await app.services.deps.repos.events.countLiveForTeam(
      teamId,
      '00000000-0000-0000-0000-000000000000',
    );
    const done = showsPlan(row) ? q.done : 'recording';
    const manage = canManage(r.teamRole);
    const plan = PLAN_CATALOGUE[b.plan];
    return sendPage(request, reply, {
      title: 'Billing',
      status: o.status ?? 200,
      body: html`<h1>Billing</h1>
${consoleNav('/recruiter/billing')}
<p class="lead">${r.teamName} is on the <strong>${plan.name}</strong> plan${b.interval ? ` (billed every ${b.interval})` : ''}.</p>
${done && DONE[done] ? html`<p class="notice" role="status">${DONE[done]}</p>` : ''}
${o.problem ? html`<p class="error" role="alert" tabindex="-1" data-autofocus>${o.problem}</p>` : ''}
${
  b.pending_authentication
    ? html`<section class="panel" aria-labelledby="auth-h"><h2 id="auth-h">Your bank asks you to confirm a payment</h2>
<p>The change to ${PLAN_CATALOGUE[b.pending_authentication.target_plan].name} (${b.pending_authentication.interval}) waits for you: <a href="${b.pending_authentication.authentication_url}">authenticate the payment</a>.</p></section>`
    : ''
}
<section class="panel" aria-labelledby="plan-h">
<h2 id="plan-h">Current plan</h2>
<dl class="kv">
<dt>Plan</dt><dd id="billing-plan">${plan.name}</dd>
<dt>Status</dt><dd><span class="state state-${b.status}" id="billing-status">${b.status.replace('_', ' ')}</span>${b.status === 'past_due' ? html` — renewal failed ${b.failed_renewals} time${b.failed_renewals === 1 ? '' : 's'}; next try ${fmtDate(b.next_retry_at)}` : ''}</dd>
<dt>${b.cancel_at_period_end ? 'Ends' : 'Renews'}</dt><dd>${b.current_period_end ? fmtDate(b.current_period_end) : '—'}</dd>
<dt>Live events at once</dt><dd>${liveNow} of ${b.limits.live_events ?? 'unlimited'}</dd>
<dt>Saved card</dt><dd>${b.off_session_consent ? html`${b.off_session_consent.payment_method ?? 'on file'} <span class="hint">(you agreed to future charges on ${fmtDate(b.off_session_consent.consented_at)})</span>` : 'none'}</dd>
</dl>
${manage && b.plan !== 'free' && !b.cancel_at_period_end ? actionButton(request, '/recruiter/billing/cancel', 'Cancel plan at period end', { cls: 'btn btn-danger' }) : ''}
</section>
${o.embedded ? embeddedForm(request, o.embedded) : ''}
${manage ? changePlanForm(request, b.off_session_consent !== null, billing.provider === 'local') : html`<p>Only the team's owners and admins change the plan.</p>`}
<section aria-labelledby="plans-h">
<h2 id="plans-h">Plans</h2>
${cardTable(html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="plans-h"><table><caption class="visually-hidden">Plans and what they buy</caption>
<thead><tr><th scope="col">Plan</th><th scope="col">Live events at once</th><th scope="col">Recruiters</th><th scope="col">Monthly</th><th scope="col">Yearly</th></tr></thead>
<tbody>${(['free', ...PAID_BILLING_PLANS] as const).map((id) => {
  const p = PLAN_CATALOGUE[id];
  return html`<tr${id === b.plan ? html` aria-current="true"` : ''}><th scope="row">${p.name}${id === b.plan ? html` <span class="hint">(current)</span>` : ''}</th><td>${maxLiveEventsOf(id, freeMax) ?? 'unlimited'}</td><td>${p.maxSeats ?? 'unlimited'}</td><td>${money(p.prices.month, currency)}</td><td>${money(p.prices.year, currency)}</td></tr>`;
})}</tbody></table></div>`)}
</section>
<section aria-labelledby="inv-h">
<h2 id="inv-h">Invoices</h2>
${
  invoices.length
    ? cardTable(html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="inv-h"><table id="invoices"><caption class="visually-hidden">Invoices, newest first</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Number</th><th scope="col">For</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Links</th></tr></thead>
<tbody>${invoices.map(
        (
          i,
        ) => html`<tr><td>${fmtDate(i.created_at)}</td><td class="mono">${i.number ?? i.id}</td><td>${i.plan ? PLAN_CATALOGUE[i.plan].name : '—'}${i.interval ? ` (${i.interval})` : ''}</td><td>${money(i.amount, i.currency)}</td><td><span class="state state-${i.status === 'paid' ? 'succeeded' : 'pending'}">${i.status}</span></td>
<td>${i.hosted_invoice_url ? html`<a href="${i.hosted_invoice_url}">View<span class="visually-hidden"> invoice ${i.number ?? i.id}</span></a>` : ''}${i.invoice_pdf ? html` · <a href="${i.invoice_pdf}">PDF<span class="visually-hidden"> of invoice ${i.number ?? i.id}</span></a>` : ''}</td></tr>`,
      )}</tbody></table></div>`)
    : html`<p>No invoices yet.</p>`
}
</section>`,
    });
  };

  const changePlanForm = (
    request: FastifyRequest,
    consent: boolean,
    localProvider: boolean,
  ): SafeHtml => html`<section class="panel" aria-labelledby="change-h">
<h2 id="change-h">Change plan</h2>
${postForm(
  request,
  '/recruiter/billing/change',
  html`${radios({
    name: 'plan',
    label: BILLING_LABELS.plan,
    value: 'pro',
    options: PAID_BILLING_PLANS.map((p) => [
      p,
      PLAN_CATALOGUE[p].name,
      `${money(PLAN_CATALOGUE[p].prices.month, currency)} a month or ` +
        `${money(PLAN_CATALOGUE[p].prices.year, currency)} a year; ` +
        `${PLAN_CATALOGUE[p].maxLiveEvents ?? 'unlimited'} live events at once`,
    ]),
  })}
${radios({
  name: 'interval',
  label: BILLING_LABELS.interval,
  value: 'month',
  options: BILLING_INTERVALS.map((i) => [i, i === 'month' ? 'Monthly' : 'Yearly']),
})}
<div class="actions">
${consent ? html`<button type="submit" name="how" value="charge" class="btn btn-primary">Charge the saved card</button>` : ''}
<button type="submit" name="how" value="hosted" class="btn${consent ? '' : ' btn-primary'}">Pay on the checkout page</button>
${localProvider ? html`<button type="submit" name="how" value="embedded" class="btn">Pay here</button>` : ''}
</div>
<p class="hint">Paying by card saves it and records your agreement that the team's plan may be charged to it later without you present (renewals, upgrades).</p>`,
  { label: 'Change plan' },
)}
</section>`;

  const embeddedForm = (
    request: FastifyRequest,
    e: { id: string; clientSecret: string; plan: string; interval: string; amount: number },
  ): SafeHtml => html`<section class="panel" aria-labelledby="pay-h" id="embedded-checkout">
<h2 id="pay-h" tabindex="-1" data-autofocus>Pay ${money(e.amount, currency)} for ${PLAN_CATALOGUE[e.plan as PaidBillingPlan].name} (${e.interval})</h2>
${cardForm(request, `/billing/local/checkout/${e.id}/pay`, html`<input type="hidden" name="client_secret" value="${e.clientSecret}"><input type="hidden" name="from" value="embedded">`)}
</section>`;

  const cardForm = (
    request: FastifyRequest,
    action: string,
    hidden: SafeHtml,
    error?: string,
  ): SafeHtml => html`${error ? html`<p class="error" role="alert" id="card-error">${error}</p>` : ''}
${postForm(
  request,
  action,
  html`${hidden}${input({
    name: 'card_number',
    label: BILLING_LABELS.card_number,
    autocomplete: 'cc-number',
    required: true,
    hint: 'Test mode: use one of the test cards below. Any future expiry date and any CVC.',
  })}
<div class="field-row">${input({
    name: 'expiry',
    label: BILLING_LABELS.expiry,
    autocomplete: 'cc-exp',
    value: '12/34',
  })}${input({
    name: 'cvc',
    label: BILLING_LABELS.cvc,
    autocomplete: 'cc-csc',
    value: '123',
  })}</div>
<button type="submit" class="btn btn-primary">Pay</button>`,
  { label: 'Card payment' },
)}
<details open><summary>Test cards</summary><ul class="test-cards">${Object.entries(LOCAL_TEST_CARDS).map(([n, c]) => html`<li><span class="mono">${n.replace(/(\d{4})(?=\d)/g, '$1 ')}</span>: ${c.label}</li>`)}</ul></details>`;

  app.get('/recruiter/billing', async (request, reply) => {
    const q = request.query as { checkout?: string };
    if (q.checkout === 'cancelled') return reply.redirect('/recruiter/billing?done=checkout-cancelled', 303);
    return billingPage(request, reply);
  });

  /** Change plan: charge the saved card off-session, or start a checkout (hosted page or the embedded form). */
  app.post('/recruiter/billing/change', async (request, reply) => {
    const r = recruiter(request);
    const body = formBody(request);
    const plan = str(body, 'plan') as PaidBillingPlan;
    const interval = str(body, 'interval') as BillingInterval;
    const how = str(body, 'how');
    if (
      !(PAID_BILLING_PLANS as readonly string[]).includes(plan) ||
      !(BILLING_INTERVALS as readonly string[]).includes(interval)
    ) {
      return billingPage(request, reply, {
        problem: `Choose a plan (${PAID_BILLING_PLANS.join(', ')}) and an interval (${BILLING_INTERVALS.join(', ')})`,
        status: 400,
      });
    }
    const payer = { userId: r.user.id, role: 'recruiter' as const, teamId: r.teamId };
    try {
      if (how === 'charge') {
        await billing.chargeOffSession(payer, { target_plan: plan, interval });
        return reply.redirect(paidTarget('charged', { plan, interval }), 303);
      }
      const mode = how === 'embedded' && local ? 'embedded' : 'hosted';
      const s = await billing.checkout(payer, { mode, plan, interval });
      if (mode === 'hosted') return reply.redirect(s.url!, 303);
      return billingPage(request, reply, {
        embedded: { id: s.id, clientSecret: s.client_secret!, plan, interval, amount: s.amount },
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'AUTHENTICATION_REQUIRED')
        return reply.redirect(String(err.details?.authentication_url), 303);
      if (err instanceof AppError && err.status < 500)
        return billingPage(request, reply, { problem: errorMessage(err), status: err.status });
      throw err;
    }
  });

  app.post('/recruiter/billing/cancel', async (request, reply) => {
    const r = recruiter(request);
    await billing.cancel({ userId: r.user.id, role: 'recruiter', teamId: r.teamId });
    return reply.redirect('/recruiter/billing?done=cancelled', 303);
  });

  if (!local) return;

  // ---- the local provider's own pages: what Stripe's hosted pages are for the stripe provider ----
  const localPage = (request: FastifyRequest, reply: FastifyReply, title: string, body: SafeHtml, status = 200) =>
    sendPage(request, reply, { title, status, narrow: true, body });
  const localErr = (err: unknown) => {
    if (err instanceof LocalPaymentError && err.code === 'not_found') throw new NotFoundError('checkout session');
    throw err;
  };
  const summary = (
    p: LocalPaymentRow,
  ) => html`<p class="lead">Job Fair — ${PLAN_CATALOGUE[p.plan as PaidBillingPlan]?.name ?? p.plan} plan, billed every ${p.interval}: <strong>${money(p.amount_cents, p.currency)}</strong></p>
<p class="hint">Local test checkout: no real card is charged.</p>`;

  const checkoutPage = async (
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    error?: string,
    status = 200,
  ) => {
    const s = await local.session(request.params.id).catch(localErr);
    if (s.status === 'succeeded')
      return localPage(
        request,
        reply,
        'Payment complete',
        html`<h1>Payment complete</h1>${summary(s)}<p><a class="btn btn-primary" href="${paidTarget('paid', s)}">Back to Billing</a></p>`,
      );
    if (s.status === 'requires_action') return reply.redirect(`/billing/local/authenticate/${s.id}`, 303);
    return localPage(
      request,
      reply,
      'Checkout',
      html`<h1>Checkout</h1>${summary(s)}${cardForm(request, `/billing/local/checkout/${s.id}/pay`, html``, error)}<p><a href="/recruiter/billing?checkout=cancelled">Cancel and go back</a></p>`,
      status,
    );
  };

  /** Fixed messages for a refused card sent back from the embedded form (never echoes the query). */
  const CARD_ERRORS: Record<string, string> = {
    card_declined: 'Your card was declined (card_declined). Try another card.',
    card_unknown: 'Use one of the test cards listed on this page.',
    already_completed: 'This checkout is waiting for authentication.',
  };
  app.get<{ Params: { id: string } }>('/billing/local/checkout/:id', async (request, reply) => {
    const e = (request.query as { error?: string }).error;
    return checkoutPage(request, reply, e ? CARD_ERRORS[e] : undefined, e && CARD_ERRORS[e] ? 402 : 200);
  });

  /** The hosted page's and the embedded form's card submission. */
  app.post<{ Params: { id: string } }>('/billing/local/checkout/:id/pay', async (request, reply) => {
    const body = formBody(request);
    const embedded = str(body, 'from') === 'embedded';
    // The embedded form proves it was handed the session's client secret.
    await local.session(request.params.id, embedded ? str(body, 'client_secret') : undefined).catch(localErr);
    try {
      const { session, event } = await local.pay(request.params.id, str(body, 'card_number'));
      await billing.deliverLocalEvent(event);
      if (session.status === 'requires_action') return reply.redirect(`/billing/local/authenticate/${session.id}`, 303);
      return reply.redirect(paidTarget('paid', session), 303);
    } catch (err) {
      if (err instanceof LocalPaymentError && err.code !== 'not_found') {
        if (embedded) return reply.redirect(`/billing/local/checkout/${request.params.id}?error=${err.code}`, 303);
        return checkoutPage(request, reply, CARD_ERRORS[err.code] ?? err.message, 402);
      }
      throw err;
    }
  });

  /** The bank's 3-D Secure step, for checkout sessions and off-session payments alike. */
  app.get<{ Params: { id: string } }>('/billing/local/authenticate/:id', async (request, reply) => {
    const p = await local.payment(request.params.id).catch(localErr);
    if (p.status !== 'requires_action') {
      return localPage(
        request,
        reply,
        'Nothing to authenticate',
        html`<h1>Nothing to authenticate</h1><p>This payment is ${p.status === 'succeeded' ? 'complete' : p.status}.</p><p><a href="/recruiter/billing">Back to Billing</a></p>`,
      );
    }
    return localPage(
      request,
      reply,
      'Confirm the payment',
      html`<h1>Your bank asks you to confirm this payment</h1>${summary(p)}
<p>Test bank (3-D Secure): choose what the card holder does.</p>
<div class="actions">${actionButton(request, `/billing/local/authenticate/${p.id}`, 'Complete authentication', {
        cls: 'btn btn-primary',
        name: 'outcome',
        value: 'approve',
      })}
${actionButton(request, `/billing/local/authenticate/${p.id}`, 'Fail authentication', {
  cls: 'btn btn-danger',
  name: 'outcome',
  value: 'fail',
})}</div>`,
    );
  });

  app.post<{ Params: { id: string } }>('/billing/local/authenticate/:id', async (request, reply) => {
    const approve = str(formBody(request), 'outcome') === 'approve';
    const { payment, event } = await local.authenticate(request.params.id, approve).catch(localErr);
    await billing.deliverLocalEvent(event);
    if (payment.kind === 'checkout' && payment.status === 'open')
      return checkoutPage(request, reply, 'Authentication failed. Try again or use another card.', 402);
    if (!approve || payment.status !== 'succeeded') return reply.redirect('/recruiter/billing', 303);
    return reply.redirect(paidTarget('authenticated', payment), 303);
  });

  /** Invoices of the local provider (hosted page and PDF). Their ids are unguessable, like Stripe's hosted invoice links. */
  app.get<{ Params: { id: string } }>('/billing/local/invoices/:id', async (request, reply) => {
    const pdf = request.params.id.endsWith('.pdf');
    const id = pdf ? request.params.id.slice(0, -4) : request.params.id;
    const inv = await app.services.deps.repos.billing.findInvoice(id);
    if (!inv || !id.startsWith('in_local_')) throw new NotFoundError('invoice', id);
    const i = toInvoice(inv);
    const lines = [
      `Invoice ${i.number ?? i.id}`,
      `Date: ${fmtDateText(i.created_at)}`,
      `Plan: ${i.plan ? PLAN_CATALOGUE[i.plan].name : '-'} (${i.interval ?? '-'})`,
      `Amount: ${money(i.amount, i.currency)}`,
      `Status: ${i.status}`,
    ];
    if (pdf)
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${i.id}.pdf"`)
        .send(invoicePdf(['Job Fair', ...lines]));
    return localPage(
      request,
      reply,
      `Invoice ${i.number ?? i.id}`,
      html`<h1>Invoice ${i.number ?? i.id}</h1><dl class="kv">${lines.slice(1).map((l) => {
        const [k, ...v] = l.split(': ');
        return html`<dt>${k}</dt><dd>${v.join(': ')}</dd>`;
      })}</dl><p><a href="/billing/local/invoices/${i.id}.pdf">Download PDF</a></p>`,
    );
  });
};

export default billingPages;
