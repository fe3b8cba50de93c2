import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { mapPage, pageSchema, paginationQuerySchema } from '../plugins/pagination';
import { recruiterTeamOf } from './events-service';
import {
  noteSchema,
  candidateSchema,
  candidateMatchSchema,
  userParams,
  toCandidate,
  toMatch,
  toNote,
  candidateNoteBodySchema,
} from './candidates-schemas';

/** The team's candidates: seekers who joined its events' queues or matched its jobs. */
const candidatesRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.events.candidates;

  app.get('/candidates', {
    config: { scope: 'candidates:read', rateClass: 'read' },
    schema: {
      operationId: 'listCandidates',
      tags: ['candidates'],
      summary: "The team's candidates, paginated",
      description:
        "Seekers who joined the queue of one of the team's events or were matched with one of its " +
        "jobs, newest first contact first, with profile summary and the team's note.",
      querystring: paginationQuerySchema(),
      response: { 200: pageSchema(candidateSchema) },
    },
    handler: async (request) =>
      mapPage(await service.list(recruiterTeamOf(requireAuth(request)), request.query), toCandidate),
  });

  app.get('/candidates/:userId', {
    config: { scope: 'candidates:read', rateClass: 'read' },
    schema: {
      operationId: 'getCandidate',
      tags: ['candidates'],
      summary: 'One candidate with their match history with the team',
      description:
        "A seeker with no contact with the team → 404. `matches`: the 50 most recent matches with the team's jobs.",
      params: userParams,
      response: { 200: z.object({ candidate: candidateSchema, matches: z.array(candidateMatchSchema) }) },
    },
    handler: async (request) => {
      const d = await service.get(recruiterTeamOf(requireAuth(request)), request.params.userId);
      return { candidate: toCandidate(d.candidate), matches: d.matches.map(toMatch) };
    },
  });

  app.put('/candidates/:userId/note', {
    config: { scope: 'candidates:write', rateClass: 'write' },
    schema: {
      operationId: 'putCandidateNote',
      tags: ['candidates'],
      summary: "Set the team's note and rating on a candidate",
      description: 'Replaces the note and rating (1–5; omit or null for none). Seen only by the team.',
      params: userParams,
      body: candidateNoteBodySchema,
      response: { 200: z.object({ note: noteSchema }) },
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const n = await service.putNote(recruiterTeamOf(auth), auth.userId, request.params.userId, {
        note: request.body.note,
        rating: request.body.rating ?? null,
      });
      return { note: toNote(n) };
    },
  });
};
export default candidatesRoutes;
