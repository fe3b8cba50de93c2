import { z } from 'zod';
import { requireAuth } from '../../plugins/auth';
import { isoDateTime } from '../../plugins/http-schemas';
import { mapPage, pageSchema, paginationQuerySchema } from '../../plugins/pagination';
import { webhookOwnerOf } from '../webhooks-service';
import {
  DELIVERY_DESCRIPTION,
  EVENT_TYPES_DESCRIPTION,
  createWebhookBodySchema,
  createdWebhookSchema,
  toWebhook,
  updateWebhookBodySchema,
  webhookIdParam,
  webhookSchema,
} from '../webhooks-schemas';
import { OWNERSHIP, read, tags, write, type WebhooksApp } from './route-settings';

/** POST /webhooks, GET /webhooks, GET /webhooks/{id}. */
export function subscriptionCreateAndReadRoutes(app: WebhooksApp): void {
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
}

/** PATCH and DELETE /webhooks/{id}. */
export function subscriptionChangeRoutes(app: WebhooksApp): void {
  const service = app.services.webhooks;

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
}

/** POST /webhooks/{id}/rotate-secret. */
export function secretRotationRoutes(app: WebhooksApp): void {
  const service = app.services.webhooks;

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
}
