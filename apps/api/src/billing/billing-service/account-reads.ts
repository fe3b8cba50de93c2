import type { BillingInvoiceRow } from '#db/billing/billing-repository';
import type { Page } from '../../plugins/pagination';
import type { BillingServiceDeps } from './deps';
import { teamOf, type Payer } from './payer';

/** What the team's billing looks like: the actor's projection and the invoices. */
export function accountReads(deps: BillingServiceDeps) {
  const billing = deps.repos.billing;
  return {
    async status(p: Payer) {
      const teamId = teamOf(p);
      return { teamId, row: await billing.findAccount(teamId) };
    },
    async invoices(p: Payer, q: { limit: number; cursor?: string }): Promise<Page<BillingInvoiceRow>> {
      const teamId = teamOf(p);
      return deps.paginator.page<BillingInvoiceRow>(billing.invoicesQuery(teamId), {
        limit: q.limit,
        cursor: q.cursor,
        filter: { list: 'billing_invoices', teamId },
      });
    },
  };
}
