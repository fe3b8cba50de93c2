import type { Client } from '@temporalio/client';
import type { Config } from '#lib/config';
import type { DomainEvent, FanOut } from './domain-events';
import type { WebhooksRepository } from '#db/webhooks/webhooks-repository';
import { ensureWebhookDispatcher } from '#workflows/webhooks/client';
import type { DispatchWake } from './dispatch-wake';

/** The dispatcher is started (idempotently) at most this often per process. */
const ENSURE_EVERY_MS = 60_000;

/**
 * The emitter's fan-out (decision 0195): one delivery row per subscription that should receive
 * the event — team subscriptions of the event's team, user subscriptions of its users, and for
 * events without owners (changelog.api) every subscription of that type — recorded in PostgreSQL
 * in one statement, waiting for the dispatcher's first attempt (`first_attempt_due_at`). Paused
 * subscriptions get one too: the dispatcher records it as not accepted. Duplicate emits insert
 * nothing (the row's key is subscription × event × run). Then it makes sure the dispatcher
 * workflow runs and nudges it: `dispatchWake` is the worker's own (a dispatcher in another process,
 * or a fan-out built without it, is woken by the NOTIFY at commit).
 */
export function createWebhooksFanOut(deps: {
  webhooksRepository: WebhooksRepository;
  client: Client;
  config: Config;
  dispatchWake?: Pick<DispatchWake, 'nudge'>;
}): FanOut {
  let ensured: { atMs: number; done: Promise<void> } | null = null;
  const ensure = async () => {
    if (!ensured || Date.now() - ensured.atMs > ENSURE_EVERY_MS) {
      const done = ensureWebhookDispatcher(deps.client, deps.config);
      ensured = { atMs: Date.now(), done };
      done.catch(() => {
        ensured = null;
      });
    }
    await ensured.done;
  };
  return async (event: DomainEvent) => {
    const subs = await deps.webhooksRepository.findSubscriptionsForEvent({
      type: event.type,
      ownerTeamId: event.ownerTeamId,
      ownerUserIds: event.ownerUserIds,
    });
    if (subs.length === 0) return;
    await deps.webhooksRepository.queueFirstAttempts(
      subs.map((s) => ({ subscription_id: s.id, event_id: event.id, event_type: event.type })),
    );
    await ensure();
    deps.dispatchWake?.nudge();
  };
}
