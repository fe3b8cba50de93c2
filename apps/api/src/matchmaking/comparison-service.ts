import { ForbiddenError, NotFoundError, OnboardingIncompleteError } from '#lib/errors';
import type { ServiceDeps } from '../plugins/service-deps';
import { eventFloorOf, floorFor } from '#domain/matchmaking/match-floor';
import { comparisonProviderFromConfig, type ComparisonProvider, type ComparisonResult } from './comparison-provider';
import { jobForScore, seekerForScore } from '#domain/matchmaking/score-inputs';

/** POST /jobs/{id}/comparison: the caller's profile against one publicly visible open job. */
export function createComparisonService(deps: ServiceDeps & { provider?: ComparisonProvider }) {
  const provider = deps.provider ?? comparisonProviderFromConfig(deps.config);
  const { accounts, profiles, jobs, availability } = deps.repos;
  return {
    provider,
    async compare(userId: string, jobId: string): Promise<{ jobId: string; result: ComparisonResult }> {
      const user = await accounts.findUserById(userId);
      if (user?.role !== 'seeker')
        throw new ForbiddenError(
          'The comparison is for job seekers: it compares your seeker profile with a job',
          'ROLE_NOT_ALLOWED',
        );
      const profile = await profiles.findByUserId(userId);
      if (!profile) throw new OnboardingIncompleteError(deps.config.publicBaseUrl, 'comparing yourself with a job');
      const job = await jobs.findPublicById(jobId);
      if (!job) throw new NotFoundError('job', jobId);
      // The floor a seeker joining now would meet at the job's event (bracket 0), as a match's score carries it.
      const floor = floorFor(
        eventFloorOf(
          (await availability.findFloor(job.live_event_id)) ?? { match_min_score: null, match_require_essential: null },
          deps.config.MATCH_MIN_SCORE,
        ),
        0,
        deps.config.MATCH_FLOOR_BRACKETS,
      );
      const result = await provider.compare({
        floor,
        seeker: {
          ...seekerForScore(profile),
          title: profile.title,
          summary: profile.summary,
        },
        job: {
          ...jobForScore(job),
          title: job.title,
          companyName: job.company_name,
        },
      });
      return { jobId: job.id, result };
    },
  };
}
export type ComparisonService = ReturnType<typeof createComparisonService>;
