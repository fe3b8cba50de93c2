import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { agentIdentityOf } from '../../plugins/agent-identity';
import { ValidationError } from '#lib/errors';
import { errorEnvelopeSchema } from '../../plugins/http-schemas';
import { queueJoinUrl } from '../../plugins/join-urls';
import { queueJoinResponseSchema, joinBodySchema } from '../queue-schemas';
import { waitFields } from './queue-answers';

export const HUMANS_ONLY_NOTE =
  'A person must accept any match in the web application; this API never accepts a match or ' +
  "enters the interview room on anyone's behalf. Give join_url to the human now to follow the " +
  'queue (signing in there); once GET /queue/status says matched, give them its details_url: ' +
  'that match page is where they accept or decline.';

/** `POST /queue/join`: create or resume the caller's entry. */
export function joinRoute(app: Parameters<FastifyPluginAsyncZod>[0]): void {
  const service = app.services.queue;
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
}
