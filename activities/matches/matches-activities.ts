import type { MatchesRepository } from '../../db/matches/matches-repository';
import type { SettingsRepository } from '../../db/accounts/settings-repository';
import type { LoadMatchSettingsInput, LoadMatchSettingsResult, ProjectMatchInput } from '../../workflows/matches/contract';
import { iso } from '../../lib/dates';

export type { LoadMatchSettingsInput, LoadMatchSettingsResult, ProjectMatchInput };
export type ProjectMatchResult = void;

export function createMatchesActivities(deps: { matchesRepository: MatchesRepository; settingsRepository: Pick<SettingsRepository, 'findTeamSettings'> }) {
  return {
    /** Writes the match workflow's state to PostgreSQL (idempotent upsert; the only writer of `matches`). */
    async projectMatch({ state, input }: ProjectMatchInput): Promise<ProjectMatchResult> {
      await deps.matchesRepository.upsert({
        id: state.matchId,
        status: state.status,
        seeker_user_id: state.seekerUserId,
        queue_entry_id: state.queueEntryId,
        job_id: state.jobId,
        team_id: state.teamId,
        live_event_id: state.liveEventId,
        live_event_slug: state.liveEventSlug,
        match_score: input.matchScore,
        score_breakdown: input.scoreBreakdown,
        score_version: input.scoreVersion,
        seeker_via_agent: input.seekerViaAgent,
        seeker_agent_identity: input.seekerAgentIdentity,
        expires_at: iso(state.expiresAtMs),
        seeker_accepted_at: iso(state.seekerAcceptedAtMs),
        recruiter_accepted_at: iso(state.recruiterAcceptedAtMs),
        recruiter_accepted_by: state.recruiterAcceptedBy,
        recruiter_auto_accepted: state.recruiterAutoAccepted,
        declined_at: iso(state.declinedAtMs),
        declined_by: state.declinedBy,
        declined_by_role: state.declinedByRole,
        decline_reason: state.declineReason,
        decline_reason_code: state.declineReasonCode ?? null,
        accepted_at: iso(state.acceptedAtMs),
        interview_ends_at: iso(state.interviewEndsAtMs),
        completed_at: iso(state.completedAtMs),
        completed_by: state.completedBy,
        expired_at: iso(state.expiredAtMs),
        created_at: new Date(state.createdAtMs).toISOString(),
      });
    },

    /** The team's match settings at the time the match is made (team setting `auto_accept_matches`, default false). */
    async loadMatchSettings({ teamId }: LoadMatchSettingsInput): Promise<LoadMatchSettingsResult> {
      const settings = await deps.settingsRepository.findTeamSettings(teamId);
      return { autoAcceptRecruiter: settings.auto_accept_matches === true };
    },
  };
}
