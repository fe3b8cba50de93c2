import { ApplicationFailure } from '@temporalio/common';
import type { BillingRepository } from '#db/billing/billing-repository';
import { ProviderUnavailableError, type BillingProvider } from '#domain/billing/provider';
import {
  PLAN_CATALOGUE,
  BILLING_PROVIDER_UNAVAILABLE,
  type BillingAccountState,
  type BillingChargeReason,
  type BillingInterval,
  type BillingInvoiceRecord,
  type ChargeOutcome,
  type PaidBillingPlan,
} from '#workflows/billing/contract';

export interface ProjectBillingAccountInput {
  state: BillingAccountState;
}
export interface RecordBillingInvoiceInput {
  teamId: string;
  invoice: BillingInvoiceRecord;
}
export interface ChargeBillingAccountInput {
  teamId: string;
  chargeId: string;
  reason: BillingChargeReason;
  plan: PaidBillingPlan;
  interval: BillingInterval;
  paymentMethodId: string;
  currency: string;
}
export type ChargeBillingAccountResult = ChargeOutcome;

/** The billing actor's activities: its projection, its invoices, and the off-session charge. */
export function createBillingActivities(deps: {
  billingRepository: BillingRepository;
  provider: BillingProvider;
  publicBaseUrl: string;
}) {
  const repo = deps.billingRepository;
  return {
    async projectBillingAccount({ state }: ProjectBillingAccountInput): Promise<void> {
      await repo.upsertAccount(state);
    },
    async recordBillingInvoice({ teamId, invoice }: RecordBillingInvoiceInput): Promise<void> {
      await repo.upsertInvoice(teamId, invoice);
    },
    /**
     * Records the charge `pending`, asks the provider (our charge id is its idempotency key), then
     * settles the record. A crash in between leaves `pending`: Temporal's retry or
     * `npm run billing:reconcile` asks the provider again with the same key, so nothing is charged twice.
     */
    async chargeBillingAccount(input: ChargeBillingAccountInput): Promise<ChargeBillingAccountResult> {
      const amountCents = PLAN_CATALOGUE[input.plan].prices[input.interval];
      await repo.insertPendingCharge({
        id: input.chargeId,
        team_id: input.teamId,
        reason: input.reason,
        plan: input.plan,
        interval: input.interval,
        amount_cents: amountCents,
        currency: input.currency,
      });
      const customer = await repo.findCustomer(input.teamId);
      let result;
      try {
        result = await deps.provider.chargeOffSession({
          teamId: input.teamId,
          customerId: customer?.customer_id ?? '',
          paymentMethodId: input.paymentMethodId,
          amountCents,
          currency: input.currency,
          idempotencyKey: input.chargeId,
          description: `Job Fair ${PLAN_CATALOGUE[input.plan].name} (${input.interval}) ${input.reason}`,
          plan: input.plan,
          interval: input.interval,
          authenticationReturnUrl: `${deps.publicBaseUrl}/recruiter/billing`,
        });
      } catch (err) {
        if (err instanceof ProviderUnavailableError)
          throw ApplicationFailure.retryable(err.message, BILLING_PROVIDER_UNAVAILABLE);
        throw err;
      }
      if (result.status === 'succeeded') {
        await repo.settleCharge(input.chargeId, { status: 'succeeded', providerPaymentId: result.paymentId });
        const periodStart = Date.now();
        return {
          outcome: 'succeeded',
          paymentId: result.paymentId,
          invoice: {
            id: result.receipt.id,
            number: result.receipt.number,
            amountCents,
            currency: input.currency,
            status: 'paid',
            plan: input.plan,
            interval: input.interval,
            periodStartMs: periodStart,
            periodEndMs: null,
            hostedUrl: result.receipt.hostedUrl,
            pdfUrl: result.receipt.pdfUrl,
            createdAtMs: result.receipt.createdAtMs,
          },
        };
      }
      if (result.status === 'requires_action') {
        await repo.settleCharge(input.chargeId, { status: 'requires_action', providerPaymentId: result.paymentId });
        return { outcome: 'requires_action', paymentId: result.paymentId, url: result.url };
      }
      await repo.settleCharge(input.chargeId, {
        status: 'declined',
        providerPaymentId: result.paymentId,
        declineCode: result.declineCode,
      });
      return { outcome: 'declined', paymentId: result.paymentId, declineCode: result.declineCode };
    },
  };
}
