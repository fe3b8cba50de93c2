import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { WebhooksRepository, WebhookSubscriptionRow, DeliveryKey } from '../../db/webhooks/webhooks-repository';
import type { AccountsRepository } from '../../db/accounts/accounts-repository';
import type { OutboxRepository } from '../../db/notifications/outbox-repository';
import { buildEnvelope, signatureHeader } from '../../lib/webhooks/signing';
import { deriveWebhookSecret } from '../../lib/webhooks/secrets';
import type { WebhookHttpClient } from '../../lib/webhooks/http-client';
import type { AttemptSummary, WebhookDeliverySource, WebhookDeliveryState, WebhookSubscriptionStatus } from '../../workflows/webhooks/contract';
import { webhookDeliveryWorkflowId } from '../../workflows/webhooks/contract';
import { cancelDeliverySignal } from '../../workflows/webhooks/contract';

/** The raw UTF-8 body of a delivery may be at most 64 KB; larger events are recorded as oversize, never truncated. */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

interface DeliveryKeyInput {
  webhookId: string;
  eventId: string;
  run: number;
}

export interface BeginWebhookDeliveryInput extends DeliveryKeyInput {
  source: WebhookDeliverySource;
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

export interface ProjectWebhookSubscriptionInput {
  webhookId: string;
  status: WebhookSubscriptionStatus;
  consecutiveFailures: number;
  pausedAtMs: number | null;
}
export type ProjectWebhookSubscriptionResult = void;

export interface NotifyWebhookPausedInput {
  webhookId: string;
  outboxId: string;
  consecutiveFailures: number;
}
export interface NotifyWebhookPausedResult {
  queued: boolean;
}

export interface CancelPendingWebhookDeliveriesInput {
  webhookId: string;
  reason: 'disabled' | 'deleted';
}
export interface CancelPendingWebhookDeliveriesResult {
  cancelled: number;
}

const logId = () => `dlv_${randomBytes(16).toString('hex')}`;
const keyOf = (i: DeliveryKeyInput): DeliveryKey => ({ subscriptionId: i.webhookId, eventId: i.eventId, run: i.run });
const FINAL: ReadonlySet<WebhookDeliveryState> = new Set(['delivered', 'dead_letter', 'not_accepted_paused', 'oversize', 'cancelled']);

export function createWebhooksActivities(deps: {
  knex: Knex;
  webhooksRepository: WebhooksRepository;
  accountsRepository: AccountsRepository;
  outbox: OutboxRepository;
  httpClient: WebhookHttpClient;
  /** Server master key: the signing secrets are re-derived from it and the stored salts. */
  appSecret: string;
  /** Temporal client: cancels waiting deliveries of a disabled or deleted subscription. */
  client: Client;
  publicBaseUrl: string;
}) {
  const repo = deps.webhooksRepository;

  /** Ends a delivery without a request: one log row (the delivery log shows every outcome) and the final state. */
  const endWithoutRequest = async (trx: Knex, k: DeliveryKeyInput, eventType: string, id: string, state: WebhookDeliveryState, errorKind: string) => {
    await repo.insertAttempt(
      { id, subscription_id: k.webhookId, event_id: k.eventId, run: k.run, event_type: eventType, attempt: null, outcome: 'not_sent', http_status: null, error_kind: errorKind, latency_ms: null, response_snippet: null, attempted_at: new Date() },
      trx,
    );
    await repo.updateDelivery(keyOf(k), { state, last_error_kind: errorKind, next_attempt_at: null, finished_at: new Date() }, trx);
  };

  const signingSecrets = (sub: WebhookSubscriptionRow): string[] => {
    const secrets = [deriveWebhookSecret(deps.appSecret, sub.id, sub.secret_salt)];
    if (sub.previous_secret_salt && sub.previous_secret_expires_at && sub.previous_secret_expires_at.getTime() > Date.now()) {
      secrets.push(deriveWebhookSecret(deps.appSecret, sub.id, sub.previous_secret_salt));
    }
    return secrets;
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
      const bodyBytes = Buffer.byteLength(buildEnvelope({ id: event.id, type: event.type, createdAtMs: event.created_at.getTime(), data: event.data }), 'utf8');
      return deps.knex.transaction(async (trx) => {
        const { row, inserted } = await repo.insertDelivery(
          { subscription_id: sub.id, event_id: event.id, run: input.run, event_type: event.type, source: input.source, state: 'pending', body_bytes: bodyBytes },
          trx,
        );
        if (!inserted) return { state: row.state === 'retrying' ? 'pending' : row.state };
        let end: { state: WebhookDeliveryState; errorKind: string } | null = null;
        if (sub.status === 'deleted' || sub.status === 'disabled') end = { state: 'cancelled', errorKind: `subscription_${sub.status}` };
        else if (sub.status === 'paused') end = { state: 'not_accepted_paused', errorKind: 'not_accepted_paused' };
        else if (bodyBytes > MAX_WEBHOOK_BODY_BYTES) end = { state: 'oversize', errorKind: 'oversize' };
        if (!end) return { state: 'pending' as const };
        await endWithoutRequest(trx, input, event.type, logId(), end.state, end.errorKind);
        Context.current().log.info('webhook delivery not sent', { webhookId: sub.id, eventId: event.id, run: input.run, state: end.state, bodyBytes });
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
      const k = keyOf(input);
      const existing = await repo.findAttempt(input.webhookId, input.deliveryId);
      const delivery = await repo.findDelivery(k);
      if (!delivery) throw ApplicationFailure.nonRetryable(`delivery ${input.webhookId}/${input.eventId}#${input.run} was not recorded`, 'DELIVERY_NOT_FOUND');
      if (existing) {
        return {
          state: delivery.state,
          summary:
            existing.attempt === null
              ? null
              : { deliveryId: existing.id, attempt: existing.attempt, ok: existing.outcome === 'success', httpStatus: existing.http_status, errorKind: existing.error_kind, latencyMs: existing.latency_ms, responseSnippet: existing.response_snippet, attemptedAtMs: existing.attempted_at.getTime() },
        };
      }
      if (FINAL.has(delivery.state)) return { state: delivery.state, summary: null };
      const sub = await repo.findSubscriptionById(input.webhookId);
      const event = await repo.findEvent(input.eventId);
      if (!sub || !event) throw ApplicationFailure.nonRetryable(`webhook ${input.webhookId} or event ${input.eventId} is gone`, 'DELIVERY_INPUT_MISSING');

      if (sub.status !== 'active') {
        // Decided policy (docs/decisions/webhook-delivery-semantics.md): a retry that comes due while the
        // subscription is paused is not sent; the delivery becomes a dead letter (replayable once
        // re-enabled). Disabled or deleted: cancelled.
        const end: { state: WebhookDeliveryState; errorKind: string } =
          sub.status === 'paused'
            ? input.attempt === 1
              ? { state: 'not_accepted_paused', errorKind: 'not_accepted_paused' }
              : { state: 'dead_letter', errorKind: 'subscription_paused' }
            : { state: 'cancelled', errorKind: `subscription_${sub.status}` };
        await deps.knex.transaction((trx) => endWithoutRequest(trx, input, event.type, input.deliveryId, end.state, end.errorKind));
        return { state: end.state, summary: null };
      }

      const body = buildEnvelope({ id: event.id, type: event.type, createdAtMs: event.created_at.getTime(), data: event.data });
      const t = Math.floor(Date.now() / 1000);
      const attemptedAt = new Date();
      const result = await deps.httpClient.post(sub.target_url, body, {
        'content-type': 'application/json',
        'user-agent': 'JobFair-Webhooks/1.0',
        'svc-signature': signatureHeader(signingSecrets(sub), t, body),
        'svc-event': event.type,
        'svc-delivery-id': input.deliveryId,
        'svc-subscription-id': sub.id,
      });
      const state: WebhookDeliveryState = result.ok ? 'delivered' : input.nextDelayMs === null ? 'dead_letter' : 'retrying';
      const errorKind = result.ok ? null : result.errorKind;
      await deps.knex.transaction(async (trx) => {
        await repo.insertAttempt(
          {
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
          },
          trx,
        );
        await repo.updateDelivery(
          k,
          {
            state,
            attempts: input.attempt,
            last_http_status: result.httpStatus,
            last_error_kind: errorKind,
            last_attempt_at: attemptedAt,
            next_attempt_at: state === 'retrying' ? new Date(Date.now() + input.nextDelayMs!) : null,
            finished_at: FINAL.has(state) ? new Date() : null,
          },
          trx,
        );
      });
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
      return {
        state,
        summary: {
          deliveryId: input.deliveryId,
          attempt: input.attempt,
          ok: result.ok,
          httpStatus: result.httpStatus,
          errorKind: errorKind ?? null,
          latencyMs: result.latencyMs,
          responseSnippet: result.responseSnippet,
          attemptedAtMs: attemptedAt.getTime(),
        },
      };
    },

    /** Records an end reached by the workflow itself: cancelled by signal, or an attempt whose activity failed. */
    async recordWebhookDeliveryEnd(input: RecordWebhookDeliveryEndInput): Promise<RecordWebhookDeliveryEndResult> {
      const k = keyOf(input);
      const delivery = await repo.findDelivery(k);
      if (!delivery) return;
      await deps.knex.transaction(async (trx) => {
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
            next_attempt_at: input.state === 'retrying' && input.nextDelayMs ? new Date(now.getTime() + input.nextDelayMs) : null,
            finished_at: FINAL.has(input.state) ? now : null,
          },
          trx,
        );
      });
    },

    /** The subscription actor's projection: status, failure counter, pause time. */
    async projectWebhookSubscription(input: ProjectWebhookSubscriptionInput): Promise<ProjectWebhookSubscriptionResult> {
      await repo.projectLifecycle(input.webhookId, {
        status: input.status,
        consecutive_failures: input.consecutiveFailures,
        paused_at: input.pausedAtMs ? new Date(input.pausedAtMs) : null,
      });
    },

    /** Queues the auto-pause e-mail to the subscription's creator (or, if gone, the team's owners). */
    async notifyWebhookPaused(input: NotifyWebhookPausedInput): Promise<NotifyWebhookPausedResult> {
      const sub = await repo.findSubscriptionById(input.webhookId);
      if (!sub) return { queued: false };
      const recipients: string[] = [];
      const creator = sub.created_by_user_id ? await deps.accountsRepository.findUserById(sub.created_by_user_id) : undefined;
      if (creator) recipients.push(creator.email);
      else if (sub.owner_user_id) {
        const u = await deps.accountsRepository.findUserById(sub.owner_user_id);
        if (u) recipients.push(u.email);
      } else if (sub.owner_team_id) {
        const owners = await deps.knex('team_members as m').join('users as u', 'u.id', 'm.user_id').where({ 'm.team_id': sub.owner_team_id, 'm.role': 'owner' }).select('u.email');
        recipients.push(...owners.map((o: { email: string }) => o.email));
      }
      if (recipients.length === 0) {
        Context.current().log.warn('webhook paused but nobody to notify', { webhookId: sub.id });
        return { queued: false };
      }
      await deps.outbox.enqueue({
        id: input.outboxId,
        to_address: recipients.join(', '),
        kind: 'webhook_paused',
        subject: `Webhook ${sub.id} was paused after ${input.consecutiveFailures} failed deliveries`,
        body: [
          `Your webhook subscription ${sub.id} (${sub.target_url}) was paused automatically after ${input.consecutiveFailures} consecutive failed delivery attempts.`,
          '',
          'While it is paused no new events are accepted for it (they appear in its delivery log as not_accepted_paused), and retries that come due are not sent and become dead letters.',
          '',
          `Fix the receiver, then re-enable it: PATCH ${deps.publicBaseUrl}/api/v1/webhooks/${sub.id} with {"status":"active"} (or on ${deps.publicBaseUrl}/account/webhooks).`,
          `Redeliver what was missed: POST ${deps.publicBaseUrl}/api/v1/webhooks/${sub.id}/replay with {"since":"<ISO time>"}.`,
          `Delivery log: GET ${deps.publicBaseUrl}/api/v1/webhooks/${sub.id}/deliveries`,
        ].join('\n'),
      });
      return { queued: true };
    },

    /** Signals every unfinished delivery of the subscription to end as cancelled. */
    async cancelPendingWebhookDeliveries(input: CancelPendingWebhookDeliveriesInput): Promise<CancelPendingWebhookDeliveriesResult> {
      const rows = await repo.listUnfinishedDeliveries(input.webhookId);
      let cancelled = 0;
      for (const r of rows) {
        try {
          await deps.client.workflow.getHandle(webhookDeliveryWorkflowId(r.subscription_id, r.event_id)).signal(cancelDeliverySignal, { reason: input.reason });
          cancelled++;
        } catch (err) {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
          // Its workflow is gone (closed and past retention): close the record so nothing shows as pending forever.
          await deps.knex.transaction((trx) => endWithoutRequest(trx, { webhookId: r.subscription_id, eventId: r.event_id, run: r.run }, r.event_type, logId(), 'cancelled', `subscription_${input.reason}`));
          cancelled++;
        }
      }
      return { cancelled };
    },
  };
}
export type WebhooksActivities = ReturnType<typeof createWebhooksActivities>;
