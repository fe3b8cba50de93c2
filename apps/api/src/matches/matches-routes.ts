import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { errorEnvelopeSchema } from '../plugins/http-schemas';
import { type MatchView } from './matches-service';
import { iso } from '#lib/dates';
import {
  declineBodySchema,
  idParamsSchema,
  listMatchesQuerySchema,
  matchIdParamsSchema,
  matchSchema,
  roomUrlSchema,
} from './matches-schemas';
import { type DeclineReasonCode, type MatchPartyRole } from '#workflows/matches/contract';

/** Room URLs are bucketed per token and match for a minute: a replay returns the same URL and costs no quota. */
export const ROOM_URL_COST_BUCKET_MS = 60_000;

/** The Fastify instance a zod-typed plugin receives. */
type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/** A match as the API answers it (`details_url` is the web page a human accepts on). */
const toMatch = (app: ZodApp, { match: m, role }: MatchView): z.output<typeof matchSchema> => ({
  id: m.id,
  status: m.status,
  match_score: m.match_score,
  score_version: m.score_version,
  score_breakdown: (m.score_breakdown as Record<string, unknown> | null) ?? null,
  created_at: m.created_at.toISOString(),
  expires_at: iso(m.expires_at),
  role,
  job_id: m.job_id,
  job_title: m.job_title,
  live_event_slug: m.live_event_slug,
  seeker_accepted: m.seeker_accepted_at !== null,
  recruiter_accepted: m.recruiter_accepted_at !== null,
  accepted_at: iso(m.accepted_at),
  declined_at: iso(m.declined_at),
  declined_by_role: (m.declined_by_role as MatchPartyRole | null) ?? null,
  decline_reason: m.decline_reason,
  decline_reason_code: (m.decline_reason_code as DeclineReasonCode | null) ?? null,
  recruiter_user_id: m.recruiter_user_id,
  recruiter_name: m.recruiter_name,
  joined_via_agent: m.seeker_via_agent,
  details_url: `${app.config.publicBaseUrl}/matches/${m.id}`,
  no_show_missing: m.no_show_missing ?? null,
  no_show_at: iso(m.no_show_at),
});

/** GET /matches: the caller's recent matches. */
function listMatchesRoute(app: ZodApp): void {
  app.get('/matches', {
    config: { scope: 'matches:read', rateClass: 'read' },
    schema: {
      operationId: 'listMatches',
      tags: ['matches'],
      summary: "The caller's recent matches",
      description:
        'Up to 50 most recent matches, newest first (not paginated): a seeker sees their own, a ' +
        "recruiter those of their team's jobs; `role` is the caller's role. Accepting happens only " +
        'in the web application: hand `details_url` to the human.',
      querystring: listMatchesQuerySchema,
      response: { 200: z.object({ matches: z.array(matchSchema) }) },
    },
    handler: async (request) => {
      const views = await app.services.matches.list({
        userId: requireAuth(request).userId,
        limit: request.query.limit,
      });
      return { matches: views.map((v) => toMatch(app, v)) };
    },
  });
}

/** POST /matches/{id}/decline: a party declines a `matched` match. */
function declineMatchRoute(app: ZodApp): void {
  app.post('/matches/:matchId/decline', {
    config: { scope: 'matches:write', rateClass: 'write' },
    schema: {
      operationId: 'declineMatch',
      tags: ['matches'],
      summary: 'Decline a match',
      description:
        "Only a party of the match (the seeker, or a recruiter of the job's team; anyone else → " +
        '404) and only while it is `matched` (else 409 MATCH_NOT_DECLINABLE). The decision, the ' +
        'free-text reason and the optional `reason_code` (fixed vocabulary) are recorded and shown ' +
        "to the other party; the seeker's queue entry goes back to waiting in its original place " +
        '(same entered_at) and the seeker is never offered the same job again (any later entry ' +
        "included). A seeker's `salary` or `location` code lowers that score component's weight " +
        'for the rest of the entry (docs/match-score.md, v2). With `leave_queue: true` the seeker ' +
        'also leaves the queue: the entry ends `left` (never waiting in between, so no other match ' +
        'is offered) and the answer comes once it reads `left`; a recruiter sending it → 403 ' +
        "ROLE_NOT_ALLOWED. Once a recruiter accepted for the team, only they (the match's " +
        "`recruiter_user_id`, its interviewer) decline on the team's side: a teammate → 403 " +
        'MATCH_NOT_YOUR_INTERVIEW. Before any recruiter accepts, anyone of the team may decline.',
      params: matchIdParamsSchema,
      body: declineBodySchema,
      response: {
        200: z.object({ match: matchSchema }),
        403: errorEnvelopeSchema.describe(
          'ROLE_NOT_ALLOWED: `leave_queue` from a recruiter; MATCH_NOT_YOUR_INTERVIEW: another recruiter of the team accepted and decides',
        ),
        409: errorEnvelopeSchema.describe('MATCH_NOT_DECLINABLE: the match is no longer `matched` (details.status)'),
      },
    },
    handler: async (request) => {
      const view = await app.services.matches.decline({
        userId: requireAuth(request).userId,
        matchId: request.params.matchId,
        reason: request.body.reason,
        reasonCode: request.body.reason_code ?? null,
        leaveQueue: request.body.leave_queue === true,
      });
      return { match: toMatch(app, view) };
    },
  });
}

/** GET /matches/{id}/interview-room-url: the room URL of an accepted match (cost-bearing). */
function interviewRoomUrlRoute(app: ZodApp): void {
  app.get('/matches/:id/interview-room-url', {
    // The answer carries a signed room token: the bucketed answer is stored sealed.
    config: {
      scope: 'matches:read',
      rateClass: 'cost',
      costBucketMs: ROOM_URL_COST_BUCKET_MS,
      sensitiveResponse: true,
    },
    schema: {
      operationId: 'getInterviewRoomUrl',
      tags: ['matches'],
      summary: 'The interview room URL of an accepted match',
      description:
        'Cost-bearing (3/min per token; a repeat within the same minute for the same match returns ' +
        'the same answer and costs no quota). Only after both humans accepted in the web ' +
        'application: before that 409 MATCH_NOT_ACCEPTED; after the interview 409 ' +
        'MATCH_INTERVIEW_COMPLETED. The URL admits the calling party until `expires_at` (never ' +
        "past the interview's end). Video provider unreachable → 503 DEPENDENCY_UNAVAILABLE " +
        "(retry). On the team's side only the match's recruiter (`recruiter_user_id`: who accepted) " +
        'enters; a teammate → 403 MATCH_NOT_YOUR_INTERVIEW.',
      params: idParamsSchema,
      response: {
        200: roomUrlSchema,
        403: errorEnvelopeSchema.describe('MATCH_NOT_YOUR_INTERVIEW: another recruiter of the team interviews'),
        409: errorEnvelopeSchema.describe(
          'MATCH_NOT_ACCEPTED before both accepted; MATCH_INTERVIEW_COMPLETED after the interview',
        ),
      },
    },
    handler: async (request) => {
      const r = await app.services.matches.interviewRoomUrl({
        userId: requireAuth(request).userId,
        matchId: request.params.id,
      });
      return { room_url: r.roomUrl, expires_at: r.expiresAt.toISOString() };
    },
  });
}

const matchesRoutes: FastifyPluginAsyncZod = async (app) => {
  listMatchesRoute(app);
  declineMatchRoute(app);
  interviewRoomUrlRoute(app);
};
export default matchesRoutes;
