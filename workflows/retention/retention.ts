import { continueAsNew, proxyActivities, setCurrentDetails, sleep, workflowInfo } from '@temporalio/workflow';
import { RETENTION_TABLES, type RetentionInput, type RetentionTotals } from './contract';
import type { createRetentionActivities } from '../../activities/retention/retention-activities';

const { pruneExpiredRows } = proxyActivities<ReturnType<typeof createRetentionActivities>>({
  // One call deletes at most RETENTION_MAX_BATCHES_PER_CALL batches and heartbeats after each, so
  // a lost worker is noticed in 30 s; the retry goes on where the rows say (deleted rows are gone).
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Activity calls per run before continue-as-new (a call and its timer are about 10 history events). */
const CALLS_PER_RUN = 200;

/**
 * `retention:<task queue>` (decision 0267): deletes rows past their retention — idempotency keys
 * after 24 h, finished webhook deliveries and their attempts after 30 days, sent e-mails, expired
 * OAuth codes and tokens, sessions and sign-up requests — in small batches, one activity call per
 * pass (again at once while a call ran out of budget), then sleeps until the next pass. Every
 * worker makes sure it runs at start (`ensureRetention`), as the matchmaker is kicked.
 */
export async function retentionWorkflow(input: RetentionInput): Promise<void> {
  const totals = Object.fromEntries(RETENTION_TABLES.map((t) => [t, input.totals?.[t] ?? 0])) as RetentionTotals;
  let passes = input.passes ?? 0;
  const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  const summary = () =>
    RETENTION_TABLES.filter((t) => totals[t] > 0)
      .map((t) => `${t} ${totals[t]}`)
      .join(', ') || 'nothing yet';
  setCurrentDetails(`Retention for task queue ${input.taskQueue}: ${passes} passes; deleted so far: ${summary()}.`);
  for (let call = 0; call < CALLS_PER_RUN; call++) {
    const r = await pruneExpiredRows({});
    for (const t of RETENTION_TABLES) totals[t] += r.deleted[t] ?? 0;
    if (!r.more) passes++;
    const deletedNow = RETENTION_TABLES.reduce((n, t) => n + (r.deleted[t] ?? 0), 0);
    setCurrentDetails(
      `Retention for task queue ${input.taskQueue}: ${passes} passes; deleted so far: ${summary()}. ` +
        `Last call at ${utc(Date.now())}: ${deletedNow} rows${r.more ? ', more to do: calling again' : `; next pass at ${utc(Date.now() + r.nextPassInMs)}`}.`,
    );
    if (workflowInfo().continueAsNewSuggested) break;
    if (!r.more) await sleep(r.nextPassInMs);
  }
  await continueAsNew<typeof retentionWorkflow>({ ...input, totals, passes });
}
