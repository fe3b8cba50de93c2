import {
  rateWaitSeconds,
  WAIT_ESTIMATE_MIN_MATCHES,
  WAIT_ESTIMATE_MIN_SPAN_MS,
} from '#domain/matchmaking/wait-explanation';
import { createWaitService, WAIT_RATE_WINDOW_MS } from '../matchmaking/wait-service';
import type { QueueServiceContext, QueueServiceDeps } from './queue-service/context';
import { createEntryView } from './queue-service/entry-view';
import { createJoin } from './queue-service/join';
import { createLeave } from './queue-service/leave';
import { createListWaiting, createStatus } from './queue-service/status';

export {
  MATCH_OUTLOOK_STATES,
  type MatchOutlook,
  type MatchOutlookState,
  type QueueEntryView,
} from './queue-service/entry-view';
export { LEFT_QUEUE_DECLINE_REASON } from './queue-service/leave';

/** Estimated wait: matches made for the same queue within this window… */
export const WAIT_ESTIMATE_WINDOW_MS = WAIT_RATE_WINDOW_MS;
export { WAIT_ESTIMATE_MIN_MATCHES, WAIT_ESTIMATE_MIN_SPAN_MS };

/**
 * position ÷ observed rate over max(time since the first match of the window,
 * WAIT_ESTIMATE_MIN_SPAN_MS); null with fewer than WAIT_ESTIMATE_MIN_MATCHES: never a made-up
 * number. The queue status uses it only where the wait explanation says capacity is what blocks.
 */
export const estimateWaitSeconds = rateWaitSeconds;

/**
 * The matchmaking queue's use-cases, one module each in `queue-service/`: `join`, `leave`,
 * `status` and `listWaiting`, sharing the entry's view (`entry-view.ts`).
 */
export function createQueueService(deps: QueueServiceDeps) {
  // Every seeker of an event polls the same open jobs and match rate: the status read reuses them
  // while the stamps read with the entry say they have not changed (wait-service.ts).
  const wait = createWaitService(deps, {
    rateCacheMs: deps.config.QUEUE_STATUS_RATE_CACHE_MS,
    cacheMax: deps.config.QUEUE_STATUS_CACHE_MAX,
  });
  const ctx: QueueServiceContext = { deps, view: createEntryView(deps.repos.queue, wait) };
  return {
    join: createJoin(ctx),
    leave: createLeave(ctx),
    listWaiting: createListWaiting(ctx),
    status: createStatus(ctx),
  };
}
export type QueueService = ReturnType<typeof createQueueService>;
