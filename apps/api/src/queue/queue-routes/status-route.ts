import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth';
import { POLL_AFTER_SHORT_SECONDS } from '#domain/matchmaking/wait-explanation';
import { queueEntrySchema } from '../queue-schemas';
import { toEntry, waitMessage, type QueueStatusAnswer } from './queue-answers';

/** `GET /queue/status`: the caller's latest entry (the MCP tool can wait on it with progress). */
export function statusRoute(app: Parameters<FastifyPluginAsyncZod>[0]): void {
  const service = app.services.queue;
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
      return { queue_entry: v ? toEntry(app.config.publicBaseUrl, v) : null };
    },
  });
}
