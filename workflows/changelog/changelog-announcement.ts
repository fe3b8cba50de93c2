import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { createDomainEventsActivities } from '../../activities/webhooks/domain-events';
import {
  CHANGELOG_EVENT_TYPE,
  changelogEventId,
  type ChangelogAnnouncementInput,
  type ChangelogAnnouncementResult,
} from './contract';
import { JobfairEntity, JobfairStatus } from '../shared/contract';

const { emitDomainEvent } = proxyActivities<ReturnType<typeof createDomainEventsActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Announces one API changelog entry: emits the `changelog.api` domain event as a broadcast (no
 * owner user, no owner team: the webhooks capability fans it out to every subscription of that
 * type). The event id is derived from the entry id, so however often this runs the event exists once.
 */
export async function changelogAnnouncementWorkflow(
  input: ChangelogAnnouncementInput,
): Promise<ChangelogAnnouncementResult> {
  upsertSearchAttributes([
    { key: JobfairEntity, value: 'changelog_announcement' },
    { key: JobfairStatus, value: 'announcing' },
  ]);
  const eventId = changelogEventId(input.entryId);
  const { recorded } = await emitDomainEvent({
    id: eventId,
    type: CHANGELOG_EVENT_TYPE,
    ownerUserIds: [],
    ownerTeamId: null,
    data: input.data,
    createdAtMs: Date.now(),
  });
  upsertSearchAttributes([{ key: JobfairStatus, value: 'announced' }]);
  return { eventId, recorded };
}
