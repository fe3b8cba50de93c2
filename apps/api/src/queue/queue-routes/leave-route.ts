import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth';
import { errorEnvelopeSchema } from '../../plugins/http-schemas';
import { queueEntrySchema } from '../queue-schemas';
import { toEntry } from './queue-answers';

/** `POST /queue/leave`: the caller's entry ends `left` (a pending match is declined). */
export function leaveRoute(app: Parameters<FastifyPluginAsyncZod>[0]): void {
  const service = app.services.queue;
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
      return { queue_entry: toEntry(app.config.publicBaseUrl, v) };
    },
  });
}
