import { ApplicationFailure } from '@temporalio/common';
import { WEBHOOK_EVENT_TYPES } from '#workflows/webhooks/contract';
import { checkWebhookEventData, WEBHOOK_EVENT_DATA, WebhookEventDataError } from '#domain/webhooks/event-catalogue';
import { createDomainEventsActivities } from '#activities/webhooks/domain-events';

const noShow = {
  match_id: 'mat_1',
  job_id: 'job_1',
  role_title: 'Backend engineer',
  live_event_slug: 'fair',
  accepted_at: '2026-11-26T10:00:00.000Z',
  no_show_at: '2026-11-26T10:10:00.000Z',
  missing: 'seeker',
};

describe('the webhook event catalogue', () => {
  it('has a data schema for exactly the event types a subscription may list (a new type without one fails here)', () => {
    expect(Object.keys(WEBHOOK_EVENT_DATA).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });

  it('accepts an event as the emitter builds it and names each field that drifts', () => {
    expect(checkWebhookEventData('match.no_show', noShow)).toBe(noShow);
    expect(() => checkWebhookEventData('match.no_show', { ...noShow, missing: 'nobody' })).toThrow(/missing/);
    expect(() => checkWebhookEventData('match.no_show', { ...noShow, extra: 1 })).toThrow(WebhookEventDataError);
    const { job_id: _omitted, ...withoutJob } = noShow;
    expect(() => checkWebhookEventData('match.no_show', withoutJob)).toThrow(/job_id/);
    expect(() => checkWebhookEventData('match.unknown', {})).toThrow(/not in the catalogue/);
  });

  it('the emitter refuses data that does not match, as a retryable failure, before recording anything', async () => {
    let touched = false;
    const activities = createDomainEventsActivities({
      knex: (() => {
        touched = true;
        throw new Error('must not be reached');
      }) as never,
      fanOut: async () => {
        touched = true;
      },
    });
    const emit = activities.emitDomainEvent({
      id: 'evt_x',
      type: 'match.no_show',
      ownerUserIds: [],
      ownerTeamId: null,
      data: { ...noShow, missing: undefined },
      createdAtMs: Date.now(),
    });
    await expect(emit).rejects.toBeInstanceOf(ApplicationFailure);
    await expect(emit).rejects.toMatchObject({ type: 'WEBHOOK_EVENT_DATA_INVALID', nonRetryable: false });
    expect(touched).toBe(false);
  });
});
