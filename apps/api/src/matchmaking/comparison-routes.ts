import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { jobComparisonSchema } from './comparison-schemas';

/** Identical comparisons by one token within a minute answer from the first one without cost. */
export const COMPARISON_COST_BUCKET_MS = 60_000;

const comparisonRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.matchmaking.comparison;
  app.post('/jobs/:jobId/comparison', {
    config: {
      scope: 'jobs:read',
      rateClass: 'cost',
      costBucketMs: COMPARISON_COST_BUCKET_MS,
      mcp: {
        name: 'svc_jobs_compare',
        readOnly: true,
        hint:
          'Cost-bearing (3/min): call once per job the human is seriously considering, after ' +
          'svc_jobs_search, to prepare them for the interview. Strengths, gaps and talking points ' +
          'may come from a model: present them as suggestions.',
      },
    },
    schema: {
      operationId: 'createJobComparison',
      tags: ['jobs'],
      summary: "How the caller's profile compares with a job: strengths, gaps, talking points",
      description:
        'For job seekers (others → 403 ROLE_NOT_ALLOWED; no profile → 409 ONBOARDING_INCOMPLETE) ' +
        'and open jobs of live or paused public events (else 404). No body; nothing is stored. ' +
        'With an AI provider configured the words come from that model (validated against a strict ' +
        'schema); without one from the explainable scorer (`provider: "builtin"`). Provider down ' +
        'or answering outside the schema → 503 DEPENDENCY_UNAVAILABLE with Retry-After.',
      params: z.object({ jobId: z.string().describe('Job id (from svc_jobs_search / GET /jobs/search)') }),
      response: { 200: z.object({ comparison: jobComparisonSchema }) },
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const { jobId, result } = await service.compare(auth.userId, request.params.jobId);
      return {
        comparison: {
          job_id: jobId,
          provider: result.provider,
          model: result.model,
          match_score: result.score.score,
          score_version: result.score.version,
          summary: result.summary,
          strengths: result.strengths,
          gaps: result.gaps,
          talking_points: result.talking_points,
          generated_at: new Date().toISOString(),
        },
      };
    },
  });
};
export default comparisonRoutes;
