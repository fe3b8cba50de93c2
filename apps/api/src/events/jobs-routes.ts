import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { mapPage, pageSchema, paginationQuerySchema } from '../plugins/pagination';
import { recruiterTeamOf } from './events-service';
import { JOB_STATUSES, type JobWithEvent } from '#db/events/jobs-repository';
import { toJob } from './discovery-schemas';
import { teamJobSchema, createJobBodySchema, updateJobBodySchema, jobParams, jobEnvelope } from './jobs-schemas';

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
      summary: "Create a job for one of the team's events",
      description:
        "Another team's (or an unknown) event → 404; an ended event → 409 EVENT_ALREADY_ENDED; " +
        'salary_min > salary_max → 400 VALIDATION. Skills are trimmed and de-duplicated ' +
        'case-insensitively.',
      body: createJobBodySchema,
      response: { 201: jobEnvelope },
    },
    handler: async (request, reply) => {
      const b = request.body;
      const job = await service.create(
        recruiterTeamOf(requireAuth(request)),
        {
          live_event_id: b.live_event_id,
          title: b.title,
          essential_skills: b.essential_skills,
          bonus_skills: b.bonus_skills ?? [],
          experience_min: b.experience_min ?? 0,
          salary_min: b.salary_min ?? null,
          salary_max: b.salary_max ?? null,
          location: b.location ?? null,
          remote_preference: b.remote_preference ?? null,
        },
        request.operationKey,
      );
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
      querystring: paginationQuerySchema().extend({
        live_event_id: z.uuid().optional(),
        status: z.enum(JOB_STATUSES).optional(),
      }),
      response: { 200: pageSchema(teamJobSchema) },
    },
    handler: async (request) =>
      mapPage(await service.list(recruiterTeamOf(requireAuth(request)), request.query), toTeamJob),
  });

  app.get('/jobs/:jobId', {
    config: { scope: 'jobs:read', rateClass: 'read' },
    schema: {
      operationId: 'getTeamJob',
      tags: ['jobs'],
      summary: "One of the team's jobs",
      description: "Another team's job → 404.",
      params: jobParams,
      response: { 200: jobEnvelope },
    },
    handler: async (request) => ({
      job: toTeamJob(await service.get(recruiterTeamOf(requireAuth(request)), request.params.jobId)),
    }),
  });

  app.patch('/jobs/:jobId', {
    config: { scope: 'jobs:write', rateClass: 'write' },
    schema: {
      operationId: 'updateTeamJob',
      tags: ['jobs'],
      summary: 'Edit a job',
      description:
        'A closed job → 409 JOB_CLOSED. The salary range is checked against the stored values (400 VALIDATION).',
      params: jobParams,
      body: updateJobBodySchema,
      response: { 200: jobEnvelope },
    },
    handler: async (request) => ({
      job: toTeamJob(await service.update(recruiterTeamOf(requireAuth(request)), request.params.jobId, request.body)),
    }),
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
    handler: async (request) => ({
      job: toTeamJob(await service.close(recruiterTeamOf(requireAuth(request)), request.params.jobId)),
    }),
  });
};
export default jobsRoutes;
