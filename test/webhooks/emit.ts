import { randomBytes } from 'node:crypto';
import type { Harness } from '../helpers/harness';
import { createDomainEventsActivities, type DomainEvent } from '../../activities/webhooks/domain-events';
import { createWebhooksFanOut } from '../../activities/webhooks/fan-out';

/** The real emitter (domain_events record + webhook fan-out), as the workflows call it. */
export function emitterFor(h: Harness) {
  const { emitDomainEvent } = createDomainEventsActivities({
    knex: h.knex,
    fanOut: createWebhooksFanOut({ webhooksRepository: h.app.services.deps.repos.webhooks, client: h.temporal, config: h.config }),
  });
  return async (e: Partial<DomainEvent> & { type: string }): Promise<DomainEvent> => {
    const event: DomainEvent = { id: `evt_${randomBytes(12).toString('hex')}`, ownerUserIds: [], ownerTeamId: null, data: { n: 1 }, createdAtMs: Date.now(), ...e };
    await emitDomainEvent(event);
    return event;
  };
}
