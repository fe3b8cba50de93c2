import { createWebhookSubscriptionActivities } from '#activities/webhooks/subscription-activities';
import type { WebhookSubscriptionRow } from '#db/webhooks/webhooks-repository';
import {
  deleteSubscriptionUpdate,
  subscriptionStateQuery,
  webhookSubscriptionWorkflowId,
  type WebhookSubscriptionState,
} from '#workflows/webhooks/contract';
import { stateOf, type OpsContext } from './ops-context';
import type { Drift } from './reconcile-drift';

/**
 * Webhook subscriptions: the row (PostgreSQL) against its actor `webhook-subscription:<whk>`, which
 * owns status, failure counter and pause. Three kinds of drift:
 * - state: status / consecutive_failures / paused_at differ → `fix` re-projects them with the
 *   actor's own projection activity (a row marked deleted while its actor runs is re-projected too:
 *   only the actor's `delete` deletes);
 * - missing workflow: a live row whose actor has no open run (terminated, or lost) → `fix` starts
 *   it from the row, as the API does before messaging it; an actor that ended by `delete` instead
 *   re-projects the row as deleted;
 * - workflow without a row: a running actor (of this task queue) whose row is gone → `fix` sends
 *   it `delete`, which cancels its waiting deliveries and ends it.
 */
export async function reconcileWebhookSubscriptions(
  ctx: OpsContext,
  opts: { fix: boolean; since: Date },
): Promise<Drift[]> {
  const { knex, repos, config } = ctx.services.deps;
  const drift: Drift[] = [];
  const project = createWebhookSubscriptionActivities({
    knex,
    webhooksRepository: repos.webhooks,
    accountsRepository: repos.accounts,
    outbox: repos.outbox,
    client: ctx.temporal,
    publicBaseUrl: config.publicBaseUrl,
  }).projectWebhookSubscription;
  const reproject = async (s: WebhookSubscriptionState) =>
    project({
      webhookId: s.webhookId,
      status: s.status,
      consecutiveFailures: s.consecutiveFailures,
      pausedAtMs: s.pausedAtMs,
    });
  const of = (id: string, field: string, projection: unknown, workflow: unknown): Drift => ({
    kind: 'webhook_subscription',
    id,
    field,
    projection,
    workflow,
  });

  const rows: WebhookSubscriptionRow[] = await knex('webhook_subscriptions')
    .whereNot('status', 'deleted')
    .orWhere('updated_at', '>=', opts.since)
    .limit(10_000);
  const checked = new Set<string>();
  const check = async (row: WebhookSubscriptionRow) => {
    checked.add(row.id);
    const wf = await stateOf<WebhookSubscriptionState>(
      ctx.temporal,
      webhookSubscriptionWorkflowId(row.id),
      subscriptionStateQuery,
    );
    if (!wf?.running) {
      if (row.status === 'deleted') return;
      if (wf?.state.status === 'deleted') {
        const d = of(row.id, 'status', row.status, 'deleted');
        if (opts.fix) await reproject(wf.state).then(() => (d.fixed = true));
        drift.push(d);
        return;
      }
      const d = of(row.id, 'workflow', row.status, 'none running');
      if (opts.fix) await ctx.services.webhooks.ensureActor(row.id).then(() => (d.fixed = true));
      drift.push(d);
      return;
    }
    const s = wf.state;
    const found = (
      [
        ['status', row.status, s.status],
        ['consecutive_failures', row.consecutive_failures, s.consecutiveFailures],
        ['paused_at', row.paused_at?.getTime() ?? null, s.pausedAtMs],
      ] as Array<[string, unknown, unknown]>
    )
      .filter(([, a, b]) => a !== b)
      .map(([field, a, b]) => of(row.id, field, a, b));
    if (found.length && opts.fix) {
      await reproject(s);
      found.forEach((d) => (d.fixed = true));
    }
    drift.push(...found);
  };
  for (const row of rows) await check(row);

  // Running actors of this task queue that no row above accounts for: an older deleted row, or none.
  const query = `JobfairEntity="webhook_subscription" AND ExecutionStatus="Running" AND TaskQueue="${config.TEMPORAL_TASK_QUEUE}"`;
  for await (const w of ctx.temporal.workflow.list({ query })) {
    const id = w.workflowId.slice('webhook-subscription:'.length);
    if (checked.has(id)) continue;
    const row = await repos.webhooks.findSubscriptionById(id);
    if (row) {
      await check(row);
      continue;
    }
    const d = of(id, 'row', 'none', 'running');
    if (opts.fix) {
      await ctx.temporal.workflow.getHandle(w.workflowId).executeUpdate(deleteSubscriptionUpdate);
      d.fixed = true;
    }
    drift.push(d);
  }
  return drift;
}
