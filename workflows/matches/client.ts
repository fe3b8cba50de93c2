import type { Client } from '@temporalio/client';
import type { Config } from '../../lib/config';
import type { OfferContext } from '../../db/matchmaking/matchmaking-repository';
import {
  matchStartMetadata,
  matchWorkflowId,
  MATCH_WORKFLOW,
  type MatchInput,
  type MatchStartNames,
  type MatchWorkflow,
} from './contract';
import { JobfairEntity, JobfairEventSlug, JobfairStatus, JobfairTeamId, JobfairUserId } from '../shared/contract';

/** The names a match's start summary shows (not workflow input). */
export function matchStartNames(
  o: Pick<OfferContext, 'seeker_name' | 'company_name' | 'recruiter_name'>,
): MatchStartNames {
  return {
    seekerName: o.seeker_name ?? null,
    companyName: o.company_name ?? null,
    recruiterName: o.recruiter_name ?? null,
  };
}

/** The match workflow's input from the offer it is made from (the matchmaker's `match_offers` row with its joins). */
export function matchInputFromOffer(
  o: OfferContext,
  recruiterUserIds: string[],
  config: Pick<
    Config,
    'MATCH_ACCEPT_WINDOW_MS' | 'INTERVIEW_LENGTH_MS' | 'MATCH_NO_SHOW_GRACE_MS' | 'VIDEO_PROVIDER_URL'
  >,
): MatchInput {
  return {
    matchId: o.id,
    queueEntryId: o.queue_entry_id,
    seekerUserId: o.seeker_user_id,
    recruiterUserIds,
    offeredToUserId: o.recruiter_user_id ?? null,
    teamId: o.team_id,
    jobId: o.job_id,
    jobTitle: o.job_title,
    liveEventId: o.live_event_id,
    liveEventSlug: o.live_event_slug,
    seekerHeadline: o.seeker_headline,
    seekerViaAgent: o.seeker_via_agent,
    seekerAgentIdentity: o.seeker_agent_identity,
    matchScore: o.match_score,
    scoreVersion: o.score_version,
    scoreBreakdown: o.score_breakdown,
    createdAtMs: o.created_at.getTime(),
    acceptWindowMs: config.MATCH_ACCEPT_WINDOW_MS,
    interviewLengthMs: config.INTERVIEW_LENGTH_MS,
    // A hosted provider's room reports nobody's arrival: no no-show there.
    noShowGraceMs: config.VIDEO_PROVIDER_URL ? 0 : config.MATCH_NO_SHOW_GRACE_MS,
  };
}

/**
 * Starts `match:<id>` for an offer its queue entry has accepted, or finds the one running
 * (USE_EXISTING; REJECT_DUPLICATE: a closed match is never started again). One helper for the
 * matchmaker (right after the entry's answer) and the API (a decline or accept that arrives in the
 * few milliseconds between the entry saying `matched` and the matchmaker's start — the match row
 * exists from the entry's projection on, so the API must be able to act on it; decision 0120).
 */
export async function startMatchWorkflow(
  client: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
  input: MatchInput,
  names: MatchStartNames = { seekerName: null, companyName: null, recruiterName: null },
): Promise<void> {
  await client.workflow.start<MatchWorkflow>(MATCH_WORKFLOW, {
    workflowId: matchWorkflowId(input.matchId),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    ...matchStartMetadata(input, names),
    typedSearchAttributes: [
      { key: JobfairEntity, value: 'match' },
      { key: JobfairStatus, value: 'matched' },
      { key: JobfairUserId, value: input.seekerUserId },
      { key: JobfairTeamId, value: input.teamId },
      { key: JobfairEventSlug, value: input.liveEventSlug },
    ],
  });
}
