import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { isoDateTime } from '../plugins/http-schemas';
import { mapPage, pageSchema, paginationQuerySchema } from '../plugins/pagination';
import { recruiterTeamOf } from './events-service';
import { JOB_REMOTE_PREFERENCES, JOB_STATUSES, type JobWithEvent } from '../../../../db/events/jobs-repository';
import { jobSchema, toJob, salaryAmount } from './discovery-schemas';
import { skillsSchema } from '../accounts/profile-schemas';
import { LIVE_EVENT_STATUSES } from '../../../../workflows/events/contract';

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
  essential_skills: skillsSchema.pipe(z.array(z.string()).min(1, 'name at least one essential skill')).describe('1–50 skill tags, each 1–60 characters'),
  bonus_skills: skillsSchema.describe('Up to 50 skill tags'),
  experience_min: z.number().int().min(0).max(60).describe('Minimum years of experience'),
  salary_min: salary.nullable(),
  salary_max: salary.nullable(),
  location: z.string().trim().min(1).max(200).nullable(),
  remote_preference: z.enum(JOB_REMOTE_PREFERENCES).nullable(),
};
const salaryOrdered = (b: { salary_min?: number | null; salary_max?: number | null }) => b.salary_min == null || b.salary_max == null || b.salary_min <= b.salary_max;
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

const jobParams = z.object({ jobId: z.uuid() });
const jobEnvelope = z.object({ job: teamJobSchema });

const jobsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.events.jobs;
  const base = app.config.publicBaseUrl;
  const toTeamJob = (j: JobWithEvent): z.output<typeof teamJobSchema> => ({
    ...toJob(j, base),
    status: j.status,
    live_event_id: j.live_event_id,
    event_status: j.event_status,
    closed_at: j.closed_at?.toISOString() ?? null,
    created_at: j.created_at.toISOString(),
    updated_at: j.updated_at.toISOString(),
  });

  app.post('/jobs', {
    config: { scope: 'jobs:write', rateClass: 'write' },
    schema: {
      operationId: 'createJob',
      tags: ['jobs'],
      summary: 'Create a job for one of the team\'s events',
      description: "Another team's (or an unknown) event → 404; an ended event → 409 EVENT_ALREADY_ENDED; salary_min > salary_max → 400 VALIDATION. Skills are trimmed and de-duplicated case-insensitively.",
      body: createJobBodySchema,
      response: { 201: jobEnvelope },
    },
    handler: async (request, reply) => {
      const b = request.body;
      const job = await service.create(recruiterTeamOf(requireAuth(request)), {
        live_event_id: b.live_event_id,
        title: b.title,
        essential_skills: b.essential_skills,
        bonus_skills: b.bonus_skills ?? [],
        experience_min: b.experience_min ?? 0,
        salary_min: b.salary_min ?? null,
        salary_max: b.salary_max ?? null,
        location: b.location ?? null,
        remote_preference: b.remote_preference ?? null,
      }, request.operationKey);
      return reply.code(201).send({ job: toTeamJob(job) });
    },
  });

  app.get('/jobs', {
    config: { scope: 'jobs:read', rateClass: 'read' },
    schema: {
      operationId: 'listTeamJobs',
      tags: ['jobs'],
      summary: "The team's jobs, paginated",
      description: 'Newest first; optional filters `live_event_id` and `status`.',
      querystring: paginationQuerySchema().extend({ live_event_id: z.uuid().optional(), status: z.enum(JOB_STATUSES).optional() }),
      response: { 200: pageSchema(teamJobSchema) },
    },
    handler: async (request) => mapPage(await service.list(recruiterTeamOf(requireAuth(request)), request.query), toTeamJob),
  });

  app.get('/jobs/:jobId', {
    config: { scope: 'jobs:read', rateClass: 'read' },
    schema: {
      operationId: 'getTeamJob',
      tags: ['jobs'],
      summary: 'One of the team\'s jobs',
      description: "Another team's job → 404.",
      params: jobParams,
      response: { 200: jobEnvelope },
    },
    handler: async (request) => ({ job: toTeamJob(await service.get(recruiterTeamOf(requireAuth(request)), request.params.jobId)) }),
  });

  app.patch('/jobs/:jobId', {
    config: { scope: 'jobs:write', rateClass: 'write' },
    schema: {
      operationId: 'updateTeamJob',
      tags: ['jobs'],
      summary: 'Edit a job',
      description: 'A closed job → 409 JOB_CLOSED. The salary range is checked against the stored values (400 VALIDATION).',
      params: jobParams,
      body: updateJobBodySchema,
      response: { 200: jobEnvelope },
    },
    handler: async (request) => ({ job: toTeamJob(await service.update(recruiterTeamOf(requireAuth(request)), request.params.jobId, request.body)) }),
  });

  app.post('/jobs/:jobId/close', {
    config: { scope: 'jobs:write', rateClass: 'write' },
    schema: {
      operationId: 'closeTeamJob',
      tags: ['jobs'],
      summary: 'Close a job',
      description: 'The job leaves search and event pages. Closing a closed job answers 200 with the job unchanged.',
      params: jobParams,
      response: { 200: jobEnvelope },
    },
    handler: async (request) => ({ job: toTeamJob(await service.close(recruiterTeamOf(requireAuth(request)), request.params.jobId)) }),
  });
};
export default jobsRoutes;
