import { randomBytes } from 'node:crypto';
import type { Harness } from '../helpers/harness';
import type { StartedWorker } from '../../apps/worker/src/worker';
import { createDomainEventsActivities, type DomainEvent } from '../../activities/webhooks/domain-events';
import { createWebhooksFanOut } from '../../activities/webhooks/fan-out';

/**
 * The real emitter (domain_events record + webhook fan-out), as the workflows call it; its fan-out
 * nudges the dispatcher of the given worker in this process (by default the harness's), as a
 * worker's own fan-out does.
 */
export function emitterFor(h: Harness, worker: Pick<StartedWorker, 'dispatchWake'> | null = h.worker) {
  const { emitDomainEvent } = createDomainEventsActivities({
    knex: h.knex,
    fanOut: createWebhooksFanOut({
      webhooksRepository: h.app.services.deps.repos.webhooks,
      client: h.temporal,
      config: h.config,
      dispatchWake: worker?.dispatchWake,
    }),
  });
  return async (e: Partial<DomainEvent> & { type: string }): Promise<DomainEvent> => {
    const event: DomainEvent = {
      id: `evt_${randomBytes(12).toString('hex')}`,
      ownerUserIds: [],
      ownerTeamId: null,
      data: { n: 1 },
      createdAtMs: Date.now(),
      ...e,
    };
    await emitDomainEvent(event);
    return event;
  };
}
