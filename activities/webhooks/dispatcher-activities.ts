import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type pg from 'pg';
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Config } from '#lib/config';
import type {
  DeliveryKey,
  WebhooksRepository,
  WebhookDeliveryRow,
  WebhookSubscriptionRow,
  DomainEventRow,
} from '#db/webhooks/webhooks-repository';
import { buildEnvelope, signatureHeaders } from '#domain/webhooks/signing';
import type { OutboundHttpClient } from '#lib/outbound-http/http-client';
import {
  attemptOutcomesSignal,
  webhookSubscriptionLabel,
  webhookSubscriptionWorkflowId,
  type AttemptOutcomeSignalInput,
  type WebhookDeliveryState,
} from '#workflows/webhooks/contract';
import { deliveryInput, startWebhookDelivery } from '#workflows/webhooks/client';
import { MAX_WEBHOOK_BODY_BYTES, signingSecretsOf } from './delivery-activities';
import { RECORD_AFTER_SEND_MS, endWithoutRequest, keyOf, recordAfterSend } from './delivery-records';
import { domainMetrics } from '#lib/metrics';
import { listenForDispatch, type DispatchListener, type DispatchWake } from './dispatch-wake';

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
/** POSTs in flight at once. */
const CONCURRENCY = 32;
/**
 * How often PostgreSQL is asked for new work when no wake-up comes and the LISTEN connection is
 * down (with it up: WEBHOOK_DISPATCH_POLL_MS, a safety poll; decision 0217).
 */
const FALLBACK_POLL_MS = 100;
/** A retry of an emitted event this overdue may have lost its workflow (a crash between recording and starting it): start it (idempotent). */
const RETRY_OVERDUE_MS = 60_000;
const SWEEP_EVERY_MS = 30_000;
/** Batches whose signals, retry starts and dequeue may still run while the next batch is claimed (decision 0240). */
const MAX_FINISHING = 4;
/** How long one subscription's outcome signal is retried in place before its batch is handed back to the queue. */
const SIGNAL_RETRY_MS = 10_000;
/** An idle call still heartbeats this often (the workflow's heartbeat timeout is 30 s). */
const HEARTBEAT_EVERY_MS = 10_000;

/** The pool's connection settings, for the LISTEN connection of its own. */
const connectionOf = (knex: Knex): pg.ClientConfig => {
  const c = (knex.client as { connectionSettings?: pg.ClientConfig | string }).connectionSettings;
  return typeof c === 'string' ? { connectionString: c } : { ...c };
};

/**
 * The first attempt's `dlv_` id is derived from the delivery, so an attempt repeated after a crash
 * (lease ran out before the batch was finished) is one log row and one count in the actor.
 */
export const firstAttemptId = (d: { subscription_id: string; event_id: string; run: number }) =>
  `dlv_${createHash('sha256').update(`first:${d.subscription_id}:${d.event_id}:${d.run}`).digest('hex').slice(0, 32)}`;

const deliveryKeyOf = (r: WebhookDeliveryRow): DeliveryKey => ({
  subscriptionId: r.subscription_id,
  eventId: r.event_id,
  run: r.run,
});

interface Outcome {
  row: WebhookDeliveryRow;
  kind: 'delivered' | 'failed' | 'not_sent';
  signal: AttemptOutcomeSignalInput | null;
  /** For a failed attempt: what the retry workflow shows ("HTTP 500", "timeout"). */
  lastOutcome?: string;
}

/** What `webhookDispatcherWorkflow` proxies (decision 0195). */
export function createWebhookDispatcherActivities(deps: {
  knex: Knex;
  webhooksRepository: WebhooksRepository;
  httpClient: OutboundHttpClient;
  appSecret: string;
  client: Client;
  config: Config;
  dispatchWake: DispatchWake;
  draining?: AbortSignal;
}) {
  const repo = deps.webhooksRepository;
  const leaseMs = deps.config.WEBHOOK_TIMEOUT_MS + 60_000;
  const drained = aborted(deps.draining); // one listener for the worker's life
  let lastSweepMs = 0;

  /** One claimed delivery: decide, POST, record (state and attempt in one transaction; `first_attempt_due_at` stays until the batch is done). */
  const attemptOne = async (
    row: WebhookDeliveryRow,
    sub: WebhookSubscriptionRow | undefined,
    event: DomainEventRow | undefined,
  ): Promise<Outcome> => {
    const id = firstAttemptId(row);
    if (row.state !== 'pending') {
      // Recorded by an earlier try of this batch that did not finish: answer from the record, do not POST again.
      const a = await repo.findAttempt(row.subscription_id, id);
      const kind =
        row.state === 'delivered'
          ? 'delivered'
          : row.state === 'retrying' || row.state === 'dead_letter'
            ? 'failed'
            : 'not_sent';
      return {
        row,
        kind,
        signal:
          a && a.attempt !== null
            ? { deliveryId: a.id, eventId: row.event_id, ok: a.outcome === 'success', atMs: a.attempted_at.getTime() }
            : null,
        lastOutcome: a?.http_status ? `HTTP ${a.http_status}` : (a?.error_kind ?? 'a failure'),
      };
    }
    const k = { webhookId: row.subscription_id, eventId: row.event_id, run: row.run };
    if (!sub || !event) {
      await deps.knex.transaction((trx) =>
        endWithoutRequest(repo, trx, k, row.event_type, id, 'cancelled', 'delivery_input_missing'),
      );
      return { row: { ...row, state: 'cancelled' }, kind: 'not_sent', signal: null };
    }
    const body = buildEnvelope({
      id: event.id,
      type: event.type,
      createdAtMs: event.created_at.getTime(),
      data: event.data,
    });
    const bodyBytes = Buffer.byteLength(body, 'utf8');
    const end: { state: WebhookDeliveryState; errorKind: string } | null =
      sub.status === 'deleted' || sub.status === 'disabled'
        ? { state: 'cancelled', errorKind: `subscription_${sub.status}` }
        : sub.status === 'paused'
          ? { state: 'not_accepted_paused', errorKind: 'not_accepted_paused' }
          : bodyBytes > MAX_WEBHOOK_BODY_BYTES
            ? { state: 'oversize', errorKind: 'oversize' }
            : null;
    if (end) {
      await deps.knex.transaction(async (trx) => {
        await endWithoutRequest(repo, trx, k, row.event_type, id, end.state, end.errorKind);
        await repo.updateDelivery(keyOf(k), { body_bytes: bodyBytes }, trx);
      });
      return { row: { ...row, state: end.state }, kind: 'not_sent', signal: null };
    }
    const t = Math.floor(Date.now() / 1000);
    const attemptedAt = new Date();
    const result = await deps.httpClient.post(sub.target_url, body, {
      'content-type': 'application/json',
      'user-agent': 'JobFair-Webhooks/1.0',
      ...signatureHeaders(signingSecretsOf(deps.appSecret, sub), event.id, t, body),
      'svc-event': event.type,
      'svc-delivery-id': id,
      'svc-subscription-id': sub.id,
    });
    const retries = deps.config.WEBHOOK_RETRY_SCHEDULE_MS.length;
    const state: WebhookDeliveryState = result.ok ? 'delivered' : retries === 0 ? 'dead_letter' : 'retrying';
    // Within the claim's lease (WEBHOOK_TIMEOUT_MS + 60 s): no other claim can take the row meanwhile.
    await recordAfterSend(
      () =>
        deps.knex.transaction(async (trx) => {
          await repo.insertAttempt(
            {
              id,
              subscription_id: sub.id,
              event_id: event.id,
              run: row.run,
              event_type: event.type,
              attempt: 1,
              outcome: result.ok ? 'success' : 'failure',
              http_status: result.httpStatus,
              error_kind: result.ok ? null : result.errorKind,
              latency_ms: result.latencyMs,
              response_snippet: result.responseSnippet,
              attempted_at: attemptedAt,
            },
            trx,
          );
          // Only a row still waiting for this attempt moves (a disable or delete may have cancelled it meanwhile).
          await repo.recordFirstAttemptIfPending(
            keyOf(k),
            {
              state,
              attempts: 1,
              body_bytes: bodyBytes,
              last_http_status: result.httpStatus,
              last_error_kind: result.ok ? null : result.errorKind,
              last_attempt_at: attemptedAt,
              next_attempt_at:
                state === 'retrying'
                  ? new Date(attemptedAt.getTime() + deps.config.WEBHOOK_RETRY_SCHEDULE_MS[0])
                  : null,
              finished_at: state === 'retrying' ? null : new Date(),
            },
            trx,
          );
        }),
      {
        recorded: async () => Boolean(await repo.findAttempt(sub.id, id)),
        untilMs: Date.now() + RECORD_AFTER_SEND_MS,
        heartbeat: () => Context.current().heartbeat(),
      },
    );
    domainMetrics.webhookDeliveries.inc({ outcome: state, attempt: 'first' });
    return {
      row: { ...row, state },
      kind: result.ok ? 'delivered' : 'failed',
      signal: { deliveryId: id, eventId: event.id, ok: result.ok, atMs: attemptedAt.getTime() },
      lastOutcome: result.httpStatus ? `HTTP ${result.httpStatus}` : (result.errorKind ?? 'a failure'),
    };
  };

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

  /**
   * One claimed batch's attempts (POST and record each). What follows — the signals, the retry
   * workflows, taking the rows out of the queue — is `finishBatch`, which runs while the next batch
   * is claimed (decision 0240).
   */
  const attemptBatch = async (rows: WebhookDeliveryRow[]) => {
    const [subs, events] = await Promise.all([
      repo.findSubscriptionsByIds([...new Set(rows.map((r) => r.subscription_id))]),
      repo.findEventsByIds([...new Set(rows.map((r) => r.event_id))]),
    ]);
    const subById = new Map(subs.map((s) => [s.id, s]));
    const eventById = new Map(events.map((e) => [e.id, e]));
    const outcomes: Outcome[] = new Array(rows.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, rows.length) }, async () => {
        while (next < rows.length) {
          const i = next++;
          outcomes[i] = await attemptOne(
            rows[i],
            subById.get(rows[i].subscription_id),
            eventById.get(rows[i].event_id),
          );
          Context.current().heartbeat();
        }
      }),
    );
    return { outcomes, subById };
  };

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
