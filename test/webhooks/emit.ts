import { randomBytes } from 'node:crypto';
import type { Harness } from '../helpers/harness';
import type { StartedWorker } from '#apps/worker/src/worker';
import { createDomainEventsActivities, type DomainEvent } from '#activities/webhooks/domain-events';
import { createWebhooksFanOut } from '#activities/webhooks/fan-out';

/** Data that matches each event type's catalogue schema (the emitter checks it); tests override fields. */
const SAMPLE_DATA: Record<string, Record<string, unknown>> = {
  'match.matched': { match_id: 'm-sample', role_title: 'Engineer', seeker_headline: '' },
  'match.accepted': {
    match_id: 'm-sample',
    job_id: 'job-sample',
    role_title: 'Engineer',
    live_event_slug: 'sample',
    accepted_at: '2026-11-26T10:00:00.000Z',
    recruiter_auto_accepted: false,
    recruiter_user_id: null,
  },
  'interview.completed': {
    match_id: 'm-sample',
    job_id: 'job-sample',
    role_title: 'Engineer',
    live_event_slug: 'sample',
    completed_at: '2026-11-26T10:30:00.000Z',
    ended_by: 'recruiter',
    started_at: '2026-11-26T10:05:00.000Z',
    duration_seconds: 1500,
  },
  'changelog.api': {
    entry_id: 'sample',
    date: '2026-11-26',
    kind: 'added',
    title: 'Sample',
    description: 'A sample entry',
    changelog_url: 'http://jobfair.test/api/v1/changelog#sample',
  },
};

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
      createdAtMs: Date.now(),
      ...e,
      data: { ...SAMPLE_DATA[e.type], ...e.data },
    };
    await emitDomainEvent(event);
    return event;
  };
}
