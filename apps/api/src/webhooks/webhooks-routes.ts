import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { webhookOwnerOf } from './webhooks-service';
import { isoDateTime } from '../plugins/http-schemas';
import { mapPage, pageSchema, paginationQuerySchema } from '../plugins/pagination';
import {
  DELIVERY_DESCRIPTION,
  EVENT_TYPES_DESCRIPTION,
  createWebhookBodySchema,
  createdWebhookSchema,
  deliveryLogEntrySchema,
  replayResultSchema,
  testResultSchema,
  toLogEntry,
  toWebhook,
  updateWebhookBodySchema,
  webhookIdParam,
  webhookSchema,
} from './webhooks-schemas';

const read = { scope: 'webhooks:read', rateClass: 'read' } as const;
const write = { scope: 'webhooks:write', rateClass: 'write' } as const;
const tags = ['webhooks'];
const OWNERSHIP =
  "Subscriptions belong to the caller's team when the caller is a recruiter with a team, " +
  "otherwise to the caller; another owner's subscription answers 404.";

const webhooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.webhooks;

  app.post('/webhooks', {
    // The stored idempotent answer carries the one-time secret: it is sealed, never kept in plain text.
    config: { ...write, sensitiveResponse: true },
    schema: {
      operationId: 'createWebhook',
      tags,
      summary: 'Subscribe a URL to events',
      description: [
        `Returns the subscription with its \`secret\` (\`svc_whsec_…\`), shown this once. ` +
          `${OWNERSHIP} With \`Idempotency-Key\`, a retried create returns the same subscription and ` +
          `secret; that stored answer is sealed (AES-256-GCM under the server key) for the 24 h ` +
          `window, never kept in plain text.`,
        EVENT_TYPES_DESCRIPTION,
        DELIVERY_DESCRIPTION,
      ].join('\n\n'),
      body: createWebhookBodySchema,
      response: { 201: createdWebhookSchema },
    },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const { row, secret } = await service.create(
        webhookOwnerOf(auth),
        auth.userId,
        request.body,
        request.operationKey,
      );
      return reply.code(201).send({ ...toWebhook(row), secret });
    },
  });

  app.get('/webhooks', {
    config: read,
    schema: {
      operationId: 'listWebhooks',
      tags,
      summary: "The caller's webhook subscriptions (no secrets)",
      description: `Paginated, newest first. ${OWNERSHIP}`,
      querystring: paginationQuerySchema(),
      response: { 200: pageSchema(webhookSchema) },
    },
    handler: async (request) =>
      mapPage(await service.list(webhookOwnerOf(requireAuth(request)), request.query), toWebhook),
  });

  app.get('/webhooks/:id', {
    config: read,
    schema: {
      operationId: 'getWebhook',
      tags,
      summary: 'One webhook subscription (no secret)',
      description: OWNERSHIP,
      params: webhookIdParam,
      response: { 200: webhookSchema },
    },
    handler: async (request) => toWebhook(await service.get(webhookOwnerOf(requireAuth(request)), request.params.id)),
  });

  app.patch('/webhooks/:id', {
    config: write,
    schema: {
      operationId: 'updateWebhook',
      tags,
      summary: 'Change target, events, description or status',
      description:
        `\`status: "active"\` re-enables a paused (or disabled) subscription and resets its ` +
        `consecutive-failure counter; \`status: "disabled"\` stops it (waiting retries end as ` +
        `cancelled). \`paused\` is set only by the service. ${OWNERSHIP}\n\n${EVENT_TYPES_DESCRIPTION}`,
      params: webhookIdParam,
      body: updateWebhookBodySchema,
      response: { 200: webhookSchema },
    },
    handler: async (request) =>
      toWebhook(await service.update(webhookOwnerOf(requireAuth(request)), request.params.id, request.body)),
  });

  app.delete('/webhooks/:id', {
    config: write,
    schema: {
      operationId: 'deleteWebhook',
      tags,
      summary: 'Delete a subscription',
      description:
        `Stops future deliveries; retries that were waiting end as \`cancelled\` (recorded in the ` +
        `delivery log). The answer counts them. ${OWNERSHIP}`,
      params: webhookIdParam,
      response: {
        200: z.object({ id: z.string(), deleted: z.literal(true), cancelled_deliveries: z.number().int().min(0) }),
      },
    },
    handler: async (request) => {
      const r = await service.remove(webhookOwnerOf(requireAuth(request)), request.params.id);
      return { id: request.params.id, deleted: true as const, cancelled_deliveries: r.cancelledDeliveries };
    },
  });

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

  app.post('/webhooks/:id/rotate-secret', {
    config: { ...write, sensitiveResponse: true },
    schema: {
      operationId: 'rotateWebhookSecret',
      tags,
      summary: 'Replace the signing secret',
      description:
        `No body. Returns the new \`secret\` once. Until \`previous_secret_expires_at\` (24 h by ` +
        `default) every delivery carries two \`v1=\` signatures, one per secret, so receivers can ` +
        `switch at leisure. Rotating again within that window retires the older previous secret ` +
        `immediately. With \`Idempotency-Key\`, a retry returns the same new secret (the stored ` +
        `answer is sealed, never plain text) instead of rotating twice. ${OWNERSHIP}`,
      params: webhookIdParam,
      response: { 200: createdWebhookSchema.extend({ previous_secret_expires_at: isoDateTime }) },
    },
    handler: async (request) => {
      const r = await service.rotateSecret(
        webhookOwnerOf(requireAuth(request)),
        request.params.id,
        request.operationKey,
      );
      return {
        ...toWebhook(r.row),
        secret: r.secret,
        previous_secret_expires_at: r.previousSecretExpiresAt.toISOString(),
      };
    },
  });

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
};
export default webhooksRoutes;
