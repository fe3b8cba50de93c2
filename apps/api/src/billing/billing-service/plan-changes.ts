import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { PaymentRequiredError } from '#lib/errors';
import {
  BILLING_ACCOUNT_WORKFLOW,
  cancelAtPeriodEndUpdate,
  chargeOffSessionUpdate,
  type BillingAccountWorkflow,
  type BillingInterval,
  type PaidBillingPlan,
} from '#workflows/billing/contract';
import { billingAccountStartOptions } from '#workflows/billing/client';
import type { BillingServiceDeps } from './deps';
import { managerTeamOf, type Payer } from './payer';
import { consentRequired, refusalToError } from './refusals';
import { teamName } from './account-signal';

/** The actor as an update-with-start target: it is recreated if its run is gone. */
const startAccount = async (deps: BillingServiceDeps, teamId: string) =>
  new WithStartWorkflowOperation<BillingAccountWorkflow>(BILLING_ACCOUNT_WORKFLOW, {
    ...billingAccountStartOptions(deps.config, teamId, await teamName(deps, teamId)),
    workflowIdConflictPolicy: 'USE_EXISTING',
  });

/** Upgrades and cancellations: Updates on the team's billing account actor. */
export function planChanges(deps: BillingServiceDeps) {
  const { config, temporal } = deps;
  return {
    /**
     * Upgrade (or change interval) by charging the consented payment method off-session: an Update
     * on the actor (update-with-start), which records the charge, asks the provider with our charge
     * id as idempotency key, and answers once the new plan is projected.
     */
    async chargeOffSession(p: Payer, body: { target_plan: PaidBillingPlan; interval: BillingInterval }) {
      const teamId = await managerTeamOf(deps, p);
      const target = { target_plan: body.target_plan, interval: body.interval };
      const row = await deps.repos.billing.findAccount(teamId);
      // The projection answers the common case without a workflow round trip; the actor's validator decides the rest.
      if (!row?.consent_at) throw consentRequired(deps, target);
      const chargeId = `ch_${randomUUID().replace(/-/g, '')}`;
      let result;
      try {
        result = await temporal.workflow.executeUpdateWithStart(chargeOffSessionUpdate, {
          args: [{ targetPlan: body.target_plan, interval: body.interval, chargeId, requestedBy: p.userId }],
          startWorkflowOperation: await startAccount(deps, teamId),
        });
      } catch (err) {
        refusalToError(deps, err, target);
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
      const teamId = await managerTeamOf(deps, p);
      try {
        await temporal.workflow.executeUpdateWithStart(cancelAtPeriodEndUpdate, {
          startWorkflowOperation: await startAccount(deps, teamId),
        });
      } catch (err) {
        refusalToError(deps, err);
      }
      return teamId;
    },
  };
}
