import { WorkflowNotFoundError } from '@temporalio/client';
import type { Config } from '#lib/config';
import { retentionWorkflowId } from '#workflows/retention/contract';
import { when, type OpsContext } from './ops-context';

/** Counted up to this many per table: enough to tell "a backlog" from "up to date", never a long scan. */
const COUNT_CAP = 100_000;

type RetentionSettings = Pick<
  Config,
  | 'TEMPORAL_TASK_QUEUE'
  | 'IDEMPOTENCY_KEY_RETENTION_MS'
  | 'WEBHOOK_DELIVERY_RETENTION_MS'
  | 'EMAIL_OUTBOX_RETENTION_MS'
  | 'RETENTION_EXPIRED_MARGIN_MS'
>;

/**
 * `npm run ops -- retention`: whether the retention workflow runs, what it last said (its current
 * details: passes, rows deleted per table, the next pass), and how many rows are past their
 * retention right now per table, with this process's settings.
 */
export async function retentionReport(ctx: OpsContext, config: RetentionSettings): Promise<string[]> {
  const nowMs = ctx.now?.() ?? Date.now();
  const id = retentionWorkflowId(config.TEMPORAL_TASK_QUEUE);
  const lines: string[] = [];
  try {
    const handle = ctx.temporal.workflow.getHandle(id);
    const d = await handle.describe();
    lines.push(`${id}: ${d.status.name.toLowerCase()}, started ${when(d.startTime.getTime(), nowMs, ctx.timeZone)}.`);
    if (d.status.name === 'RUNNING') {
      const meta = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata').catch(() => null);
      if (meta?.currentDetails) lines.push(meta.currentDetails);
    }
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    lines.push(`${id}: not started. Every worker starts it when it starts; is a worker running?`);
  }
  const repo = ctx.services.deps.repos.retention;
  const cutoffs = await repo.cutoffs({
    idempotencyKeysMs: config.IDEMPOTENCY_KEY_RETENTION_MS,
    webhookDeliveriesMs: config.WEBHOOK_DELIVERY_RETENTION_MS,
    emailOutboxMs: config.EMAIL_OUTBOX_RETENTION_MS,
    expiredMarginMs: config.RETENTION_EXPIRED_MARGIN_MS,
  });
  const due = await repo.countPastRetention(cutoffs, COUNT_CAP);
  const total = Object.values(due).reduce((a, n) => a + n, 0);
  lines.push(
    total === 0
      ? 'Rows past their retention now: none.'
      : `Rows past their retention now: ${Object.entries(due)
          .filter(([, n]) => n > 0)
          .map(([t, n]) => `${t} ${n >= COUNT_CAP ? `${COUNT_CAP}+` : n}`)
          .join(', ')}.`,
  );
  return lines;
}
