import { z } from 'zod';
import { requireAuth } from '../../plugins/auth';
import { isoDateTime } from '../../plugins/http-schemas';
import { webhookOwnerOf } from '../webhooks-service';
import {
  deliveryLogEntrySchema,
  replayResultSchema,
  testResultSchema,
  toLogEntry,
  webhookIdParam,
} from '../webhooks-schemas';
import { OWNERSHIP, read, tags, write, type WebhooksApp } from './route-settings';

/** POST /webhooks/{id}/test and GET /webhooks/{id}/deliveries. */
export function testAndDeliveryLogRoutes(app: WebhooksApp): void {
  const service = app.services.webhooks;

  app.post('/webhooks/:id/test', {
    config: write,
    schema: {
      operationId: 'testWebhook',
      tags,
      summary: 'Send a synthetic webhook.test event',
      description:
        `No body. Sends \`{ id: evt_…, type: "webhook.test", created_at, data: { webhook_id, ` +
        `message: "This is a test event from Job Fair.", test: true } }\` through the normal ` +
        `delivery path (signed, logged, counted, retried on failure) to this subscription, ` +
        `whatever its \`events\`, and answers with the first attempt's outcome. It waits for that ` +
        `attempt at most \`WEBHOOK_TEST_WAIT_MS\` (default 3 s): if the worker has not made it by ` +
        `then, the answer is \`state: "pending"\` with \`attempt: null\` — the event is durably ` +
        `accepted and will be delivered; read its attempt in \`GET /webhooks/{id}/deliveries\` (a ` +
        `keyed retry replays the pending answer).`,
      params: webhookIdParam,
      response: { 200: testResultSchema },
    },
    handler: async (request) => {
      const r = await service.sendTest(webhookOwnerOf(requireAuth(request)), request.params.id, request.operationKey);
      const a = r.outcome.attempt;
      return {
        event: { id: r.eventId, type: 'webhook.test' as const, data: r.data },
        state: r.outcome.state,
        attempt: a
          ? {
              delivery_id: a.deliveryId,
              attempt: a.attempt,
              attempted_at: new Date(a.attemptedAtMs).toISOString(),
              http_status: a.httpStatus,
              error_kind: a.errorKind,
              latency_ms: a.latencyMs,
              response_snippet: a.responseSnippet,
            }
          : null,
      };
    },
  });

  app.get('/webhooks/:id/deliveries', {
    config: read,
    schema: {
      operationId: 'listWebhookDeliveries',
      tags,
      summary: 'Delivery log: the 50 most recent attempts',
      description:
        `Not paginated: \`{ deliveries: [...] }\`, newest first. One entry per HTTP attempt (its ` +
        `\`Svc-Delivery-Id\`) plus one per delivery that ended without a request (not accepted ` +
        `while paused, oversize, cancelled, dead-lettered while paused). ${OWNERSHIP}`,
      params: webhookIdParam,
      response: { 200: z.object({ deliveries: z.array(deliveryLogEntrySchema).max(50) }) },
    },
    handler: async (request) => {
      const rows = await service.listDeliveries(webhookOwnerOf(requireAuth(request)), request.params.id);
      return { deliveries: rows.map(toLogEntry) };
    },
  });
}

/** The two replays of dead letters: one delivery, or all since a time. */
export function deadLetterReplayRoutes(app: WebhooksApp): void {
  const service = app.services.webhooks;

  app.post('/webhooks/:id/deliveries/:deliveryId/replay', {
    config: write,
    schema: {
      operationId: 'replayWebhookDelivery',
      tags,
      summary: 'Redeliver one dead letter',
      description:
        `\`deliveryId\`: any \`dlv_…\` from the delivery log of the dead-lettered delivery, or its ` +
        `event id \`evt_…\`. Starts a new delivery run with the same event id (full retry ` +
        `schedule). 409 DELIVERY_NOT_DEAD_LETTER when its latest run is not a dead letter, 409 ` +
        `WEBHOOK_NOT_ACTIVE when the subscription is paused or disabled, 409 DELIVERY_IN_PROGRESS ` +
        `when a run is open. Also: \`npm run webhooks:replay\`. ${OWNERSHIP}`,
      params: webhookIdParam.extend({
        deliveryId: z.string().regex(/^(dlv|evt)_[A-Za-z0-9]{1,64}$/, 'a dlv_… or evt_… id'),
      }),
      response: { 202: z.object({ replayed: z.object({ event_id: z.string(), run: z.number().int() }) }) },
    },
    handler: async (request, reply) => {
      const r = await service.replayOne(
        webhookOwnerOf(requireAuth(request)),
        request.params.id,
        request.params.deliveryId,
        request.operationKey,
      );
      return reply.code(202).send({ replayed: { event_id: r.eventId, run: r.run } });
    },
  });

  app.post('/webhooks/:id/replay', {
    config: write,
    schema: {
      operationId: 'replayWebhookDeadLetters',
      tags,
      summary: 'Redeliver all dead letters since a time',
      description:
        `Body \`{ since: date-time }\`: every event whose latest delivery run became a dead letter ` +
        `at or after \`since\` gets a new run (same event id), oldest first, at most 500 per call ` +
        `(\`has_more\`). 409 WEBHOOK_NOT_ACTIVE when the subscription is paused or disabled. Also: ` +
        `\`npm run webhooks:replay\`. ${OWNERSHIP}`,
      params: webhookIdParam,
      body: z.strictObject({ since: isoDateTime.describe('ISO 8601 with offset, e.g. 2026-11-21T00:00:00Z') }),
      response: { 202: replayResultSchema },
    },
    handler: async (request, reply) => {
      const r = await service.replaySince(
        webhookOwnerOf(requireAuth(request)),
        request.params.id,
        new Date(request.body.since),
        request.operationKey,
      );
      return reply.code(202).send({
        replayed: r.replayed.map((x) => ({ event_id: x.eventId, run: x.run })),
        skipped: r.skipped,
        has_more: r.more,
      });
    },
  });
}
