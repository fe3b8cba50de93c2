import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { mapPage, pageSchema, paginationQuerySchema } from '../plugins/pagination';
import { recruiterTeamOf } from './events-service';
import { type LiveEventWithStats } from '#db/events/events-repository';
import { LIVE_EVENT_STATUSES, type LiveEventTransition } from '#workflows/events/contract';
import { eventJoinUrl } from '../plugins/join-urls';
import {
  teamLiveEventSchema,
  createEventBodySchema,
  updateEventBodySchema,
  eventParams,
  eventEnvelope,
} from './events-schemas';

const TRANSITIONS: Array<{
  path: string;
  transition: LiveEventTransition;
  operationId: string;
  summary: string;
  description: string;
}> = [
  {
    path: 'go-live',
    transition: 'goLive',
    operationId: 'goLiveEvent',
    summary: 'Take an event live',
    description:
      'draft → live (sets started_at, and ends_at from planned_end_at). Starts the ' +
      '`live-event:<id>` workflow (update-with-start). Already live → 200, no change. Paused → ' +
      '409 ILLEGAL_TRANSITION (use resume). Ended → 409 EVENT_ALREADY_ENDED.',
  },
  {
    path: 'pause',
    transition: 'pause',
    operationId: 'pauseEvent',
    summary: 'Pause a live event',
    description:
      'live → paused: still listed publicly, its jobs leave the job search. Already paused → ' +
      '200, no change. Draft → 409 EVENT_NOT_LIVE. Ended → 409 EVENT_ALREADY_ENDED.',
  },
  {
    path: 'resume',
    transition: 'resume',
    operationId: 'resumeEvent',
    summary: 'Resume a paused event',
    description:
      'paused → live. Already live → 200, no change. Draft → 409 EVENT_NOT_LIVE. Ended → 409 EVENT_ALREADY_ENDED.',
  },
  {
    path: 'end',
    transition: 'end',
    operationId: 'endEvent',
    summary: 'End an event',
    description:
      'live or paused → ended (sets ended_at; ends_at becomes the actual end). Drains the event: ' +
      'every waiting queue entry for it ends as `expired` with end_reason "event ended". Already ' +
      'ended → 200, no change. Draft → 409 EVENT_NOT_LIVE.',
  },
];

/**
 * Recruiter side of live events. Paths: `POST /live-events` creates; the team's own events are
 * under `/team/live-events` (because `GET /live-events` is the public list); transitions are
 * `POST /live-events/{eventId}/{go-live|pause|resume|end}`.
 */
const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.events.liveEvents;
  const base = app.config.publicBaseUrl;
  const toTeamEvent = (e: LiveEventWithStats): z.output<typeof teamLiveEventSchema> => ({
    id: e.id,
    slug: e.slug,
    status: e.status,
    visibility: e.visibility,
    company_name: e.company_name,
    logo_url: e.logo_url,
    accent_color: e.accent_color,
    headline: e.headline,
    description: e.description,
    planned_start_at: e.planned_start_at?.toISOString() ?? null,
    planned_end_at: e.planned_end_at?.toISOString() ?? null,
    started_at: e.started_at?.toISOString() ?? null,
    ends_at: e.ends_at?.toISOString() ?? null,
    ended_at: e.ended_at?.toISOString() ?? null,
    interview_slots: e.interview_slots,
    candidates_joined: e.candidates_joined,
    matches_made: e.matches_made,
    job_titles: e.job_titles,
    join_url: eventJoinUrl(base, e.slug),
    created_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
  });

  app.post('/live-events', {
    config: { scope: 'events:write', rateClass: 'write' },
    schema: {
      operationId: 'createLiveEvent',
      tags: ['events'],
      summary: 'Create a draft event',
      description:
        "Creates a `draft` event of the caller's team. Slug taken → 409 SLUG_TAKEN. planned_end_at " +
        'not after planned_start_at → 400 VALIDATION.',
      body: createEventBodySchema,
      response: { 201: eventEnvelope },
    },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const event = await service.create(recruiterTeamOf(auth), auth.userId, request.body, request.operationKey);
      return reply.code(201).send({ event: toTeamEvent(event) });
    },
  });

  app.get('/team/live-events', {
    config: { scope: 'events:read', rateClass: 'read' },
    schema: {
      operationId: 'listTeamLiveEvents',
      tags: ['events'],
      summary: "The team's events, paginated",
      description: 'Every status, newest first; optional `status` filter.',
      querystring: paginationQuerySchema().extend({ status: z.enum(LIVE_EVENT_STATUSES).optional() }),
      response: { 200: pageSchema(teamLiveEventSchema) },
    },
    handler: async (request) =>
      mapPage(await service.list(recruiterTeamOf(requireAuth(request)), request.query), toTeamEvent),
  });

  app.get('/team/live-events/:eventId', {
    config: { scope: 'events:read', rateClass: 'read' },
    schema: {
      operationId: 'getTeamLiveEvent',
      tags: ['events'],
      summary: "One of the team's events",
      description: "Another team's event → 404.",
      params: eventParams,
      response: { 200: eventEnvelope },
    },
    handler: async (request) => ({
      event: toTeamEvent(await service.get(recruiterTeamOf(requireAuth(request)), request.params.eventId)),
    }),
  });

  app.patch('/team/live-events/:eventId', {
    config: { scope: 'events:write', rateClass: 'write' },
    schema: {
      operationId: 'updateTeamLiveEvent',
      tags: ['events'],
      summary: "Edit an event's description",
      description:
        'Descriptive fields only (the status moves through go-live/pause/resume/end). Ended → 409 ' +
        'EVENT_ALREADY_ENDED; slug after go-live → 409 EVENT_SLUG_LOCKED; slug taken → 409 ' +
        'SLUG_TAKEN. Moving planned_end_at of a live or paused event moves its ends_at.',
      params: eventParams,
      body: updateEventBodySchema,
      response: { 200: eventEnvelope },
    },
    handler: async (request) => ({
      event: toTeamEvent(
        await service.update(recruiterTeamOf(requireAuth(request)), request.params.eventId, request.body),
      ),
    }),
  });

  for (const t of TRANSITIONS) {
    app.post(`/live-events/:eventId/${t.path}`, {
      config: { scope: 'events:write', rateClass: 'write' },
      schema: {
        operationId: t.operationId,
        tags: ['events'],
        summary: t.summary,
        description:
          `${t.description} Illegal moves are refused synchronously by the workflow's validator; the ` +
          `409 carries details.status (current) and details.transition.`,
        params: eventParams,
        response: { 200: eventEnvelope },
      },
      handler: async (request) => {
        const auth = requireAuth(request);
        return {
          event: toTeamEvent(
            await service.transition(recruiterTeamOf(auth), auth.userId, request.params.eventId, t.transition),
          ),
        };
      },
    });
  }
};
export default eventsRoutes;
