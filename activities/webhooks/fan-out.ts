import type { Client } from '@temporalio/client';
import type { Config } from '../../lib/config';
import type { DomainEvent, FanOut } from './domain-events';
import type { WebhooksRepository } from '../../db/webhooks/webhooks-repository';
import { deliveryInput, startWebhookDelivery } from '../../workflows/webhooks/client';

const START_CONCURRENCY = 16;

/**
 * The emitter's fan-out: one `webhook-delivery:<whk>:<evt>` workflow per subscription that should
 * receive the event — team subscriptions of the event's team, user subscriptions of its users, and
 * for events without owners (changelog.api) every subscription of that type. Paused subscriptions
 * get one too: it records the event as not accepted. Duplicate emits collapse on the workflow id
 * (and, after Temporal's retention, on the recorded delivery in PostgreSQL).
 */
export function createWebhooksFanOut(deps: { webhooksRepository: WebhooksRepository; client: Client; config: Config }): FanOut {
  return async (event: DomainEvent) => {
    const subs = await deps.webhooksRepository.findSubscriptionsForEvent({ type: event.type, ownerTeamId: event.ownerTeamId, ownerUserIds: event.ownerUserIds });
    if (subs.length === 0) return;
    const done = await deps.webhooksRepository.subscriptionsWithDelivery(event.id, subs.map((s) => s.id));
    const todo = subs.filter((s) => !done.has(s.id));
    for (let i = 0; i < todo.length; i += START_CONCURRENCY) {
      await Promise.all(
        todo.slice(i, i + START_CONCURRENCY).map((s) =>
          startWebhookDelivery(
            deps.client,
            deps.config,
            deliveryInput(deps.config, { webhookId: s.id, eventId: event.id, eventType: event.type, run: 1, source: 'event', ownerTeamId: s.owner_team_id, ownerUserId: s.owner_user_id }),
            'event',
          ),
        ),
      );
    }
  };
}
