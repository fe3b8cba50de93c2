import type { Knex } from 'knex';
import type { LocalPaymentRow, LocalPaymentStatus } from '#domain/billing/provider';
import type {
  BillingAccountState,
  BillingChargeReason,
  BillingChargeStatus,
  BillingInterval,
  BillingInvoiceRecord,
  BillingInvoiceStatus,
  BillingPlan,
  BillingStatus,
  PendingAuthentication,
} from '#workflows/billing/contract';

export interface BillingAccountRow {
  team_id: string;
  plan: BillingPlan;
  interval: BillingInterval | null;
  status: BillingStatus;
  consent_payment_method: string | null;
  consent_display: string | null;
  consent_at: Date | null;
  current_period_end: Date | null;
  cancel_at_period_end: boolean;
  failed_renewals: number;
  next_retry_at: Date | null;
  pending_authentication: PendingAuthentication | null;
  updated_at: Date;
}

export interface BillingInvoiceRow {
  id: string;
  team_id: string;
  number: string | null;
  amount_cents: number;
  currency: string;
  status: BillingInvoiceStatus;
  plan: BillingPlan | null;
  interval: BillingInterval | null;
  period_start: Date | null;
  period_end: Date | null;
  hosted_url: string | null;
  pdf_url: string | null;
  created_at: Date;
}

export interface BillingChargeRow {
  id: string;
  team_id: string;
  reason: BillingChargeReason;
  plan: BillingPlan;
  interval: BillingInterval;
  amount_cents: number;
  currency: string;
  status: BillingChargeStatus;
  provider_payment_id: string | null;
  decline_code: string | null;
  created_at: Date;
  updated_at: Date;
}

export type { LocalPaymentRow, LocalPaymentStatus } from '#domain/billing/provider';

const ms = (d: number | null) => (d === null ? null : new Date(d));

export function createBillingRepository(knex: Knex) {
  return {
    /** The team's plan as the actor last projected it (no row: free). */
    async planOf(teamId: string, trx: Knex = knex): Promise<BillingPlan> {
      return (
        ((await trx('billing_accounts').where({ team_id: teamId }).first('plan'))?.plan as BillingPlan | undefined) ??
        'free'
      );
    },
    async isProviderEventRecorded(id: string, trx: Knex = knex): Promise<boolean> {
      return !!(await trx('billing_provider_events').where({ id }).first('id'));
    },
    async findAccount(teamId: string, trx: Knex = knex): Promise<BillingAccountRow | undefined> {
      return trx('billing_accounts').where({ team_id: teamId }).first();
    },
    /** The actor's projection (one writer). */
    async upsertAccount(s: BillingAccountState, trx: Knex = knex): Promise<void> {
      const row = {
        team_id: s.teamId,
        plan: s.plan,
        interval: s.interval,
        status: s.status,
        consent_payment_method: s.consent?.paymentMethodId ?? null,
        consent_display: s.consent?.display ?? null,
        consent_at: s.consent ? new Date(s.consent.consentedAtMs) : null,
        current_period_end: ms(s.currentPeriodEndMs),
        cancel_at_period_end: s.cancelAtPeriodEnd,
        failed_renewals: s.failedRenewals,
        next_retry_at: ms(s.nextRetryAtMs),
        pending_authentication: s.pendingAuthentication ? JSON.stringify(s.pendingAuthentication) : null,
        updated_at: trx.fn.now(),
      };
      await trx('billing_accounts').insert(row).onConflict('team_id').merge();
    },

    async findCustomer(
      teamId: string,
      trx: Knex = knex,
    ): Promise<{ team_id: string; provider: string; customer_id: string } | undefined> {
      return trx('billing_customers').where({ team_id: teamId }).first();
    },
    /** First writer wins: a concurrent first checkout keeps one customer per team. */
    async insertCustomer(teamId: string, provider: string, customerId: string, trx: Knex = knex): Promise<string> {
      await trx('billing_customers')
        .insert({ team_id: teamId, provider, customer_id: customerId })
        .onConflict('team_id')
        .ignore();
      return (await trx('billing_customers').where({ team_id: teamId }).first('customer_id')).customer_id as string;
    },
    async teamExists(teamId: string, trx: Knex = knex): Promise<boolean> {
      if (!/^[0-9a-f-]{36}$/i.test(teamId)) return false;
      return !!(await trx('teams').where({ id: teamId }).first('id'));
    },
    async findTeamByCustomer(customerId: string, trx: Knex = knex): Promise<string | undefined> {
      return (await trx('billing_customers').where({ customer_id: customerId }).first('team_id'))?.team_id;
    },

    async upsertInvoice(teamId: string, inv: BillingInvoiceRecord, trx: Knex = knex): Promise<void> {
      await trx('billing_invoices')
        .insert({
          id: inv.id,
          team_id: teamId,
          number: inv.number,
          amount_cents: inv.amountCents,
          currency: inv.currency,
          status: inv.status,
          plan: inv.plan,
          interval: inv.interval,
          period_start: ms(inv.periodStartMs),
          period_end: ms(inv.periodEndMs),
          hosted_url: inv.hostedUrl,
          pdf_url: inv.pdfUrl,
          created_at: new Date(inv.createdAtMs),
        })
        .onConflict('id')
        // created_at is the pagination key: it never changes once the row exists.
        .merge(['status', 'hosted_url', 'pdf_url', 'number']);
    },
    /** For the shared paginator (newest first). */
    invoicesQuery(teamId: string, trx: Knex = knex) {
      return trx('billing_invoices').where({ team_id: teamId });
    },
    async findInvoice(id: string, trx: Knex = knex): Promise<BillingInvoiceRow | undefined> {
      return trx('billing_invoices').where({ id }).first();
    },

    /** Recorded before the provider call; a retried activity finds its row again. */
    async insertPendingCharge(
      c: Pick<BillingChargeRow, 'id' | 'team_id' | 'reason' | 'plan' | 'interval' | 'amount_cents' | 'currency'>,
      trx: Knex = knex,
    ): Promise<void> {
      await trx('billing_charges')
        .insert({ ...c, status: 'pending' })
        .onConflict('id')
        .ignore();
    },
    async settleCharge(
      id: string,
      s: { status: BillingChargeStatus; providerPaymentId: string | null; declineCode?: string | null },
      trx: Knex = knex,
    ): Promise<void> {
      await trx('billing_charges')
        .where({ id })
        .update({
          status: s.status,
          provider_payment_id: s.providerPaymentId,
          decline_code: s.declineCode ?? null,
          updated_at: trx.fn.now(),
        });
    },
    async findCharge(id: string, trx: Knex = knex): Promise<BillingChargeRow | undefined> {
      return trx('billing_charges').where({ id }).first();
    },
    async listUnsettledCharges(olderThan: Date, trx: Knex = knex): Promise<BillingChargeRow[]> {
      // Renewals are not listed: their activity retries with the same key until the provider answers.
      return trx('billing_charges')
        .where({ reason: 'upgrade' })
        .whereIn('status', ['pending', 'requires_action'])
        .where('created_at', '<', olderThan)
        .orderBy('created_at')
        .limit(500);
    },

    /** True the first time this provider event id is seen. */
    async recordProviderEvent(id: string, type: string, teamId: string | null, trx: Knex = knex): Promise<boolean> {
      const r = await trx('billing_provider_events')
        .insert({ id, type, team_id: teamId })
        .onConflict('id')
        .ignore()
        .returning('id');
      return r.length > 0;
    },

    // ---- the local provider's own state ----
    async insertLocalPayment(
      row: Omit<LocalPaymentRow, 'created_at' | 'completed_at' | 'last_error' | 'invoice_id'>,
      trx: Knex = knex,
    ): Promise<LocalPaymentRow> {
      const inserted = await trx('billing_local_payments')
        .insert(row)
        .onConflict('idempotency_key')
        .ignore()
        .returning('*');
      if (inserted[0]) return inserted[0] as LocalPaymentRow;
      return (await trx('billing_local_payments')
        .where({ idempotency_key: row.idempotency_key })
        .first()) as LocalPaymentRow;
    },
    async findLocalPayment(id: string, trx: Knex = knex): Promise<LocalPaymentRow | undefined> {
      return trx('billing_local_payments').where({ id }).first();
    },
    async findLocalPaymentByKey(key: string, trx: Knex = knex): Promise<LocalPaymentRow | undefined> {
      return trx('billing_local_payments').where({ idempotency_key: key }).first();
    },
    /** Moves a payment only from one of `from`: a double-submitted form changes it once. */
    async transitionLocalPayment(
      id: string,
      from: LocalPaymentStatus[],
      patch: Partial<
        Pick<LocalPaymentRow, 'status' | 'payment_method' | 'card_display' | 'last_error' | 'invoice_id'>
      > & { completed?: boolean },
      trx: Knex = knex,
    ): Promise<LocalPaymentRow | undefined> {
      const { completed, ...rest } = patch;
      const [row] = await trx('billing_local_payments')
        .where({ id })
        .whereIn('status', from)
        .update({ ...rest, ...(completed ? { completed_at: trx.fn.now() } : {}) })
        .returning('*');
      return row as LocalPaymentRow | undefined;
    },
  };
}
export type BillingRepository = ReturnType<typeof createBillingRepository>;
