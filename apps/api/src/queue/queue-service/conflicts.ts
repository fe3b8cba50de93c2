import { ConflictError } from '#lib/errors';
import { matchDetailsUrl } from '../../plugins/join-urls';

/**
 * A join while the entry is matched, to this queue or another: the answer names the match, where
 * the person answers it, and the way out that works (leaving declines it).
 */
export const matchedConflict = (
  publicBaseUrl: string,
  queueId: string,
  matchId: string,
  liveEventSlug: string | null,
  // Another event's join keeps its v1 code (QUEUE_ENTRY_EXISTS); the details name the match too.
  code: 'QUEUE_ENTRY_MATCHED' | 'QUEUE_ENTRY_EXISTS' = 'QUEUE_ENTRY_MATCHED',
) => {
  const detailsUrl = matchDetailsUrl(publicBaseUrl, matchId);
  return new ConflictError(
    code,
    `Your queue entry ${liveEventSlug ? `for event ${liveEventSlug}` : 'for any event'} is matched (match ` +
      `${matchId}). The person accepts or declines it at ${detailsUrl} (an agent may decline: POST ` +
      `/api/v1/matches/${matchId}/decline). To leave the queue instead, POST /api/v1/queue/leave: it ` +
      `declines this match and ends the entry; then join again`,
    { queue_id: queueId, match_id: matchId, details_url: detailsUrl, live_event_slug: liveEventSlug },
  );
};

/** Leaving after the match was accepted: nothing to leave, the interview is on. */
export const acceptedConflict = (publicBaseUrl: string, queueId: string, matchId: string) => {
  const detailsUrl = matchDetailsUrl(publicBaseUrl, matchId);
  return new ConflictError(
    'QUEUE_ENTRY_MATCH_ACCEPTED',
    `Your match ${matchId} was accepted by both sides: your queue entry ended with it and the ` +
      `interview is on, so there is no queue to leave. The person goes to the interview (or ends it) ` +
      `at ${detailsUrl}; after it, join a queue again`,
    { queue_id: queueId, match_id: matchId, details_url: detailsUrl, match_status: 'accepted' },
  );
};
