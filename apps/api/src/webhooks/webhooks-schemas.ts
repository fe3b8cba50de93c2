import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';
import {
  VISIBLE_WEBHOOK_SUBSCRIPTION_STATUSES,
  WEBHOOK_ATTEMPT_OUTCOMES,
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_EVENT_DOCS,
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryState,
} from '#workflows/webhooks/contract';
import type { WebhookAttemptRow, WebhookSubscriptionRow } from '#db/webhooks/webhooks-repository';
import { iso } from '#lib/dates';

export const EVENT_TYPES_DESCRIPTION = [
  'Event types and their `data`:',
  ...WEBHOOK_EVENT_TYPES.map((t) => `- \`${t}\`: ${WEBHOOK_EVENT_DOCS[t].when}; data ${WEBHOOK_EVENT_DOCS[t].data}`),
].join('\n');

export const DELIVERY_DESCRIPTION =
  'Delivery: POST of the envelope `{ id: evt_…, type, created_at (Unix s), data }` with ' +
  'headers `Svc-Signature: t=<unix>,v1=<hex>` (HMAC-SHA256 of `<t>.<raw body>` keyed with ' +
  'the secret; a second `v1=` while a rotated secret is still valid), `Svc-Event`, ' +
  '`Svc-Delivery-Id` (`dlv_`, one per attempt), `Svc-Subscription-Id`, `Content-Type: ' +
  'application/json`. Success = 2xx within 10 s; redirects are not followed; retries after ' +
  '30 s, 5 min, 30 min, 6 h, 24 h, then dead letter; 25 consecutive failures pause the ' +
  'subscription (e-mail to the owner). Bodies over 64 KB are not delivered (`oversize`).';

export const webhookIdParam = z.object({
  id: z
    .string()
    .regex(/^whk_[0-9a-f]{24}$/, 'a webhook id (whk_…)')
    .describe('Webhook subscription id (`whk_…`)'),
});

const eventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
const targetUrl = z
  .string()
  .min(1)
  .max(2048)
  .describe(
    'HTTPS URL deliveries are POSTed to. Private, loopback, link-local and metadata addresses ' +
      'are refused (also after DNS resolution, at every connection).',
  );

export const createWebhookBodySchema = z.strictObject({
  target_url: targetUrl,
  events: z
    .array(eventTypeSchema)
    .min(1)
    .max(WEBHOOK_EVENT_TYPES.length)
    .describe('Event types to receive (unknown types → 400)'),
  description: z.string().max(500).optional().describe('Free text'),
});

export const updateWebhookBodySchema = z
  .strictObject({
    target_url: targetUrl.optional(),
    events: z.array(eventTypeSchema).min(1).max(WEBHOOK_EVENT_TYPES.length).optional(),
    description: z.string().max(500).nullable().optional(),
    status: z
      .enum(['active', 'disabled'])
      .optional()
      .describe(
        '`active` re-enables a paused or disabled subscription and resets its failure counter; ' +
          '`disabled` stops deliveries (waiting retries end as cancelled)',
      ),
  })
  .refine((b) => Object.keys(b).length > 0, {
    message: 'send at least one of target_url, events, description, status',
  });

export const webhookSchema = z
  .object({
    id: z.string().describe('`whk_…`'),
    target_url: z.string(),
    events: z.array(z.string()),
    description: z.string().describe('Free text; "" when none was given (or it was cleared with null)'),
    status: z
      .enum(VISIBLE_WEBHOOK_SUBSCRIPTION_STATUSES)
      .describe(
        '`paused` after too many consecutive failures (no new events accepted); re-enable with PATCH status=active',
      ),
    consecutive_failures: z.number().int().min(0),
    paused_at: isoDateTime.nullable(),
    owner: z
      .object({ type: z.enum(['team', 'user']), id: z.uuid() })
      .describe("Team subscriptions receive the team's events; user subscriptions the user's"),
    secret_rotated_at: isoDateTime.nullable(),
    previous_secret_expires_at: isoDateTime
      .nullable()
      .describe('Until then deliveries also carry a v1= signature made with the previous secret'),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'WebhookSubscription' });

export const createdWebhookSchema = webhookSchema
  .extend({
    secret: z
      .string()
      .describe('`svc_whsec_…`: shown this once, never stored in plain text; keep it to verify signatures'),
  })
  .meta({ id: 'WebhookSubscriptionCreated' });

export const deliveryStateSchema = z.enum(WEBHOOK_DELIVERY_STATES);

export const deliveryLogEntrySchema = z
  .object({
    delivery_id: z.string().describe('`dlv_…`: the Svc-Delivery-Id of this attempt (or the id of a not-sent outcome)'),
    event_id: z.string(),
    event_type: z.string(),
    run: z.number().int().min(1).describe('1 for the original delivery, 2+ for replays'),
    attempt: z
      .number()
      .int()
      .min(1)
      .nullable()
      .describe('1 = first try, 2–6 = retries 1–5; null when no request was made'),
    attempted_at: isoDateTime,
    outcome: z.enum(WEBHOOK_ATTEMPT_OUTCOMES),
    http_status: z.number().int().nullable(),
    error_kind: z
      .string()
      .nullable()
      .describe(
        'timeout, connection_refused, connection_reset, dns_error, tls_error, network_error, ' +
          'blocked_address, redirect_not_followed, http_error, attempt_failed; for not-sent rows ' +
          'not_accepted_paused, oversize, subscription_paused, subscription_disabled, ' +
          'subscription_deleted',
      ),
    latency_ms: z.number().int().nullable(),
    response_snippet: z.string().nullable().describe('First characters of the response body'),
    state: deliveryStateSchema.describe("The delivery's current (final once finished) state"),
  })
  .meta({ id: 'WebhookDeliveryLogEntry' });

export const testResultSchema = z
  .object({
    event: z.object({ id: z.string(), type: z.literal('webhook.test'), data: z.record(z.string(), z.unknown()) }),
    state: deliveryStateSchema.describe(
      '`delivered`; `retrying` (the first attempt failed, retries follow the schedule); ' +
        '`pending` (no attempt within WEBHOOK_TEST_WAIT_MS: accepted, the attempt follows — see ' +
        'the deliveries log); `not_accepted_paused`; `oversize`; `cancelled`',
    ),
    attempt: deliveryLogEntrySchema
      .pick({
        delivery_id: true,
        attempt: true,
        attempted_at: true,
        http_status: true,
        error_kind: true,
        latency_ms: true,
        response_snippet: true,
      })
      .nullable(),
  })
  .meta({ id: 'WebhookTestResult' });

export const replayResultSchema = z.object({
  replayed: z.array(z.object({ event_id: z.string(), run: z.number().int() })),
  skipped: z.array(z.string()).describe('Event ids whose delivery is already running again'),
  has_more: z.boolean().describe('More dead letters remain after this batch of 500: call again'),
});

export function toWebhook(r: WebhookSubscriptionRow): z.output<typeof webhookSchema> {
  return {
    id: r.id,
    target_url: r.target_url,
    events: r.events,
    description: r.description ?? '',
    status: r.status === 'deleted' ? 'disabled' : r.status,
    consecutive_failures: r.consecutive_failures,
    paused_at: iso(r.paused_at),
    owner: r.owner_team_id ? { type: 'team', id: r.owner_team_id } : { type: 'user', id: r.owner_user_id! },
    secret_rotated_at: iso(r.secret_rotated_at),
    previous_secret_expires_at:
      r.previous_secret_expires_at && r.previous_secret_expires_at.getTime() > Date.now()
        ? r.previous_secret_expires_at.toISOString()
        : null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function toLogEntry(
  a: WebhookAttemptRow & { state: WebhookDeliveryState },
): z.output<typeof deliveryLogEntrySchema> {
  return {
    delivery_id: a.id,
    event_id: a.event_id,
    event_type: a.event_type,
    run: a.run,
    attempt: a.attempt,
    attempted_at: a.attempted_at.toISOString(),
    outcome: a.outcome,
    http_status: a.http_status,
    error_kind: a.error_kind,
    latency_ms: a.latency_ms,
    response_snippet: a.response_snippet,
    state: a.state,
  };
}
