import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { createMatchesActivities } from '../../activities/matches/matches-activities';
import type { createMatchmakingActivities } from '../../activities/matchmaking/matchmaking-activities';
import type { createDomainEventsActivities } from '../../activities/webhooks/domain-events';
import { KICK_MATCHMAKER_ACTIVITY_OPTIONS } from '../matchmaking/contract';

/** The activities the match workflow calls, with their timeouts and retries. */

// Short PostgreSQL reads/writes: local activities, so an accept or decline answers in one workflow task.
export const { projectMatch, loadMatchSettings, claimInterviewSlot } = proxyLocalActivities<
  ReturnType<typeof createMatchesActivities>
>({
  startToCloseTimeout: '10 seconds',
  // At most 2 s between retries: a projection waiting out a PostgreSQL outage lands within ~2 s of
  // its return (decision 0204).
  retry: { initialInterval: '200 ms', maximumInterval: '2 seconds' },
});
export const { emitDomainEvent } = proxyActivities<ReturnType<typeof createDomainEventsActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 ms', maximumInterval: '30 seconds' },
});
// E-mail notices: enqueue in the outbox and send; SMTP may be slow or down, so they run beside the
// lifecycle (never awaited before a transition) and the run waits for them only at its end.
export const { notifyMatchParties } = proxyActivities<ReturnType<typeof createMatchesActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
});
export const { kickMatchmaker } = proxyActivities<ReturnType<typeof createMatchmakingActivities>>(
  KICK_MATCHMAKER_ACTIVITY_OPTIONS,
);
