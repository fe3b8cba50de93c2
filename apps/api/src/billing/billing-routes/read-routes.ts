import { z } from 'zod';
import { requireAuth } from '../../plugins/auth';
import { errorEnvelopeSchema } from '../../plugins/http-schemas';
import { mapPage, pageSchema, paginationQuerySchema } from '../../plugins/pagination';
import { BILLING_PLANS, BILLING_INTERVALS } from '#workflows/billing/contract';
import {
  billingStatusSchema,
  invoiceSchema,
  plansSchema,
  toBillingStatus,
  toInvoice,
  toPlanEntry,
} from '../billing-schemas';
import { PAYER, payer, read, tags, type BillingApp } from './route-settings';

/** GET /billing/plans, /billing/status and /billing/invoices. */
export function billingReadRoutes(app: BillingApp): void {
  const service = app.services.billing;
  const currency = app.config.BILLING_CURRENCY;
  const freeMax = app.config.BILLING_FREE_MAX_LIVE_EVENTS;

  app.get('/billing/plans', {
    config: { rateClass: 'public' },
    schema: {
      operationId: 'listBillingPlans',
      tags,
      summary: 'The plan catalogue: prices and what each plan buys',
      description:
        'Public. `free` is where every team starts (one live event at once); the limits are ' +
        'enforced (over a limit → 402 `PLAN_LIMIT_REACHED` naming the plan).',
      response: { 200: plansSchema },
    },
    handler: async () => ({
      plans: BILLING_PLANS.map((id) => toPlanEntry(id, currency, freeMax)),
      intervals: [...BILLING_INTERVALS],
    }),
  });

  app.get('/billing/status', {
    config: read,
    schema: {
      operationId: 'getBillingStatus',
      tags,
      summary: "The team's billing status (one row, not paginated)",
      description:
        `\`{ billing: {...} }\`: plan, interval, status (\`active | past_due | canceled | ` +
        `incomplete\`), current period end, off-session consent, dunning, a pending ` +
        `authentication. ${PAYER}`,
      response: { 200: z.object({ billing: billingStatusSchema }), 403: errorEnvelopeSchema },
    },
    handler: async (request) => {
      const { teamId, row } = await service.status(payer(requireAuth(request)));
      return { billing: toBillingStatus(teamId, row, service.provider, freeMax) };
    },
  });

  app.get('/billing/invoices', {
    config: read,
    schema: {
      operationId: 'listBillingInvoices',
      tags,
      summary: "The team's invoices, newest first",
      description:
        `Paginated (\`limit\`, \`cursor\`; \`{ data, next_cursor?, has_more }\`). Each carries ` +
        `\`hosted_invoice_url\` and \`invoice_pdf\` where the provider has them. ${PAYER}`,
      querystring: paginationQuerySchema(),
      response: { 200: pageSchema(invoiceSchema), 403: errorEnvelopeSchema },
    },
    handler: async (request) => mapPage(await service.invoices(payer(requireAuth(request)), request.query), toInvoice),
  });
}
