import { randomUUID } from 'node:crypto';
import { PLAN_CATALOGUE, type BillingInterval, type PaidBillingPlan } from '#workflows/billing/contract';
import type { BillingServiceDeps } from './deps';
import { managerTeamOf, type Payer } from './payer';
import { unavailable } from './refusals';

/** The team's customer at the provider, created on its first checkout. */
async function ensureCustomer(deps: BillingServiceDeps, teamId: string, userId: string): Promise<string> {
  const { repos } = deps;
  const existing = await repos.billing.findCustomer(teamId);
  if (existing) return existing.customer_id;
  const m = await repos.accounts.findMembership(userId);
  const user = await repos.accounts.findUserById(userId);
  const id = await deps.provider
    .createCustomer({ teamId, teamName: m?.team_name ?? teamId, email: user?.email ?? null })
    .catch(unavailable);
  return repos.billing.insertCustomer(teamId, deps.provider.name, id);
}

export function checkoutUseCase(deps: BillingServiceDeps) {
  const { config } = deps;
  return {
    /** A checkout session at the provider (hosted page or embedded form); the plan changes when it reports the payment. */
    async checkout(
      p: Payer,
      body: { mode: 'hosted' | 'embedded'; plan: PaidBillingPlan; interval: BillingInterval },
      idempotencyKey?: string,
    ) {
      const teamId = await managerTeamOf(deps, p);
      const customerId = await ensureCustomer(deps, teamId, p.userId);
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
  };
}
