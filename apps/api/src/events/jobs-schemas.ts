import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';
import { JOB_REMOTE_PREFERENCES, JOB_STATUSES } from '#db/events/jobs-repository';
import { jobSchema, salaryAmount } from './discovery-schemas';
import { skillsSchema } from '../accounts/profile-schemas';
import { LIVE_EVENT_STATUSES } from '#workflows/events/contract';

/** The team's view of a job: the public Job plus its status and parent event id. */
export const teamJobSchema = jobSchema
  .extend({
    status: z.enum(JOB_STATUSES),
    live_event_id: z.uuid(),
    event_status: z.enum(LIVE_EVENT_STATUSES),
    closed_at: isoDateTime.nullable(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'TeamJob' });

const salary = salaryAmount;
const jobFields = {
  title: z.string().trim().min(1).max(200),
  essential_skills: skillsSchema
    .pipe(z.array(z.string()).min(1, 'name at least one essential skill'))
    .describe('1–50 skill tags, each 1–60 characters'),
  bonus_skills: skillsSchema.describe('Up to 50 skill tags'),
  experience_min: z.number().int().min(0).max(60).describe('Minimum years of experience'),
  salary_min: salary.nullable(),
  salary_max: salary.nullable(),
  location: z.string().trim().min(1).max(200).nullable(),
  remote_preference: z.enum(JOB_REMOTE_PREFERENCES).nullable(),
};
const salaryOrdered = (b: { salary_min?: number | null; salary_max?: number | null }) =>
  b.salary_min == null || b.salary_max == null || b.salary_min <= b.salary_max;
const salaryIssue = { message: 'salary_min must be less than or equal to salary_max', path: ['salary_min'] };

export const createJobBodySchema = z
  .strictObject({
    live_event_id: z.uuid().describe("Parent event: one of the caller's team's events that has not ended"),
    title: jobFields.title,
    essential_skills: jobFields.essential_skills,
    bonus_skills: jobFields.bonus_skills.optional(),
    experience_min: jobFields.experience_min.optional().describe('Default 0'),
    salary_min: jobFields.salary_min.optional(),
    salary_max: jobFields.salary_max.optional(),
    location: jobFields.location.optional(),
    remote_preference: jobFields.remote_preference.optional(),
  })
  .refine(salaryOrdered, salaryIssue)
  .meta({ id: 'JobCreate' });

export const updateJobBodySchema = z
  .strictObject({
    title: jobFields.title.optional(),
    essential_skills: jobFields.essential_skills.optional(),
    bonus_skills: jobFields.bonus_skills.optional(),
    experience_min: jobFields.experience_min.optional(),
    salary_min: jobFields.salary_min.optional(),
    salary_max: jobFields.salary_max.optional(),
    location: jobFields.location.optional(),
    remote_preference: jobFields.remote_preference.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one property to change' })
  .refine(salaryOrdered, salaryIssue)
  .meta({ id: 'JobUpdate' });

export const jobParams = z.object({ jobId: z.uuid() });
export const jobEnvelope = z.object({ job: teamJobSchema });
