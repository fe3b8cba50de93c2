import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../plugins/auth';
import { recruiterTeamOf } from './events-service';
import {
  params,
  availabilityBodySchema,
  floorBodySchema,
  envelope,
  toMatchingSettings,
} from './matching-settings-schemas';

/** Matching settings of one of the team's events: recruiter availability (round-robin) and the quality floor. */
const matchingSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.events.matching;

  app.get('/team/live-events/:eventId/matching', {
    config: { scope: 'events:read', rateClass: 'read' },
    schema: {
      operationId: 'getEventMatchingSettings',
      tags: ['events'],
      summary: "An event's matching settings: recruiter availability and the quality floor",
      description: "Another team's event → 404.",
      params,
      response: { 200: envelope },
    },
    handler: async (request) => ({
      matching: toMatchingSettings(await service.get(recruiterTeamOf(requireAuth(request)), request.params.eventId)),
    }),
  });

  app.put('/team/live-events/:eventId/availability', {
    config: { scope: 'events:write', rateClass: 'write' },
    schema: {
      operationId: 'setMyAvailability',
      tags: ['events'],
      summary: "The caller's availability for interviews at one of the team's events",
      description:
        'Body `{ available, capacity? }` (capacity 1–50 concurrent interviews; default: the ' +
        'previous value, else 1). Once any recruiter of an event has set availability, its new ' +
        'offers go round-robin (least recent offer first) to available recruiters with room; each ' +
        'match names its recruiter (`recruiter_user_id`). Going unavailable stops new offers; open ' +
        "offers and matches stay. The event's interview_slots remains the cap.",
      params,
      body: availabilityBodySchema,
      response: { 200: envelope },
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      return {
        matching: toMatchingSettings(
          await service.setAvailability(recruiterTeamOf(auth), auth.userId, request.params.eventId, request.body),
        ),
      };
    },
  });

  app.patch('/team/live-events/:eventId/matching', {
    config: { scope: 'events:write', rateClass: 'write' },
    schema: {
      operationId: 'updateEventMatchingSettings',
      tags: ['events'],
      summary: "Set an event's quality floor",
      description:
        'Body `{ min_score?, require_essential?, relax_essential?, allow_remote_mismatch? }` (null = ' +
        'back to the default). The floor relaxes in the configured brackets as a seeker waits; the ' +
        "bracket used is part of each match's score_breakdown.floor. Whatever the bracket, a pair " +
        "sharing none of a job's essential skills is offered only with relax_essential, and a fully " +
        'remote seeker an on-site job only with allow_remote_mismatch. `floors` says what each ' +
        'bracket allows at this event.',
      params,
      body: floorBodySchema,
      response: { 200: envelope },
    },
    handler: async (request) => ({
      matching: toMatchingSettings(
        await service.setFloor(recruiterTeamOf(requireAuth(request)), request.params.eventId, request.body),
      ),
    }),
  });
};
export default matchingSettingsRoutes;
