import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import {
  billingEventSignal,
  billingStateQuery,
  cancelAtPeriodEndUpdate,
  chargeOffSessionUpdate,
  initialBillingState,
  BILLING_ALREADY_ON_PLAN,
  BILLING_NOTHING_TO_CANCEL,
  BILLING_PROVIDER_UNAVAILABLE,
  OFF_SESSION_CONSENT_REQUIRED,
  type BillingAccountInput,
  type BillingAccountResult,
  type BillingAccountState,
  type BillingEventSignalInput,
  type BillingInterval,
  type BillingInvoiceRecord,
  type BillingPlan,
  type ChargeOffSessionUpdateInput,
  type ChargeOffSessionUpdateResult,
  type ChargeOutcome,
} from './contract';
import type { createBillingActivities } from '../../activities/billing/billing-activities';
import { JobfairEntity, JobfairStatus, JobfairTeamId } from '../shared/contract';
import { createProjection } from '../shared/projection';

const { projectBillingAccount, recordBillingInvoice } = proxyActivities<ReturnType<typeof createBillingActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 ms', maximumInterval: '30 seconds' },
});
// A human waits for an upgrade: one try, then the API answers 503 and the charge row stays
// `pending` for reconciliation (the provider's idempotency key makes any later retry charge once).
const { chargeBillingAccount: chargeNow } = proxyActivities<ReturnType<typeof createBillingActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 1 },
});
// A renewal waits for nobody: an unreachable provider is retried until it answers (same key each time).
const { chargeBillingAccount: chargeRenewal } = proxyActivities<ReturnType<typeof createBillingActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** Provider event ids remembered for deduplication (Stripe retries a webhook for days; repeats arrive long after). */
const DEDUP_WINDOW = 1000;

/**
 * The billing account actor `billing-account:<teamId>` (decision 0130): owns the team's plan,
 * interval, status, off-session consent and period. Provider events arrive as the signal
 * `billingEvent` (deduplicated by event id); the API's upgrade and cancel are Updates that answer
 * once the projection is written. Renewal at the period's end and dunning (retries on
 * BILLING_DUNNING_SCHEDULE_MS, then back to free) are durable timers.
 */
export async function billingAccountWorkflow(input: BillingAccountInput): Promise<BillingAccountResult> {
  const state: BillingAccountState = input.state ? { ...input.state } : initialBillingState(input.teamId);
  const recent: string[] = [...(input.recentEventIds ?? [])].slice(-DEDUP_WINDOW);
  const seen = new Set(recent);
  const invoiceQueue: BillingInvoiceRecord[] = [];
  const projection = createProjection(() => {
    upsertSearchAttributes([
      { key: JobfairEntity, value: 'billing_account' },
      { key: JobfairStatus, value: state.status },
      { key: JobfairTeamId, value: state.teamId },
    ]);
    return projectBillingAccount({ state: { ...state } });
  });
  // Charges (upgrades and renewals) run one at a time: two never race on the plan.
  let charging = false;

  const startPeriod = (plan: BillingPlan, interval: BillingInterval, atMs: number) => {
    state.plan = plan;
    state.interval = interval;
    state.status = 'active';
    state.currentPeriodEndMs = atMs + input.periodMs[interval];
    state.cancelAtPeriodEnd = false;
    state.failedRenewals = 0;
    state.nextRetryAtMs = null;
  };
  const backToFree = () => {
    state.plan = 'free';
    state.interval = null;
    state.status = 'canceled';
    state.currentPeriodEndMs = null;
    state.cancelAtPeriodEnd = false;
    state.failedRenewals = 0;
    state.nextRetryAtMs = null;
    state.pendingAuthentication = null;
  };

  const apply = (e: BillingEventSignalInput) => {
    if (e.customerId) state.providerCustomerId = e.customerId;
    if (e.invoice) invoiceQueue.push(e.invoice);
    switch (e.type) {
      case 'checkout.completed':
      case 'payment.succeeded':
        if (e.consent) state.consent = e.consent;
        if (e.plan && e.plan !== 'free' && e.interval) startPeriod(e.plan, e.interval, e.atMs);
        if (
          state.pendingAuthentication &&
          (e.type === 'checkout.completed' || state.pendingAuthentication.paymentId === e.paymentId)
        )
          state.pendingAuthentication = null;
        break;
      case 'payment.failed':
        if (state.pendingAuthentication?.paymentId === e.paymentId) state.pendingAuthentication = null;
        break;
      case 'subscription.updated':
        state.providerManaged = true;
        if (e.plan) state.plan = e.plan;
        if (e.interval) state.interval = e.interval;
        if (e.status) state.status = e.status;
        if (e.currentPeriodEndMs !== undefined) state.currentPeriodEndMs = e.currentPeriodEndMs;
        if (e.cancelAtPeriodEnd !== undefined) state.cancelAtPeriodEnd = e.cancelAtPeriodEnd;
        if (state.status === 'active') {
          state.failedRenewals = 0;
          state.nextRetryAtMs = null;
        }
        break;
      case 'subscription.deleted':
        backToFree();
        state.providerManaged = false;
        break;
      case 'invoice.recorded':
        break;
    }
  };

  const flushInvoices = async () => {
    while (invoiceQueue.length > 0) {
      await recordBillingInvoice({ teamId: state.teamId, invoice: invoiceQueue[0] });
      invoiceQueue.shift();
    }
  };
  const settled = async () => {
    const target = projection.version;
    await condition(() => projection.isProjected(target) && invoiceQueue.length === 0);
  };

  setHandler(billingStateQuery, () => ({ ...state }));
  setHandler(billingEventSignal, (e: BillingEventSignalInput) => {
    if (seen.has(e.eventId)) return;
    seen.add(e.eventId);
    recent.push(e.eventId);
    if (recent.length > DEDUP_WINDOW) seen.delete(recent.shift()!);
    apply(e);
    projection.changed();
  });

  setHandler(
    chargeOffSessionUpdate,
    async (req: ChargeOffSessionUpdateInput): Promise<ChargeOffSessionUpdateResult> => {
      await condition(() => !charging);
      charging = true;
      try {
        const consent = state.consent;
        if (!consent)
          throw ApplicationFailure.nonRetryable('No off-session consent on record', OFF_SESSION_CONSENT_REQUIRED);
        let charge: ChargeOutcome;
        try {
          charge = await chargeNow({
            teamId: state.teamId,
            chargeId: req.chargeId,
            reason: 'upgrade',
            plan: req.targetPlan,
            interval: req.interval,
            paymentMethodId: consent.paymentMethodId,
            currency: input.currency,
          });
        } catch (err) {
          // Nothing is decided: the account stays as it is and the API answers 503.
          if (err instanceof ActivityFailure)
            throw ApplicationFailure.nonRetryable('The payments provider is unavailable', BILLING_PROVIDER_UNAVAILABLE);
          throw err;
        }
        if (charge.outcome === 'succeeded') {
          invoiceQueue.push(charge.invoice);
          startPeriod(req.targetPlan, req.interval, Date.now());
          state.pendingAuthentication = null;
        } else if (charge.outcome === 'requires_action') {
          state.pendingAuthentication = {
            paymentId: charge.paymentId,
            targetPlan: req.targetPlan,
            interval: req.interval,
            url: charge.url,
          };
        }
        projection.changed();
        await settled();
        return { charge, state: { ...state } };
      } finally {
        charging = false;
      }
    },
    {
      validator: (req: ChargeOffSessionUpdateInput) => {
        if (!state.consent)
          throw ApplicationFailure.nonRetryable(
            `Team ${state.teamId} has not agreed to off-session charges`,
            OFF_SESSION_CONSENT_REQUIRED,
          );
        if (
          state.plan === req.targetPlan &&
          state.interval === req.interval &&
          state.status === 'active' &&
          !state.cancelAtPeriodEnd
        ) {
          throw ApplicationFailure.nonRetryable(
            `Team ${state.teamId} is already on ${req.targetPlan} (${req.interval})`,
            BILLING_ALREADY_ON_PLAN,
          );
        }
      },
    },
  );
  setHandler(
    cancelAtPeriodEndUpdate,
    async () => {
      state.cancelAtPeriodEnd = true;
      projection.changed();
      await settled();
      return { ...state };
    },
    {
      validator: () => {
        if (state.plan === 'free')
          throw ApplicationFailure.nonRetryable(
            `Team ${state.teamId} is on the free plan: nothing to cancel`,
            BILLING_NOTHING_TO_CANCEL,
          );
      },
    },
  );

  const dueAtMs = (): number | null => {
    if (state.plan === 'free' || state.currentPeriodEndMs === null || state.providerManaged) return null;
    if (state.status === 'past_due' && state.nextRetryAtMs !== null) return state.nextRetryAtMs;
    if (state.status === 'active') return state.currentPeriodEndMs;
    return null;
  };

  const renew = async () => {
    if (state.cancelAtPeriodEnd || !state.interval || state.plan === 'free') {
      backToFree();
      return;
    }
    const plan = state.plan;
    const interval = state.interval;
    // Deterministic: a replayed or retried renewal attempt is the same charge at the provider.
    const chargeId = `renewal_${state.teamId}_${state.currentPeriodEndMs}_${state.failedRenewals}`;
    const charge: ChargeOutcome = state.consent
      ? await chargeRenewal({
          teamId: state.teamId,
          chargeId,
          reason: 'renewal',
          plan,
          interval,
          paymentMethodId: state.consent.paymentMethodId,
          currency: input.currency,
        })
      : { outcome: 'declined', paymentId: null, declineCode: 'no_payment_method' };
    if (charge.outcome === 'succeeded') {
      invoiceQueue.push(charge.invoice);
      state.currentPeriodEndMs = (state.currentPeriodEndMs ?? Date.now()) + input.periodMs[interval];
      state.status = 'active';
      state.failedRenewals = 0;
      state.nextRetryAtMs = null;
      return;
    }
    state.failedRenewals++;
    if (state.failedRenewals > input.dunningScheduleMs.length) {
      backToFree();
      return;
    }
    state.status = 'past_due';
    state.nextRetryAtMs = Date.now() + input.dunningScheduleMs[state.failedRenewals - 1];
  };

  await projection.project();
  for (;;) {
    const due = dueAtMs();
    const wake = () =>
      projection.pending() || invoiceQueue.length > 0 || dueAtMs() !== due || workflowInfo().continueAsNewSuggested;
    if (due === null) await condition(wake);
    else await condition(wake, Math.max(1, due - Date.now()));
    await flushInvoices();
    if (projection.pending()) await projection.project();
    const nowDue = dueAtMs();
    if (nowDue !== null && nowDue <= Date.now()) {
      await condition(() => !charging);
      charging = true;
      try {
        // The state may have moved while we waited for a running upgrade.
        const still = dueAtMs();
        if (still !== null && still <= Date.now()) {
          await renew();
          projection.changed();
        }
      } finally {
        charging = false;
      }
      await flushInvoices();
      await projection.project();
    }
    if (workflowInfo().continueAsNewSuggested && !projection.pending() && invoiceQueue.length === 0 && !charging) {
      await condition(allHandlersFinished);
      if (projection.pending() || invoiceQueue.length > 0) continue;
      await continueAsNew<typeof billingAccountWorkflow>({
        ...input,
        state: { ...state },
        recentEventIds: recent.slice(-DEDUP_WINDOW),
      });
    }
  }
}
