import type { Knex } from 'knex';
import type pg from 'pg';
import { Context } from '@temporalio/activity';
import type { WebhookDeliveryRow } from '#db/webhooks/webhooks-repository';
import { listenForDispatch, type DispatchListener } from './dispatch-wake';
import { deliveryKeyOf, type Outcome, type WebhookDispatcherDeps } from './dispatch-batch';
import { dispatchFirstAttempts } from './dispatch-first-attempts';
import { dispatchFinishing } from './dispatch-finish';

export { firstAttemptId } from './dispatch-batch';

export interface DispatchWebhookFirstAttemptsInput {
  /** Return after this many deliveries (the workflow's history then records the call). */
  maxDeliveries: number;
  /** Return after waiting this long with nothing to do. */
  idleWaitMs: number;
}
export interface DispatchWebhookFirstAttemptsResult {
  attempted: number;
  delivered: number;
  failed: number;
  notSent: number;
  retriesStarted: number;
  sweptRetries: number;
}

/** Rows claimed per query. */
const CLAIM_BATCH = 200;
/**
 * How often PostgreSQL is asked for new work when no wake-up comes and the LISTEN connection is
 * down (with it up: WEBHOOK_DISPATCH_POLL_MS, a safety poll; decision 0217).
 */
const FALLBACK_POLL_MS = 100;
/** Batches whose signals, retry starts and dequeue may still run while the next batch is claimed (decision 0240). */
const MAX_FINISHING = 4;
/** An idle call still heartbeats this often (the workflow's heartbeat timeout is 30 s). */
const HEARTBEAT_EVERY_MS = 10_000;

/** The pool's connection settings, for the LISTEN connection of its own. */
const connectionOf = (knex: Knex): pg.ClientConfig => {
  const c = (knex.client as { connectionSettings?: pg.ClientConfig | string }).connectionSettings;
  return typeof c === 'string' ? { connectionString: c } : { ...c };
};

/**
 * What `webhookDispatcherWorkflow` proxies (decision 0195): the claim loop here; a batch's first
 * attempts in dispatch-first-attempts.ts, what follows them in dispatch-finish.ts.
 */
export function createWebhookDispatcherActivities(deps: WebhookDispatcherDeps) {
  const repo = deps.webhooksRepository;
  const leaseMs = deps.config.WEBHOOK_TIMEOUT_MS + 60_000;
  const drained = aborted(deps.draining); // one listener for the worker's life
  const { attemptBatch } = dispatchFirstAttempts(deps);
  const { finishBatch, sweep } = dispatchFinishing(deps);

  return {
    /**
     * Claims due first attempts in batches and works through them until `maxDeliveries` are done or
     * nothing has come for `idleWaitMs`. Heartbeats throughout; on cancellation it returns what it did.
     */
    async dispatchWebhookFirstAttempts(
      input: DispatchWebhookFirstAttemptsInput,
    ): Promise<DispatchWebhookFirstAttemptsResult> {
      const ctx = Context.current();
      const total: DispatchWebhookFirstAttemptsResult = {
        attempted: 0,
        delivered: 0,
        failed: 0,
        notSent: 0,
        retriesStarted: 0,
        sweptRetries: 0,
      };
      let idleSince = Date.now();
      // Woken by NOTIFY while this call waits (decision 0217); the connection lives as long as the call.
      const listener: DispatchListener = await listenForDispatch(connectionOf(deps.knex), deps.dispatchWake);
      // Batches whose finishing (signals, retries, dequeue) is still running, and those whose finishing failed.
      const inFlight = new Set<Promise<void>>();
      const failedBatches: WebhookDeliveryRow[][] = [];
      const signalTails = new Map<string, Promise<unknown>>();
      /**
       * Waits for every batch in flight; a batch whose finishing failed gets its lease back so the
       * next claim takes it again (before newer rows: claims go oldest first), answered from the
       * recorded attempts. If even that fails the lease runs out by itself.
       */
      const settle = async () => {
        while (inFlight.size > 0) await Promise.all(inFlight);
        signalTails.clear();
        const failed = failedBatches.splice(0).flat();
        if (failed.length === 0) return;
        await repo.releaseFirstAttemptLeases(failed.map(deliveryKeyOf)).catch((err: unknown) =>
          ctx.log.warn('webhook first attempts: could not hand back a lease; it runs out by itself', {
            error: String(err),
          }),
        );
      };
      try {
        total.sweptRetries += await sweep();
        while (total.attempted < input.maxDeliveries) {
          ctx.heartbeat();
          // Read before the claim: a wake-up between an empty claim and the wait is not lost.
          const seen = deps.dispatchWake.count();
          const rows = await repo.claimFirstAttempts(
            Math.min(CLAIM_BATCH, input.maxDeliveries - total.attempted),
            leaseMs,
          );
          if (rows.length === 0) {
            const idleMs = Date.now() - idleSince;
            if (idleMs >= input.idleWaitMs) break;
            // Wait for a wake-up, the safety poll or the idle return, heartbeating meanwhile (no query).
            const pollMs = listener.listening ? deps.config.WEBHOOK_DISPATCH_POLL_MS : FALLBACK_POLL_MS;
            const until = Date.now() + Math.min(pollMs, input.idleWaitMs - idleMs);
            // A draining worker ends the idle wait at once: the shutdown does not wait out the grace time.
            const stop = () => ctx.cancellationSignal.aborted || deps.draining?.aborted === true;
            while (Date.now() < until && deps.dispatchWake.count() === seen && !stop()) {
              await Promise.race([
                deps.dispatchWake.waitForNudge(Math.max(1, Math.min(until - Date.now(), HEARTBEAT_EVERY_MS)), seen),
                ctx.cancelled.catch(() => undefined),
                drained,
              ]);
              ctx.heartbeat();
            }
            if (stop()) break;
            continue;
          }
          const { outcomes, subById } = await attemptBatch(rows);
          const count = (kind: Outcome['kind']) => outcomes.filter((o) => o.kind === kind).length;
          total.attempted += rows.length;
          total.delivered += count('delivered');
          total.failed += count('failed');
          total.notSent += count('not_sent');
          idleSince = Date.now();
          // Its signals, retries and dequeue run while the next batch is claimed; at most MAX_FINISHING batches at once.
          const finishing = finishBatch(rows, outcomes, subById, signalTails).then(
            (n) => {
              total.retriesStarted += n;
            },
            (err: unknown) => {
              failedBatches.push(rows);
              ctx.log.warn('webhook first attempts: finishing a batch failed; its rows are claimed again', {
                rows: rows.length,
                error: String(err),
              });
            },
          );
          inFlight.add(finishing);
          void finishing.finally(() => inFlight.delete(finishing));
          if (inFlight.size >= MAX_FINISHING) await Promise.race(inFlight);
          if (failedBatches.length > 0) await settle();
        }
      } finally {
        try {
          await settle();
        } finally {
          await listener.close();
        }
      }
      if (total.attempted > 0) ctx.log.info('webhook first attempts', { ...total });
      return total;
    },
  };
}
export type WebhookDispatcherActivities = ReturnType<typeof createWebhookDispatcherActivities>;

/** Resolves when `signal` aborts (never without one). */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise<void>(() => undefined);
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
