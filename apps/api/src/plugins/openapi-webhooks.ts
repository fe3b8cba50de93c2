import type { OpenAPIV3_1 } from 'openapi-types';
import { WEBHOOK_EVENT_DOCS, WEBHOOK_EVENT_TYPES } from '#workflows/webhooks/contract';
import { webhookEnvelopeJsonSchema, type WebhookEventDataType } from '#domain/webhooks/event-catalogue';

/** `match.no_show` → `MatchNoShowEvent`: the component name of a type's delivered body. */
export const webhookEventSchemaName = (type: string): string =>
  type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('') + 'Event';

const SIGNATURE_HEADERS: OpenAPIV3_1.ParameterObject[] = [
  {
    name: 'Svc-Signature',
    in: 'header',
    required: true,
    description:
      '`t=<unix seconds>,v1=<hex>`: HMAC-SHA256 with the subscription secret of `<t>.<raw body>`; one `v1` per ' +
      'signing secret (two while a secret rotates).',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: the event id (the same in every attempt: deduplicate on it)',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: the attempt time, Unix seconds',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: `v1,<base64 HMAC-SHA256 of <id>.<timestamp>.<raw body>>`, one per secret',
    schema: { type: 'string' },
  },
];

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type the emitter knows, its body the
 * envelope around the catalogue's data schema (components/schemas/<Type>Event), so receivers can
 * generate payload types. Generated from the same schemas the emitter checks events against.
 */
export function addWebhookCatalogue(doc: OpenAPIV3_1.Document): void {
  doc.components ??= {};
  doc.components.schemas ??= {};
  const webhooks: Record<string, OpenAPIV3_1.PathItemObject> = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    const name = webhookEventSchemaName(type);
    doc.components.schemas[name] = webhookEnvelopeJsonSchema(type as WebhookEventDataType) as OpenAPIV3_1.SchemaObject;
    const docs = WEBHOOK_EVENT_DOCS[type];
    webhooks[type] = {
      post: {
        operationId: `webhook_${type.replace('.', '_')}`,
        summary: type,
        description:
          `Sent when ${docs.when}. POSTed to the subscription's target URL with both signature schemes; ` +
          'answer any 2xx within the timeout to acknowledge, anything else is retried with backoff ' +
          '(the API reference, "Webhooks").',
        tags: ['Webhook events'],
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: {
          '2XX': { description: 'Acknowledged: the delivery is done' },
          default: { description: 'Not acknowledged: the delivery is retried, then dead-lettered' },
        },
      },
    };
  }
  (doc as OpenAPIV3_1.Document & { webhooks: typeof webhooks }).webhooks = webhooks;
}
