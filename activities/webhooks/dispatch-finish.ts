import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { WebhookDeliveryRow, WebhookSubscriptionRow } from '#db/webhooks/webhooks-repository';
import {
  attemptOutcomesSignal,
  webhookSubscriptionLabel,
  webhookSubscriptionWorkflowId,
  type AttemptOutcomeSignalInput,
} from '#workflows/webhooks/contract';
import { deliveryInput, startWebhookDelivery } from '#workflows/webhooks/client';
import { CONCURRENCY, deliveryKeyOf, firstAttemptId, type Outcome, type WebhookDispatcherDeps } from './dispatch-batch';

/** A retry of an emitted event this overdue may have lost its workflow (a crash between recording and starting it): start it (idempotent). */
const RETRY_OVERDUE_MS = 60_000;
const SWEEP_EVERY_MS = 30_000;
/** How long one subscription's outcome signal is retried in place before its batch is handed back to the queue. */
const SIGNAL_RETRY_MS = 10_000;

/** What follows a batch's attempts (signals, retry workflows, the dequeue), and the sweep of overdue retries. */
export function dispatchFinishing(deps: WebhookDispatcherDeps) {
  const repo = deps.webhooksRepository;
  let lastSweepMs = 0;
  const retryInput = (row: WebhookDeliveryRow, sub: WebhookSubscriptionRow | undefined, lastOutcome: string) =>
    deliveryInput(deps.config, {
      webhookId: row.subscription_id,
      eventId: row.event_id,
      eventType: row.event_type,
      run: row.run,
      source: 'event',
      ownerTeamId: sub?.owner_team_id ?? null,
      ownerUserId: sub?.owner_user_id ?? null,
      resume: { afterAttempt: 1, lastOutcome },
      ...(sub ? { subscriptionLabel: webhookSubscriptionLabel(sub) } : {}),
    });

  /** Sends one subscription's outcomes; a passing failure is retried in place (the actor deduplicates by `dlv_`). */
  const signalOutcomes = async (subId: string, list: AttemptOutcomeSignalInput[]) => {
    for (let delayMs = 100, until = Date.now() + SIGNAL_RETRY_MS; ; delayMs = Math.min(delayMs * 2, 2_000)) {
      try {
        await deps.client.workflow
          .getHandle(webhookSubscriptionWorkflowId(subId))
          .signal(attemptOutcomesSignal, { outcomes: list });
        return;
      } catch (err) {
        // The actor is gone (deleted subscription): nothing left to count.
        if (err instanceof WorkflowNotFoundError) return;
        if (Date.now() + delayMs >= until) throw err;
        Context.current().heartbeat();
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  };

  /**
   * After a batch's attempts: one signal per subscription (outcomes in attempt order), a retry
   * workflow per failed delivery, then the rows leave the queue. Until that last step the rows stay
   * queued under their lease, so a worker lost in between leaves them to a later claim, which answers
   * from the recorded attempts (no POST) and signals again — the failure counter is never skipped.
   * `signalTails` orders one subscription's signals across batches whose finishing overlaps.
   */
  const finishBatch = async (
    rows: WebhookDeliveryRow[],
    outcomes: Outcome[],
    subById: Map<string, WebhookSubscriptionRow>,
    signalTails: Map<string, Promise<unknown>>,
  ) => {
    const bySub = new Map<string, AttemptOutcomeSignalInput[]>();
    for (const o of outcomes)
      if (o.signal) bySub.set(o.row.subscription_id, [...(bySub.get(o.row.subscription_id) ?? []), o.signal]);
    const sent = await Promise.allSettled(
      [...bySub].map(([subId, list]) => {
        list.sort((a, b) => a.atMs - b.atMs);
        // After this subscription's signal of the previous batch; if that one failed, this one is not sent either (both batches are claimed again, in order).
        const signalled = (signalTails.get(subId) ?? Promise.resolve()).then(() => signalOutcomes(subId, list));
        signalTails.set(subId, signalled);
        return signalled;
      }),
    );
    // Every signal of the batch has settled before the batch is handed back, so a claim that takes it again does not overtake them.
    const failure = sent.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    // Retries: a workflow per failed delivery (idempotent start on the delivery's workflow id).
    const failed = outcomes.filter((o) => o.kind === 'failed' && o.row.state === 'retrying');
    let retriesStarted = 0;
    for (let i = 0; i < failed.length; i += CONCURRENCY) {
      await Promise.all(
        failed.slice(i, i + CONCURRENCY).map(async (o) => {
          if (
            await startWebhookDelivery(
              deps.client,
              deps.config,
              retryInput(o.row, subById.get(o.row.subscription_id), o.lastOutcome ?? 'a failure'),
              'event',
            )
          )
            retriesStarted++;
        }),
      );
    }
    // Out of the queue: one statement for the batch.
    await repo.dequeueFirstAttempts(rows.map(deliveryKeyOf));
    return retriesStarted;
  };

  /** Overdue retries of emitted events whose workflow may never have started (a crash between recording the failure and starting it). */
  const sweep = async (): Promise<number> => {
    if (Date.now() - lastSweepMs < SWEEP_EVERY_MS) return 0;
    lastSweepMs = Date.now();
    const rows = await repo.overdueEventRetries(RETRY_OVERDUE_MS, 50);
    if (rows.length === 0) return 0;
    const subs = new Map(
      (await repo.findSubscriptionsByIds([...new Set(rows.map((r) => r.subscription_id))])).map((s) => [s.id, s]),
    );
    let started = 0;
    for (const r of rows) {
      const a = await repo.findAttempt(r.subscription_id, firstAttemptId(r));
      if (!a || r.attempts !== 1) continue; // not the dispatcher's (an old-style delivery workflow owns it)
      if (
        await startWebhookDelivery(
          deps.client,
          deps.config,
          retryInput(
            r,
            subs.get(r.subscription_id),
            a.http_status ? `HTTP ${a.http_status}` : (a.error_kind ?? 'a failure'),
          ),
          'event',
        )
      )
        started++;
    }
    return started;
  };

  return { finishBatch, sweep };
}
