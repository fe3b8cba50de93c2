import type { Knex } from 'knex';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import {
  attemptSummaryOf,
  type DeliveryKey,
  type DomainEventRow,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  type WebhooksRepository,
  type WebhookSubscriptionRow,
} from '#db/webhooks/webhooks-repository';
import { buildEnvelope, signatureHeaders } from '#domain/webhooks/signing';
import { deriveWebhookSecret } from '#domain/webhooks/secrets';
import { domainMetrics } from '#lib/metrics';
import type { OutboundHttpClient } from '#lib/outbound-http/http-client';
import type { AttemptSummary, WebhookDeliverySource, WebhookDeliveryState } from '#workflows/webhooks/contract';
import {
  FINAL,
  RECORD_AFTER_SEND_MS,
  endWithoutRequest,
  keyOf,
  logId,
  recordAfterSend,
  type DeliveryKeyInput,
} from './delivery-records';

/** The raw UTF-8 body of a delivery may be at most 64 KB; larger events are recorded as oversize, never truncated. */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

export interface BeginWebhookDeliveryInput extends DeliveryKeyInput {
  source: WebhookDeliverySource;
  /** Operation tag of the keyed replay that started this run (decision 0197). */
  replayOp?: string | null;
}
export interface BeginWebhookDeliveryResult {
  /** `pending` when the delivery goes ahead; otherwise its final state. */
  state: WebhookDeliveryState;
}

export interface AttemptWebhookDeliveryInput extends DeliveryKeyInput {
  attempt: number;
  /** `dlv_…`: the Svc-Delivery-Id of this attempt, fixed by the workflow. */
  deliveryId: string;
  /** Delay before the next retry; null for the last attempt (a failure is then a dead letter). */
  nextDelayMs: number | null;
}
export interface AttemptWebhookDeliveryResult {
  /** The delivery's state after this attempt: delivered, retrying, dead_letter, cancelled, not_accepted_paused. */
  state: WebhookDeliveryState;
  /** Null when no request was made (subscription paused, disabled or deleted). */
  summary: AttemptSummary | null;
}

export interface RecordWebhookDeliveryEndInput extends DeliveryKeyInput {
  logId: string;
  state: WebhookDeliveryState;
  errorKind: string;
  /** Set when this records a failed attempt (the attempt activity itself failed). */
  attempt?: number;
  nextDelayMs?: number | null;
}
export type RecordWebhookDeliveryEndResult = void;

/** The secrets a delivery is signed with: the current one, and the previous one during a rotation's overlap. */
export function signingSecretsOf(appSecret: string, sub: WebhookSubscriptionRow): string[] {
  const secrets = [deriveWebhookSecret(appSecret, sub.id, sub.secret_salt)];
  if (
    sub.previous_secret_salt &&
    sub.previous_secret_expires_at &&
    sub.previous_secret_expires_at.getTime() > Date.now()
  ) {
    secrets.push(deriveWebhookSecret(appSecret, sub.id, sub.previous_secret_salt));
  }
  return secrets;
}

/** What `webhookDeliveryWorkflow` proxies: record a delivery, attempt it over HTTP, record the end it reached itself. */
export function createWebhookDeliveryActivities(deps: {
  knex: Knex;
  webhooksRepository: WebhooksRepository;
  httpClient: OutboundHttpClient;
  /** Server master key: the signing secrets are re-derived from it and the stored salts. */
  appSecret: string;
}) {
  const repo = deps.webhooksRepository;

  const signingSecrets = (sub: WebhookSubscriptionRow) => signingSecretsOf(deps.appSecret, sub);

  /** A delivery with a recorded 2xx is delivered: a row a record of an older worker moved back to retrying is put right. */
  const settleAsDelivered = async (trx: Knex, k: DeliveryKey, row: WebhookDeliveryRow, ok: WebhookAttemptRow) => {
    if (row.state === 'delivered') return;
    await repo.updateDelivery(
      k,
      {
        state: 'delivered',
        attempts: Math.max(row.attempts, ok.attempt ?? 0),
        last_http_status: ok.http_status,
        last_error_kind: null,
        last_attempt_at: ok.attempted_at,
        next_attempt_at: null,
        finished_at: row.finished_at ?? new Date(),
      },
      trx,
    );
  };

  /**
   * Before any request, the delivery's record under its row lock: a 2xx already recorded for this
   * run (an earlier attempt whose completion never reached the workflow, e.g. while Temporal's
   * database was down) ends the delivery as delivered, and nothing is sent again (decision 0266).
   * The answer when no request is to be made (delivered, this attempt already recorded, or the
   * delivery already ended); null when the attempt goes ahead.
   */
  const answerFromRecord = async (input: AttemptWebhookDeliveryInput): Promise<AttemptWebhookDeliveryResult | null> => {
    const k = keyOf(input);
    const { delivery, delivered, existing } = await deps.knex.transaction(async (trx) => {
      const row = await repo.lockDelivery(k, trx);
      if (!row) return { delivery: undefined, delivered: undefined, existing: undefined };
      const ok = await repo.successfulAttempt(k, trx);
      if (ok) await settleAsDelivered(trx, k, row, ok);
      return {
        delivery: row,
        delivered: ok,
        existing: await repo.findAttempt(input.webhookId, input.deliveryId, trx),
      };
    });
    if (!delivery)
      throw ApplicationFailure.nonRetryable(
        `delivery ${input.webhookId}/${input.eventId}#${input.run} was not recorded`,
        'DELIVERY_NOT_FOUND',
      );
    if (delivered) {
      if (delivered.id !== input.deliveryId)
        Context.current().log.info('webhook attempt not sent: already delivered', {
          webhookId: input.webhookId,
          eventId: input.eventId,
          deliveryId: input.deliveryId,
          attempt: input.attempt,
          deliveredBy: delivered.id,
        });
      return { state: 'delivered', summary: attemptSummaryOf(delivered) };
    }
    if (existing)
      return { state: delivery.state, summary: existing.attempt === null ? null : attemptSummaryOf(existing) };
    if (FINAL.has(delivery.state)) return { state: delivery.state, summary: null };
    return null;
  };

  /**
   * Decided policy (docs/decisions/0020-webhooks.md, "Pause policy"): a retry that comes due while the
   * subscription is paused is not sent; the delivery becomes a dead letter (replayable once
   * re-enabled). Disabled or deleted: cancelled.
   */
  const endNotActive = async (
    input: AttemptWebhookDeliveryInput,
    sub: WebhookSubscriptionRow,
    eventType: string,
  ): Promise<AttemptWebhookDeliveryResult> => {
    const end: { state: WebhookDeliveryState; errorKind: string } =
      sub.status === 'paused'
        ? input.attempt === 1
          ? { state: 'not_accepted_paused', errorKind: 'not_accepted_paused' }
          : { state: 'dead_letter', errorKind: 'subscription_paused' }
        : { state: 'cancelled', errorKind: `subscription_${sub.status}` };
    await deps.knex.transaction((trx) =>
      endWithoutRequest(repo, trx, input, eventType, input.deliveryId, end.state, end.errorKind),
    );
    return { state: end.state, summary: null };
  };

  /** Signs with a fresh `t` and POSTs through the SSRF-safe client. */
  const post = async (input: AttemptWebhookDeliveryInput, sub: WebhookSubscriptionRow, event: DomainEventRow) => {
    const body = buildEnvelope({
      id: event.id,
      type: event.type,
      createdAtMs: event.created_at.getTime(),
      data: event.data,
    });
    const t = Math.floor(Date.now() / 1000);
    const attemptedAt = new Date();
    const result = await deps.httpClient.post(sub.target_url, body, {
      'content-type': 'application/json',
      'user-agent': 'JobFair-Webhooks/1.0',
      // Svc-Signature and the Standard Webhooks headers, one signature per active secret each.
      ...signatureHeaders(signingSecrets(sub), event.id, t, body),
      'svc-event': event.type,
      'svc-delivery-id': input.deliveryId,
      'svc-subscription-id': sub.id,
    });
    return { result, attemptedAt };
  };

  /** Records a sent attempt and the delivery's new state in one transaction, retried in place (decision 0227). */
  const recordAttempt = async (
    input: AttemptWebhookDeliveryInput,
    attempt: WebhookAttemptRow,
    state: WebhookDeliveryState,
  ) => {
    const k = keyOf(input);
    const info = Context.current().info;
    const activityEndsAtMs =
      info.currentAttemptScheduledTimestampMs + (info.startToCloseTimeoutMs || RECORD_AFTER_SEND_MS);
    await recordAfterSend(
      () =>
        deps.knex.transaction(async (trx) => {
          await repo.insertAttempt(attempt, trx);
          // A 2xx recorded meanwhile by another attempt of this run is never undone by this one's failure.
          await repo.updateDeliveryUnlessDelivered(
            k,
            {
              state,
              attempts: input.attempt,
              last_http_status: attempt.http_status,
              last_error_kind: attempt.error_kind,
              last_attempt_at: attempt.attempted_at,
              next_attempt_at: state === 'retrying' ? new Date(Date.now() + input.nextDelayMs!) : null,
              finished_at: FINAL.has(state) ? new Date() : null,
            },
            trx,
          );
        }),
      {
        recorded: async () => Boolean(await repo.findAttempt(input.webhookId, input.deliveryId)),
        untilMs: Math.min(Date.now() + RECORD_AFTER_SEND_MS, activityEndsAtMs - 2_000),
      },
    );
  };

  return {
    /**
     * Records the delivery (once) and decides whether it goes ahead: a paused subscription does
     * not accept new events (not_accepted_paused), a body over 64 KB is oversize, a disabled or
     * deleted subscription cancels it.
     */
    async beginWebhookDelivery(input: BeginWebhookDeliveryInput): Promise<BeginWebhookDeliveryResult> {
      const event = await repo.findEvent(input.eventId);
      if (!event) throw ApplicationFailure.nonRetryable(`event ${input.eventId} was not found`, 'EVENT_NOT_FOUND');
      const sub = await repo.findSubscriptionById(input.webhookId);
      if (!sub) throw ApplicationFailure.nonRetryable(`webhook ${input.webhookId} was not found`, 'WEBHOOK_NOT_FOUND');
      const bodyBytes = Buffer.byteLength(
        buildEnvelope({ id: event.id, type: event.type, createdAtMs: event.created_at.getTime(), data: event.data }),
        'utf8',
      );
      return deps.knex.transaction(async (trx) => {
        const { row, inserted } = await repo.insertDelivery(
          {
            subscription_id: sub.id,
            event_id: event.id,
            run: input.run,
            event_type: event.type,
            source: input.source,
            state: 'pending',
            body_bytes: bodyBytes,
            ...(input.replayOp ? { replay_op: input.replayOp } : {}),
          },
          trx,
        );
        if (!inserted) return { state: row.state === 'retrying' ? 'pending' : row.state };
        let end: { state: WebhookDeliveryState; errorKind: string } | null = null;
        if (sub.status === 'deleted' || sub.status === 'disabled')
          end = { state: 'cancelled', errorKind: `subscription_${sub.status}` };
        else if (sub.status === 'paused') end = { state: 'not_accepted_paused', errorKind: 'not_accepted_paused' };
        else if (bodyBytes > MAX_WEBHOOK_BODY_BYTES) end = { state: 'oversize', errorKind: 'oversize' };
        if (!end) return { state: 'pending' as const };
        await endWithoutRequest(repo, trx, input, event.type, logId(), end.state, end.errorKind);
        Context.current().log.info('webhook delivery not sent', {
          webhookId: sub.id,
          eventId: event.id,
          run: input.run,
          state: end.state,
          bodyBytes,
        });
        return { state: end.state };
      });
    },

    /**
     * One HTTP attempt. Loads the subscription, the event and the signing secrets here (never
     * through workflow history), signs with a fresh `t`, POSTs through the SSRF-safe client and
     * records the attempt and the delivery's new state in one transaction. Never throws for an
     * HTTP outcome: the outcome is the return value.
     */
    async attemptWebhookDelivery(input: AttemptWebhookDeliveryInput): Promise<AttemptWebhookDeliveryResult> {
      const recorded = await answerFromRecord(input);
      if (recorded) return recorded;
      const sub = await repo.findSubscriptionById(input.webhookId);
      const event = await repo.findEvent(input.eventId);
      if (!sub || !event)
        throw ApplicationFailure.nonRetryable(
          `webhook ${input.webhookId} or event ${input.eventId} is gone`,
          'DELIVERY_INPUT_MISSING',
        );
      if (sub.status !== 'active') return endNotActive(input, sub, event.type);

      const { result, attemptedAt } = await post(input, sub, event);
      const state: WebhookDeliveryState = result.ok
        ? 'delivered'
        : input.nextDelayMs === null
          ? 'dead_letter'
          : 'retrying';
      const errorKind = result.ok ? null : result.errorKind;
      const attempt: WebhookAttemptRow = {
        id: input.deliveryId,
        subscription_id: sub.id,
        event_id: event.id,
        run: input.run,
        event_type: event.type,
        attempt: input.attempt,
        outcome: result.ok ? 'success' : 'failure',
        http_status: result.httpStatus,
        error_kind: errorKind,
        latency_ms: result.latencyMs,
        response_snippet: result.responseSnippet,
        attempted_at: attemptedAt,
      };
      await recordAttempt(input, attempt, state);
      domainMetrics.webhookDeliveries.inc({ outcome: state, attempt: input.attempt === 1 ? 'first' : 'retry' });
      // Ids, status and timing only: never the secret, the signature or the body.
      Context.current().log.info('webhook attempt', {
        webhookId: sub.id,
        eventId: event.id,
        deliveryId: input.deliveryId,
        attempt: input.attempt,
        ok: result.ok,
        httpStatus: result.httpStatus,
        errorKind,
        latencyMs: result.latencyMs,
        state,
      });
      return { state, summary: attemptSummaryOf(attempt) };
    },
    /** Records an end reached by the workflow itself: cancelled by signal, or an attempt whose activity failed. */
    async recordWebhookDeliveryEnd(input: RecordWebhookDeliveryEndInput): Promise<RecordWebhookDeliveryEndResult> {
      const k = keyOf(input);
      await deps.knex.transaction(async (trx) => {
        const delivery = await repo.lockDelivery(k, trx);
        if (!delivery) return;
        // The workflow did not hear of a 2xx the receiver gave (an attempt whose completion was lost):
        // the delivery stays delivered, and its next attempt finds it so and sends nothing (decision 0266).
        const ok = await repo.successfulAttempt(k, trx);
        if (ok) {
          await settleAsDelivered(trx, k, delivery, ok);
          return;
        }
        const now = new Date();
        await repo.insertAttempt(
          {
            id: input.logId,
            subscription_id: input.webhookId,
            event_id: input.eventId,
            run: input.run,
            event_type: delivery.event_type,
            attempt: input.attempt ?? null,
            outcome: input.attempt ? 'failure' : 'not_sent',
            http_status: null,
            error_kind: input.errorKind,
            latency_ms: null,
            response_snippet: null,
            attempted_at: now,
          },
          trx,
        );
        await repo.updateDelivery(
          k,
          {
            state: input.state,
            last_error_kind: input.errorKind,
            ...(input.attempt ? { attempts: input.attempt, last_attempt_at: now, last_http_status: null } : {}),
            next_attempt_at:
              input.state === 'retrying' && input.nextDelayMs ? new Date(now.getTime() + input.nextDelayMs) : null,
            finished_at: FINAL.has(input.state) ? now : null,
          },
          trx,
        );
      });
    },
  };
}
export type WebhookDeliveryActivities = ReturnType<typeof createWebhookDeliveryActivities>;
