import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';
import { EVENT_VISIBILITIES } from '#db/events/events-repository';
import { LIVE_EVENT_STATUSES } from '#workflows/events/contract';

/** The team's own view of an event: every field, every status. */
export const teamLiveEventSchema = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    status: z.enum(LIVE_EVENT_STATUSES),
    visibility: z.enum(EVENT_VISIBILITIES),
    company_name: z.string(),
    logo_url: z.string().nullable(),
    accent_color: z.string(),
    headline: z.string().nullable(),
    description: z.string().nullable(),
    planned_start_at: isoDateTime.nullable(),
    planned_end_at: isoDateTime.nullable(),
    started_at: isoDateTime.nullable().describe('Set by the first go-live'),
    ends_at: isoDateTime.nullable().describe('The planned end while live or paused; the actual end once ended'),
    ended_at: isoDateTime.nullable(),
    interview_slots: z.number().int().describe('Interviews the team can run at the same time during this event'),
    candidates_joined: z.number().int(),
    matches_made: z.number().int(),
    job_titles: z.array(z.string()),
    join_url: z.url(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'TeamLiveEvent' });

const slugSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(/^[a-z0-9-]+$/, 'lower-case letters, digits and hyphens only')
  // A slug shaped like a UUID would be ambiguous where an event id is accepted too (queue join's event_id).
  .refine(
    (v) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v),
    'must not look like a UUID (ids and slugs must not be confused)',
  )
  .describe('Unique, 3–64 characters of `[a-z0-9-]`, not shaped like a UUID; used in URLs');
const colourSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a hex colour like #1f6feb')
  .describe('Accent colour `#rrggbb`');
const httpsUrl = z.url({ protocol: /^https?$/ }).max(2000);

const eventFields = {
  company_name: z.string().trim().min(1).max(200),
  headline: z.string().trim().max(300).nullable(),
  description: z.string().trim().max(10_000).nullable(),
  accent_color: colourSchema,
  logo_url: httpsUrl.nullable(),
  visibility: z
    .enum(EVENT_VISIBILITIES)
    .describe('`open_invite` events are listed publicly while live or paused; `private` ones never'),
  planned_start_at: isoDateTime.nullable(),
  planned_end_at: isoDateTime.nullable().describe('Must be after planned_start_at; becomes ends_at at go-live'),
  interview_slots: z.number().int().min(1).max(100),
};

export const createEventBodySchema = z
  .strictObject({
    slug: slugSchema,
    company_name: eventFields.company_name.optional().describe("Default: the team's name"),
    headline: eventFields.headline.optional(),
    description: eventFields.description.optional(),
    accent_color: eventFields.accent_color.optional().describe('Default #1f6feb'),
    logo_url: eventFields.logo_url.optional(),
    visibility: eventFields.visibility.optional().describe('Default: the team setting default_event_visibility'),
    planned_start_at: eventFields.planned_start_at.optional(),
    planned_end_at: eventFields.planned_end_at.optional(),
    interview_slots: eventFields.interview_slots.optional().describe('Default 1'),
  })
  .meta({ id: 'LiveEventCreate' });

export const updateEventBodySchema = z
  .strictObject({
    slug: slugSchema.optional().describe('Only while the event is a draft'),
    company_name: eventFields.company_name.optional(),
    headline: eventFields.headline.optional(),
    description: eventFields.description.optional(),
    accent_color: eventFields.accent_color.optional(),
    logo_url: eventFields.logo_url.optional(),
    visibility: eventFields.visibility.optional(),
    planned_start_at: eventFields.planned_start_at.optional(),
    planned_end_at: eventFields.planned_end_at.optional(),
    interview_slots: eventFields.interview_slots.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one property to change' })
  .meta({ id: 'LiveEventUpdate' });

export const eventParams = z.object({ eventId: z.uuid() });
export const eventEnvelope = z.object({ event: teamLiveEventSchema });
