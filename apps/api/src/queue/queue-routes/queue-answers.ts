import type { z } from 'zod';
import type { QueueEntryView } from '../queue-service';
import { matchDetailsUrl, queueJoinUrl } from '../../plugins/join-urls';
import type { queueEntrySchema } from '../queue-schemas';

/** The estimate and the outlook of a queue answer: one wait explanation (matchmaking/wait-service.ts). */
export type QueueStatusAnswer = {
  queue_entry: {
    status: string;
    position: number | null;
    estimated_wait_seconds: number | null;
    poll_after_seconds?: number | null;
  } | null;
};

/** One line for an MCP progress notification while the entry waits. */
export const waitMessage = (e: NonNullable<QueueStatusAnswer['queue_entry']>) =>
  `Waiting in the queue${e.position !== null ? `: position ${e.position}` : ''}` +
  (e.estimated_wait_seconds !== null ? `, about ${Math.max(1, Math.round(e.estimated_wait_seconds / 60))} min` : '');

export const waitFields = (v: QueueEntryView) => ({
  estimated_wait_seconds: v.estimatedWaitSeconds,
  estimated_wait: v.estimatedWait
    ? {
        min_seconds: v.estimatedWait.minSeconds,
        max_seconds: v.estimatedWait.maxSeconds,
        reason: v.estimatedWait.reason,
      }
    : null,
  match_outlook: v.matchOutlook && {
    state: v.matchOutlook.state,
    reason: v.matchOutlook.reason,
    eligible_jobs: v.matchOutlook.eligibleJobs,
    blocked_by: v.matchOutlook.blockedBy,
    passing_jobs: v.matchOutlook.passingJobs,
    floor_relaxes_at: v.matchOutlook.floorRelaxesAt?.toISOString() ?? null,
  },
  poll_after_seconds: v.pollAfterSeconds,
});

/** A queue entry as the API answers it. */
export const toEntry = (publicBaseUrl: string, v: QueueEntryView): z.output<typeof queueEntrySchema> => ({
  id: v.entry.id,
  status: v.entry.status,
  entered_at: v.entry.entered_at.toISOString(),
  interview_mode: 'video',
  job_ids: v.entry.job_ids,
  live_event_slug: v.entry.live_event_slug,
  join_url: queueJoinUrl(publicBaseUrl, v.entry.live_event_slug),
  joined_via_agent: v.entry.via_agent,
  agent_identity: v.entry.agent_identity,
  position: v.position,
  match_id: v.entry.match_id,
  ...waitFields(v),
  details_url: v.entry.match_id ? matchDetailsUrl(publicBaseUrl, v.entry.match_id) : null,
});
