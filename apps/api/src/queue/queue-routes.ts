import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { agentIdentityOf } from '../plugins/agent-identity';
import { type QueueEntryView } from './queue-service';
import { ValidationError } from '#lib/errors';
import { errorEnvelopeSchema } from '../plugins/http-schemas';
import { matchDetailsUrl, queueJoinUrl } from '../plugins/join-urls';
import { POLL_AFTER_SHORT_SECONDS } from '#domain/matchmaking/wait-explanation';
import { queueJoinResponseSchema, queueEntrySchema, joinBodySchema } from './queue-schemas';

export const HUMANS_ONLY_NOTE =
  'A person must accept any match in the web application; this API never accepts a match or ' +
  "enters the interview room on anyone's behalf. Give join_url to the human now to follow the " +
  'queue (signing in there); once GET /queue/status says matched, give them its details_url: ' +
  'that match page is where they accept or decline.';

/** The estimate and the outlook of a queue answer: one wait explanation (matchmaking/wait-service.ts). */
type QueueStatusAnswer = {
  queue_entry: {
    status: string;
    position: number | null;
    estimated_wait_seconds: number | null;
    poll_after_seconds?: number | null;
  } | null;
};

/** One line for an MCP progress notification while the entry waits. */
const waitMessage = (e: NonNullable<QueueStatusAnswer['queue_entry']>) =>
  `Waiting in the queue${e.position !== null ? `: position ${e.position}` : ''}` +
  (e.estimated_wait_seconds !== null ? `, about ${Math.max(1, Math.round(e.estimated_wait_seconds / 60))} min` : '');

const waitFields = (v: QueueEntryView) => ({
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

const queueRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.queue;
  const toEntry = (v: QueueEntryView): z.output<typeof queueEntrySchema> => ({
    id: v.entry.id,
    status: v.entry.status,
    entered_at: v.entry.entered_at.toISOString(),
    interview_mode: 'video',
    job_ids: v.entry.job_ids,
    live_event_slug: v.entry.live_event_slug,
    join_url: queueJoinUrl(app.config.publicBaseUrl, v.entry.live_event_slug),
    joined_via_agent: v.entry.via_agent,
    agent_identity: v.entry.agent_identity,
    position: v.position,
    match_id: v.entry.match_id,
    ...waitFields(v),
    details_url: v.entry.match_id ? matchDetailsUrl(app.config.publicBaseUrl, v.entry.match_id) : null,
  });

  app.post('/queue/join', {
    config: {
      scope: 'queue:write',
      rateClass: 'write',
      mcp: {
        hint:
          'Call when the human wants to meet recruiters now. A person must finish onboarding in the ' +
          'web app first (409 ONBOARDING_INCOMPLETE otherwise).',
        resultNote:
          'NEXT STEP FOR THE AGENT: give join_url to the human now (they follow the queue there). ' +
          'Then poll svc_queue_status, waiting poll_after_seconds between calls (at least 5 s), until ' +
          'status is `matched`, and give the human its details_url: only a person accepts a match, on that ' +
          'page. To leave (even while matched: it declines the match), svc_queue_leave.',
      },
    },
    schema: {
      operationId: 'joinQueue',
      tags: ['queue'],
      summary: "Create or resume the caller's queue entry",
      description:
        "Optional body `{ live_event_slug }` (3–64 characters) or the guide's alias `{ event_id }` " +
        '(a slug or id); no other property. Unknown or non-live event → 404; no completed profile ' +
        '→ 409 ONBOARDING_INCOMPLETE. Calling again resumes the same waiting entry; while the ' +
        'entry is matched (for this event or another) → 409 QUEUE_ENTRY_MATCHED with ' +
        '`details.match_id` and `details.details_url` (the match page where the person accepts or ' +
        'declines; POST /queue/leave declines it and leaves). `X-Agent-Identity` (or the token ' +
        'name) is kept on the entry. `join_url` is where the person follows the queue; the match ' +
        "is accepted at the match's `details_url`.",
      body: joinBodySchema,
      response: {
        200: queueJoinResponseSchema,
        409: errorEnvelopeSchema.describe(
          'QUEUE_ENTRY_MATCHED (details.queue_id, details.match_id, details.details_url); QUEUE_ENTRY_EXISTS ' +
            '(another queue; details.match_id and details.details_url when that entry is matched); ONBOARDING_INCOMPLETE',
        ),
      },
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const body = request.body ?? {};
      if (body.live_event_slug && body.event_id && body.live_event_slug !== body.event_id) {
        throw new ValidationError('Send live_event_slug or event_id, not both', [
          { path: 'body.event_id', message: 'conflicts with live_event_slug' },
        ]);
      }
      const agentIdentity = agentIdentityOf(request, auth.tokenName);
      const joined = await service.join({
        userId: auth.userId,
        eventRef: body.live_event_slug ?? body.event_id ?? null,
        agentIdentity,
        viaAgent: true,
        operationKey: request.operationKey,
      });
      return {
        queue_id: joined.entry.id,
        status: 'waiting' as const,
        live_event_slug: joined.entry.live_event_slug,
        join_url: queueJoinUrl(app.config.publicBaseUrl, joined.entry.live_event_slug),
        humans_only_note: HUMANS_ONLY_NOTE,
        position: joined.position,
        match_id: joined.entry.match_id,
        ...waitFields(joined),
      };
    },
  });

  app.post('/queue/leave', {
    config: { scope: 'queue:write', rateClass: 'write' },
    schema: {
      operationId: 'leaveQueue',
      tags: ['queue'],
      summary: "Leave the matchmaking queue (the caller's entry ends as `left`)",
      description:
        'No body. A `waiting` entry ends `left`. A `matched` entry leaves too: its pending match ' +
        'is declined for the seeker (reason code `left_queue`) and the entry ends `left` in the ' +
        'same step, never waiting in between, so no other match is offered; the answer comes once ' +
        'it reads `left`. A match already accepted by both sides → 409 QUEUE_ENTRY_MATCH_ACCEPTED ' +
        '(details.match_id, details.details_url: the interview is on). No active entry → 404. ' +
        'Added in v1 as a new endpoint (additive).',
      response: {
        200: z.object({ queue_entry: queueEntrySchema }),
        409: errorEnvelopeSchema.describe(
          'QUEUE_ENTRY_MATCH_ACCEPTED (details.match_id, details.details_url); QUEUE_ENTRY_NOT_WAITING when ' +
            'the entry kept changing under the call (retry)',
        ),
      },
    },
    handler: async (request) => {
      const v = await service.leave(requireAuth(request).userId);
      return { queue_entry: toEntry(v) };
    },
  });

  app.get('/queue/status', {
    config: {
      scope: 'queue:read',
      rateClass: 'read',
      mcp: {
        name: 'svc_queue_status',
        hint:
          "Poll again after the answer's poll_after_seconds (at least 5 s; longer while nothing can " +
          'change soon); stop when it is null (left, expired, match accepted). Or send a ' +
          'progressToken: the call then stays open while the entry waits (up to about 50 s), reports ' +
          'each change of position or estimate as a progress notification, and answers once it is ' +
          'matched, left or expired (or the time is up: call again).',
        progress: {
          waiting: (answer) => (answer as QueueStatusAnswer | null)?.queue_entry?.status === 'waiting',
          message: (answer) => waitMessage((answer as QueueStatusAnswer).queue_entry!),
          // The waiting call re-reads as often as the answer's own poll hint says is useful.
          pace: (answer) => {
            const after = (answer as QueueStatusAnswer | null)?.queue_entry?.poll_after_seconds;
            return after == null ? null : after / POLL_AFTER_SHORT_SECONDS;
          },
        },
      },
    },
    schema: {
      operationId: 'getQueueStatus',
      tags: ['queue'],
      summary: "The caller's latest queue entry",
      description:
        "Poll no more often than every 5 seconds, and wait the answer's `poll_after_seconds` before the " +
        'next call (longer while nothing can change soon; null: the entry ended, stop). `status` moves ' +
        '`waiting` → `matched` (with ' +
        '`match_id` and `details_url`, the match page where the person accepts); `left` and ' +
        '`expired` end an entry.',
      response: { 200: z.object({ queue_entry: queueEntrySchema.nullable() }) },
    },
    handler: async (request) => {
      const v = await service.status(requireAuth(request).userId);
      return { queue_entry: v ? toEntry(v) : null };
    },
  });
};
export default queueRoutes;
