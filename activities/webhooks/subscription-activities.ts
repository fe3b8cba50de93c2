import type { Knex } from 'knex';
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { WebhooksRepository } from '#db/webhooks/webhooks-repository';
import type { AccountsRepository } from '#db/accounts/accounts-repository';
import type { OutboxRepository } from '#db/notifications/outbox-repository';
import {
  webhookDeliveryWorkflowId,
  cancelDeliverySignal,
  type WebhookSubscriptionStatus,
} from '#workflows/webhooks/contract';
import { endWithoutRequest, logId } from './delivery-records';
import type { WebhookCancelReason } from '#workflows/webhooks/contract';

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
  reason: WebhookCancelReason;
}
export interface CancelPendingWebhookDeliveriesResult {
  cancelled: number;
}

/** What `webhookSubscriptionWorkflow` proxies: project the subscription, queue the auto-pause notice, cancel waiting deliveries. */
export function createWebhookSubscriptionActivities(deps: {
  knex: Knex;
  webhooksRepository: WebhooksRepository;
  accountsRepository: AccountsRepository;
  outbox: OutboxRepository;
  /** Temporal client: cancels waiting deliveries of a disabled or deleted subscription. */
  client: Client;
  publicBaseUrl: string;
}) {
  const repo = deps.webhooksRepository;

  return {
    /** The subscription actor's projection: status, failure counter, pause time. */
    async projectWebhookSubscription(
      input: ProjectWebhookSubscriptionInput,
    ): Promise<ProjectWebhookSubscriptionResult> {
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
      const creator = sub.created_by_user_id
        ? await deps.accountsRepository.findUserById(sub.created_by_user_id)
        : undefined;
      if (creator) recipients.push(creator.email);
      else if (sub.owner_user_id) {
        const u = await deps.accountsRepository.findUserById(sub.owner_user_id);
        if (u) recipients.push(u.email);
      } else if (sub.owner_team_id) {
        recipients.push(...(await repo.teamOwnerEmails(sub.owner_team_id)));
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
          `Your webhook subscription ${sub.id} (${sub.target_url}) was paused automatically after ` +
            `${input.consecutiveFailures} consecutive failed delivery attempts.`,
          '',
          'While it is paused no new events are accepted for it (they appear in its delivery log as ' +
            'not_accepted_paused), and retries that come due are not sent and become dead letters.',
          '',
          `Fix the receiver, then re-enable it: PATCH ${deps.publicBaseUrl}/api/v1/webhooks/${sub.id} ` +
            `with {"status":"active"} (or on ${deps.publicBaseUrl}/account/webhooks).`,
          `Redeliver what was missed: POST ${deps.publicBaseUrl}/api/v1/webhooks/${sub.id}/replay ` +
            `with {"since":"<ISO time>"}.`,
          `Delivery log: GET ${deps.publicBaseUrl}/api/v1/webhooks/${sub.id}/deliveries`,
        ].join('\n'),
      });
      return { queued: true };
    },

    /** Signals every unfinished delivery of the subscription to end as cancelled. */
    async cancelPendingWebhookDeliveries(
      input: CancelPendingWebhookDeliveriesInput,
    ): Promise<CancelPendingWebhookDeliveriesResult> {
      const rows = await repo.listUnfinishedDeliveries(input.webhookId);
      let cancelled = 0;
      for (const r of rows) {
        try {
          await deps.client.workflow
            .getHandle(webhookDeliveryWorkflowId(r.subscription_id, r.event_id))
            .signal(cancelDeliverySignal, { reason: input.reason });
          cancelled++;
        } catch (err) {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
          // Its workflow is gone (closed and past retention): close the record so nothing shows as pending forever.
          await deps.knex.transaction((trx) =>
            endWithoutRequest(
              repo,
              trx,
              { webhookId: r.subscription_id, eventId: r.event_id, run: r.run },
              r.event_type,
              logId(),
              'cancelled',
              `subscription_${input.reason}`,
            ),
          );
          cancelled++;
        }
      }
      return { cancelled };
    },
  };
}
export type WebhookSubscriptionActivities = ReturnType<typeof createWebhookSubscriptionActivities>;
