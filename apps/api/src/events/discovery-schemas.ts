import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';
import { eventJoinUrl } from '../plugins/join-urls';
import type { LiveEventWithStats } from '#db/events/events-repository';
import { JOB_REMOTE_PREFERENCES, type JobSearchHit, type JobWithEvent } from '#db/events/jobs-repository';
import { PUBLIC_LIVE_EVENT_STATUSES } from '#workflows/events/contract';

/**
 * A salary amount: the one schema of its bounds (the column is a PostgreSQL integer), used by the
 * job bodies, the job answers and the public search filter alike, so no route passes a value the
 * database cannot hold (a search above int32 used to answer 500).
 */
export const SALARY_MAX = 100_000_000;
export const salaryAmount = z.number().int().min(0).max(SALARY_MAX);

/** The spec's LiveEvent resource: only live and paused open-invite events are ever shown publicly. */
export const liveEventSchema = z
  .object({
    slug: z.string().describe('Event identifier used in paths'),
    status: z.enum(PUBLIC_LIVE_EVENT_STATUSES),
    company_name: z.string(),
    logo_url: z.string().nullable(),
    accent_color: z
      .string()
      .regex(/^#[0-9a-f]{6}$/i)
      .describe('Hex colour `#rrggbb`'),
    headline: z.string().nullable(),
    description: z.string().nullable(),
    started_at: isoDateTime.nullable(),
    ends_at: isoDateTime.nullable().describe('Planned end while live or paused'),
    candidates_joined: z.number().int().describe('Distinct seekers who joined the queue of this event'),
    matches_made: z.number().int().describe('Matches made for this event'),
    job_titles: z.array(z.string()).describe('Distinct titles of the open jobs, most recent first (at most 50)'),
    join_url: z.url().describe('Deep link a human opens to reach the event page and join the queue'),
  })
  .meta({ id: 'LiveEvent' });

/** The spec's Job resource. */
export const jobSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    company_name: z.string(),
    logo_url: z.string().nullable(),
    essential_skills: z.array(z.string()),
    bonus_skills: z.array(z.string()),
    experience_min: z.number().int(),
    salary_min: salaryAmount.nullable(),
    salary_max: salaryAmount.nullable(),
    location: z.string().nullable(),
    remote_preference: z.enum(JOB_REMOTE_PREFERENCES).nullable(),
    event_slug: z.string().describe('Parent event'),
    join_url: z.url().describe("The parent event's join_url"),
  })
  .meta({ id: 'Job' });

export const jobSearchHitSchema = jobSchema
  .extend({
    skill_overlap: z
      .number()
      .int()
      .min(0)
      .describe('How many of the requested skills the job lists (essential or bonus); 0 without a skills filter'),
  })
  .meta({ id: 'JobSearchHit' });

export const toLiveEvent = (e: LiveEventWithStats, baseUrl: string): z.output<typeof liveEventSchema> => ({
  slug: e.slug,
  status: e.status === 'paused' ? 'paused' : 'live',
  company_name: e.company_name,
  logo_url: e.logo_url,
  accent_color: e.accent_color,
  headline: e.headline,
  description: e.description,
  started_at: e.started_at?.toISOString() ?? null,
  ends_at: e.ends_at?.toISOString() ?? null,
  candidates_joined: e.candidates_joined,
  matches_made: e.matches_made,
  job_titles: e.job_titles,
  join_url: eventJoinUrl(baseUrl, e.slug),
});

export const toJob = (j: JobWithEvent, baseUrl: string): z.output<typeof jobSchema> => ({
  id: j.id,
  title: j.title,
  company_name: j.company_name,
  logo_url: j.logo_url,
  essential_skills: j.essential_skills,
  bonus_skills: j.bonus_skills,
  experience_min: j.experience_min,
  salary_min: j.salary_min,
  salary_max: j.salary_max,
  location: j.location,
  remote_preference: j.remote_preference,
  event_slug: j.event_slug,
  join_url: eventJoinUrl(baseUrl, j.event_slug),
});

export const toJobSearchHit = (j: JobSearchHit, baseUrl: string): z.output<typeof jobSearchHitSchema> => ({
  ...toJob(j, baseUrl),
  skill_overlap: j.skill_overlap,
});
