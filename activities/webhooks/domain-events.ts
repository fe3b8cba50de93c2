import type { Knex } from 'knex';
import { ApplicationFailure } from '@temporalio/common';
import { checkWebhookEventData, WebhookEventDataError } from '#domain/webhooks/event-catalogue';
import { createWebhooksRepository } from '#db/webhooks/webhooks-repository';

/** A domain event as recorded by the emitter (`domain_events`) and fanned out to webhooks. */
export interface DomainEvent {
  /** `evt_…`; deterministic per occurrence (e.g. from the match id) so a retried emit is one event. */
  id: string;
  type: string;
  ownerUserIds: string[];
  ownerTeamId: string | null;
  data: Record<string, unknown>;
  createdAtMs: number;
}

export type EmitDomainEventInput = DomainEvent;
export interface EmitDomainEventResult {
  /** False when the event id was already recorded (a retried activity or duplicate emit). */
  recorded: boolean;
}

/** Fan-out seam: the webhooks capability starts one delivery workflow per matching subscription. */
export type FanOut = (event: DomainEvent) => Promise<void>;

/**
 * The event emitter every workflow calls: checks the data against the event catalogue
 * (domain/webhooks/event-catalogue.ts), records the event once in PostgreSQL, then fans it out.
 * Fan-out is called even when the record already existed, so a crash between the two steps
 * is repaired by the retry (deliveries collapse on their workflow id).
 */
export function createDomainEventsActivities(deps: { knex: Knex; fanOut: FanOut }) {
  const repo = createWebhooksRepository(deps.knex);
  return {
    async emitDomainEvent(event: EmitDomainEventInput): Promise<EmitDomainEventResult> {
      try {
        checkWebhookEventData(event.type, event.data);
      } catch (err) {
        // A bug in the emitting code: retried with backoff (a deploy that fixes it lets the
        // retry through, so the event is late, never lost), and loud in the activity's failure.
        if (err instanceof WebhookEventDataError)
          throw ApplicationFailure.retryable(err.message, 'WEBHOOK_EVENT_DATA_INVALID');
        throw err;
      }
      const recorded = await repo.insertEvent({
        id: event.id,
        type: event.type,
        owner_user_ids: event.ownerUserIds,
        owner_team_id: event.ownerTeamId,
        data: event.data,
        created_at: new Date(event.createdAtMs),
      });
      await deps.fanOut(event);
      return { recorded };
    },
  };
}
