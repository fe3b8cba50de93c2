import { z } from 'zod';

/**
 * The webhook event catalogue: the `data` schema of every event type the service sends. The
 * emitter parses each event's data with its schema before recording it (a field that drifts from
 * the catalogue fails there, in tests, not at a receiver), and the OpenAPI document's `webhooks`
 * section is generated from the same schemas, so receivers can generate payload types.
 *
 * The keys are exactly the event types of workflows/webhooks/contract.ts (WEBHOOK_EVENT_TYPES);
 * a test fails when a type has no schema here.
 */
const isoTime = z.iso.datetime({ offset: true });

const matchFields = {
  match_id: z.string().describe('The match (`GET /api/v1/matches/{id}`)'),
  job_id: z.string().describe('The job the match is for'),
  role_title: z.string().describe("The job's title"),
  live_event_slug: z.string().describe('The live event the match was made at'),
};

export const WEBHOOK_EVENT_DATA = {
  'match.matched': z
    .object({
      match_id: matchFields.match_id,
      role_title: matchFields.role_title,
      seeker_headline: z.string().describe('The seeker\'s headline; "" when they have none'),
    })
    .describe("A match is made: sent to team subscriptions of the job's team and user subscriptions of the seeker."),
  'match.accepted': z
    .object({
      ...matchFields,
      accepted_at: isoTime.describe('When the second side accepted'),
      recruiter_auto_accepted: z.boolean().describe("True when the team's settings accepted for the recruiters"),
      recruiter_user_id: z
        .string()
        .nullable()
        .describe('The interviewer: whoever of the team accepted; null when unknown (auto-accepted)'),
    })
    .describe('Both sides of a match accepted it in the web application.'),
  'interview.completed': z
    .object({
      ...matchFields,
      completed_at: isoTime.describe('When the interview ended'),
      ended_by: z.enum(['seeker', 'recruiter', 'time_limit']).describe('Who ended it, or the interview clock'),
      started_at: isoTime
        .nullable()
        .describe(
          'When both people were first in the interview room (which starts the clock); the ' +
            'acceptance when they never met there (e.g. a hosted video provider); null if unknown',
        ),
      duration_seconds: z.number().int().min(0).nullable().describe('From started_at to the end; null if unknown'),
    })
    .describe("The interview of an accepted match has ended. The recruiter's report card is never in it."),
  'match.no_show': z
    .object({
      ...matchFields,
      accepted_at: isoTime.nullable().describe('When the match was accepted'),
      no_show_at: isoTime.describe('When the grace time to come to the room ran out'),
      missing: z.enum(['seeker', 'recruiter', 'both']).describe('Who did not come to the interview room'),
    })
    .describe(
      'An accepted match ended without an interview: someone did not come to the interview room within ' +
        'the grace time (never also interview.completed).',
    ),
  'changelog.api': z
    .object({
      entry_id: z.string().describe('The changelog entry'),
      date: z.string().describe('The day of the change, YYYY-MM-DD'),
      kind: z.enum(['added', 'changed', 'deprecated', 'removed', 'fixed']).describe('What kind of change'),
      title: z.string(),
      description: z.string(),
      changelog_url: z.string().describe('The entry in `GET /api/v1/changelog`'),
    })
    .describe('An entry was added to the API changelog (sent to every subscription of this type).'),
  'webhook.test': z
    .object({
      webhook_id: z.string().describe('The subscription the test was sent to'),
      message: z.literal('This is a test event from Job Fair.'),
      test: z.literal(true),
    })
    .describe('`POST /webhooks/{id}/test`: sent only to that subscription, whether or not it lists this type.'),
} as const;

export type WebhookEventDataType = keyof typeof WEBHOOK_EVENT_DATA;
export type WebhookEventData<T extends WebhookEventDataType> = z.infer<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** Thrown when an emitted event's data does not match its catalogue schema (a bug in the emitter). */
export class WebhookEventDataError extends Error {
  override name = 'WebhookEventDataError';
}

/**
 * The event's data, checked against the catalogue: unknown types and data that does not match
 * throw WebhookEventDataError naming the fields. The data is returned as given (never reshaped),
 * so what is recorded is what the emitter built.
 */
export function checkWebhookEventData(type: string, data: unknown): Record<string, unknown> {
  const schema = (WEBHOOK_EVENT_DATA as Record<string, z.ZodType>)[type];
  if (!schema) throw new WebhookEventDataError(`webhook event type ${type} is not in the catalogue`);
  // Strict here (a field the catalogue does not name fails), open in the published schema: v1
  // only adds fields, so receivers must accept ones they do not know.
  const parsed = (schema instanceof z.ZodObject ? schema.strict() : schema).safeParse(data);
  if (!parsed.success)
    throw new WebhookEventDataError(
      `webhook event ${type}: data does not match the catalogue: ` +
        parsed.error.issues.map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`).join('; '),
    );
  return data as Record<string, unknown>;
}

/** The JSON Schema (2020-12, as OpenAPI 3.1 uses) of one type's delivered body: the envelope around its data. */
export function webhookEnvelopeJsonSchema(type: WebhookEventDataType): Record<string, unknown> {
  const data = z.toJSONSchema(WEBHOOK_EVENT_DATA[type], { io: 'output' }) as Record<string, unknown>;
  delete data.$schema;
  delete data.additionalProperties;
  return {
    type: 'object',
    description: data.description,
    required: ['id', 'type', 'created_at', 'data'],
    properties: {
      id: { type: 'string', description: 'The event id (`evt_…`); the same in every attempt and replay' },
      type: { type: 'string', const: type },
      created_at: { type: 'integer', description: 'When the event happened, Unix time in seconds' },
      data,
    },
  };
}
