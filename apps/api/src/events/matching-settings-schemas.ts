import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';
import type { MatchingSettingsView } from './matching-settings-service';
import { RECRUITER_CAPACITY_MAX, RECRUITER_CAPACITY_MIN } from '#db/events/availability-repository';
import { iso } from '#lib/dates';

const recruiterAvailabilitySchema = z
  .object({
    user_id: z.uuid(),
    display_name: z.string(),
    available: z.boolean().describe('Receives new offers; an unavailable recruiter keeps the open ones'),
    capacity: z
      .number()
      .int()
      .min(RECRUITER_CAPACITY_MIN)
      .max(RECRUITER_CAPACITY_MAX)
      .describe('Concurrent interviews (open offers and matches not ended) at this event'),
    active: z.number().int().min(0).describe('Open offers and matches not ended that name this recruiter'),
    last_offered_at: isoDateTime.nullable().describe('Round-robin key: the least recent goes first'),
    updated_at: isoDateTime,
  })
  .meta({ id: 'RecruiterAvailability' });

export const matchingSettingsSchema = z
  .object({
    event_id: z.uuid(),
    min_score: z
      .number()
      .int()
      .min(0)
      .max(100)
      .nullable()
      .describe("The event's minimum match score; null = the default"),
    require_essential: z
      .boolean()
      .nullable()
      .describe("At least one of a job's essential skills; null = the default (true)"),
    relax_essential: z
      .boolean()
      .nullable()
      .optional()
      .describe(
        'Let the brackets that lift the essential-skill rule (essential_required false) lift it at ' +
          "this event; null = the default (false): a pair sharing none of a job's essential skills " +
          'is never offered, however long the seeker waits',
      ),
    allow_remote_mismatch: z
      .boolean()
      .nullable()
      .optional()
      .describe(
        'Offer pairs whose remote modes cannot meet (a seeker who wants fully remote work and an ' +
          'on-site job); null = the default (false): never',
      ),
    default_min_score: z.number().int().describe('MATCH_MIN_SCORE'),
    brackets: z
      .array(
        z.object({ after_seconds: z.number().int(), relax_points: z.number().int(), essential_required: z.boolean() }),
      )
      .describe(
        'How the floor relaxes as a seeker waits: from after_seconds, min_score − relax_points; ' +
          'essential_required false lifts the essential-skill rule where relax_essential allows it',
      ),
    floors: z
      .array(
        z.object({
          after_seconds: z.number().int(),
          min_score: z.number().int(),
          essential_required: z.boolean(),
          remote_mismatch_allowed: z.boolean(),
        }),
      )
      .optional()
      .describe("What the floor allows at this event from each bracket on, with the event's settings applied"),
    recruiters: z
      .array(recruiterAvailabilitySchema)
      .describe(
        'Empty: the event-level interview_slots alone; otherwise offers go round-robin to ' +
          'available recruiters with room',
      ),
  })
  .meta({ id: 'MatchingSettings' });

export const params = z.object({ eventId: z.uuid() });
export const availabilityBodySchema = z.strictObject({
  available: z.boolean(),
  capacity: z.number().int().min(RECRUITER_CAPACITY_MIN).max(RECRUITER_CAPACITY_MAX).optional(),
});
export const floorBodySchema = z.strictObject({
  min_score: z.number().int().min(0).max(100).nullable().optional(),
  require_essential: z.boolean().nullable().optional(),
  relax_essential: z.boolean().nullable().optional(),
  allow_remote_mismatch: z.boolean().nullable().optional(),
});
export const envelope = z.object({ matching: matchingSettingsSchema });

export const toMatchingSettings = (v: MatchingSettingsView): z.output<typeof matchingSettingsSchema> => ({
  event_id: v.eventId,
  min_score: v.minScore,
  require_essential: v.requireEssential,
  relax_essential: v.relaxEssential,
  allow_remote_mismatch: v.allowRemoteMismatch,
  default_min_score: v.defaultMinScore,
  floors: v.floors.map((f, i) => ({
    after_seconds: Math.round((v.brackets[i]?.afterMs ?? 0) / 1000),
    min_score: f.min_score,
    essential_required: f.essential_required,
    remote_mismatch_allowed: f.remote_mismatch_allowed === true,
  })),
  brackets: v.brackets.map((b) => ({
    after_seconds: Math.round(b.afterMs / 1000),
    relax_points: b.relax,
    essential_required: b.essential,
  })),
  recruiters: v.recruiters.map((r) => ({
    user_id: r.user_id,
    display_name: r.display_name,
    available: r.available,
    capacity: r.capacity,
    active: Number(r.active),
    last_offered_at: iso(r.last_offered_at),
    updated_at: r.updated_at.toISOString(),
  })),
});
