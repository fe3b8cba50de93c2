import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { isoDateTime } from '../plugins/http-schemas';
import { mapPage, pageSchema, paginationQuerySchema } from '../plugins/pagination';
import { recruiterTeamOf } from './events-service';
import type { CandidateMatchRow, CandidateNoteRow, CandidateRow } from '../../../../db/events/candidates-repository';
import { iso } from '../../../../lib/dates';

const noteSchema = z
  .object({
    note: z.string(),
    rating: z.number().int().min(1).max(5).nullable(),
    updated_at: isoDateTime,
  })
  .meta({ id: 'CandidateNote' });

export const candidateSchema = z
  .object({
    user_id: z.uuid(),
    full_name: z.string(),
    title: z.string().nullable(),
    summary: z.string().nullable(),
    skills: z.array(z.string()),
    experience_years: z.number().int().nullable(),
    location: z.string().nullable(),
    remote_preference: z.string().nullable(),
    first_seen_at: isoDateTime.describe("First contact with the team: first queue entry for one of its events, or first match"),
    last_seen_at: isoDateTime,
    event_slugs: z.array(z.string()).describe("The team's events whose queue the seeker joined"),
    matches_count: z.number().int().describe("Matches with the team's jobs"),
    note: noteSchema.nullable().describe("The team's private note and rating"),
  })
  .meta({ id: 'Candidate' });

const candidateMatchSchema = z
  .object({
    id: z.uuid(),
    status: z.string(),
    match_score: z.number().nullable(),
    job_id: z.uuid(),
    job_title: z.string(),
    event_slug: z.string(),
    created_at: isoDateTime,
    expires_at: isoDateTime.nullable(),
    accepted_at: isoDateTime.nullable(),
    declined_at: isoDateTime.nullable(),
    completed_at: isoDateTime.nullable(),
  })
  .meta({ id: 'CandidateMatch' });

const userParams = z.object({ userId: z.uuid() });

const toCandidate = (c: CandidateRow): z.output<typeof candidateSchema> => ({
  user_id: c.id,
  full_name: c.full_name ?? c.display_name,
  title: c.title,
  summary: c.summary,
  skills: c.skills ?? [],
  experience_years: c.experience_years,
  location: c.location,
  remote_preference: c.remote_preference,
  first_seen_at: c.created_at.toISOString(),
  last_seen_at: c.last_seen_at.toISOString(),
  event_slugs: c.event_slugs,
  matches_count: c.matches_count,
  note: c.note_updated_at ? { note: c.note ?? '', rating: c.rating, updated_at: c.note_updated_at.toISOString() } : null,
});
const toMatch = (m: CandidateMatchRow): z.output<typeof candidateMatchSchema> => ({
  id: m.id,
  status: m.status,
  match_score: m.match_score,
  job_id: m.job_id,
  job_title: m.job_title,
  event_slug: m.event_slug,
  created_at: m.created_at.toISOString(),
  expires_at: iso(m.expires_at),
  accepted_at: iso(m.accepted_at),
  declined_at: iso(m.declined_at),
  completed_at: iso(m.completed_at),
});
const toNote = (n: CandidateNoteRow): z.output<typeof noteSchema> => ({ note: n.note, rating: n.rating, updated_at: n.updated_at.toISOString() });

/** Body of PUT /candidates/{userId}/note (also validates the web console's note form). */
export const candidateNoteBodySchema = z
  .strictObject({
    note: z.string().trim().max(5000),
    rating: z.number().int().min(1).max(5).nullable().optional(),
  })
  .meta({ id: 'CandidateNotePut' });

/** The team's candidates: seekers who joined its events' queues or matched its jobs. */
const candidatesRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.events.candidates;

  app.get('/candidates', {
    config: { scope: 'candidates:read', rateClass: 'read' },
    schema: {
      operationId: 'listCandidates',
      tags: ['candidates'],
      summary: "The team's candidates, paginated",
      description: 'Seekers who joined the queue of one of the team\'s events or were matched with one of its jobs, newest first contact first, with profile summary and the team\'s note.',
      querystring: paginationQuerySchema(),
      response: { 200: pageSchema(candidateSchema) },
    },
    handler: async (request) => mapPage(await service.list(recruiterTeamOf(requireAuth(request)), request.query), toCandidate),
  });

  app.get('/candidates/:userId', {
    config: { scope: 'candidates:read', rateClass: 'read' },
    schema: {
      operationId: 'getCandidate',
      tags: ['candidates'],
      summary: 'One candidate with their match history with the team',
      description: 'A seeker with no contact with the team → 404. `matches`: the 50 most recent matches with the team\'s jobs.',
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
      const n = await service.putNote(recruiterTeamOf(auth), auth.userId, request.params.userId, { note: request.body.note, rating: request.body.rating ?? null });
      return { note: toNote(n) };
    },
  });
};
export default candidatesRoutes;
