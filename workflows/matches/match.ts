import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  getExternalWorkflowHandle,
  log,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { acceptMatchUpdate, declineMatchUpdate, interviewCompletedSignal, matchStateQuery, MATCH_NOT_ACCEPTABLE, MATCH_NOT_DECLINABLE, domainEventId, type AcceptMatchInput, type DeclineMatchInput, type InterviewCompletedSignalInput, type MatchInput, type MatchResult, type MatchState, type MatchStatus, type MatchUpdateResult } from './contract';
import type { createMatchesActivities } from '../../activities/matches/matches-activities';
import type { createMatchmakingActivities } from '../../activities/matchmaking/matchmaking-activities';
import type { createDomainEventsActivities } from '../../activities/webhooks/domain-events';
import { queueEntryWorkflowId, matchClosedSignal, type MatchClosedSignalInput } from '../queue/contract';
import { JobfairEntity, JobfairEventSlug, JobfairStatus, JobfairTeamId, JobfairUserId } from '../shared/contract';
import { createProjection } from '../shared/projection';
import { matchDetails } from '../shared/details';


// Short PostgreSQL reads/writes: local activities, so an accept or decline answers in one workflow task.
const { projectMatch, loadMatchSettings } = proxyLocalActivities<ReturnType<typeof createMatchesActivities>>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 ms', maximumInterval: '10 seconds' },
});
const { emitDomainEvent } = proxyActivities<ReturnType<typeof createDomainEventsActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 ms', maximumInterval: '30 seconds' },
});
const { kickMatchmaker } = proxyActivities<ReturnType<typeof createMatchmakingActivities>>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 ms', maximumInterval: '10 seconds', maximumAttempts: 10 },
});

/**
 * One match between a seeker and a job, `match:<matchId>`, started by the matchmaker once the
 * seeker's queue entry accepted the offer. It owns the match's lifecycle; PostgreSQL holds the
 * projection written by `projectMatch` on every transition (before an Update answers).
 *
 * Side effects, each once: `match.matched` at start; on acceptance `match.accepted` and the queue
 * entry finishes; on decline/expiry the queue entry goes back to waiting; on completion
 * `interview.completed`. A freed interview slot wakes the matchmaker.
 */
export async function matchWorkflow(input: MatchInput): Promise<MatchResult> {
  const state: MatchState = {
    matchId: input.matchId,
    status: 'matched',
    queueEntryId: input.queueEntryId,
    seekerUserId: input.seekerUserId,
    teamId: input.teamId,
    jobId: input.jobId,
    liveEventId: input.liveEventId,
    liveEventSlug: input.liveEventSlug,
    createdAtMs: input.createdAtMs,
    expiresAtMs: input.createdAtMs + input.acceptWindowMs,
    seekerAcceptedAtMs: null,
    recruiterAcceptedAtMs: null,
    recruiterAcceptedBy: null,
    recruiterAutoAccepted: false,
    acceptedAtMs: null,
    interviewEndsAtMs: null,
    declinedAtMs: null,
    declinedBy: null,
    declinedByRole: null,
    declineReason: null,
    expiredAtMs: null,
    completedAtMs: null,
    completedBy: null,
  };
  const done = { accepted: false, closed: false, completed: false };

  const projection = createProjection(() => {
    setCurrentDetails(matchDetails(state, input.jobTitle));
    upsertSearchAttributes([
      { key: JobfairEntity, value: 'match' },
      { key: JobfairStatus, value: state.status },
      { key: JobfairUserId, value: state.seekerUserId },
      { key: JobfairTeamId, value: state.teamId },
      { key: JobfairEventSlug, value: state.liveEventSlug },
    ]);
    return projectMatch({
      state: { ...state },
      input: { matchScore: input.matchScore, scoreVersion: input.scoreVersion, scoreBreakdown: input.scoreBreakdown, seekerViaAgent: input.seekerViaAgent, seekerAgentIdentity: input.seekerAgentIdentity },
    });
  });
  const transition = (status: MatchStatus) => {
    log.info(`match ${state.matchId}: ${state.status} → ${status}`, { matchId: state.matchId });
    state.status = status;
    projection.changed();
  };
  const maybeAccepted = () => {
    if (state.status === 'matched' && state.seekerAcceptedAtMs !== null && state.recruiterAcceptedAtMs !== null) {
      const now = Date.now();
      state.acceptedAtMs = now;
      state.interviewEndsAtMs = now + input.interviewLengthMs;
      transition('accepted');
    }
  };

  setHandler(matchStateQuery, () => ({ ...state }));
  setHandler(
    acceptMatchUpdate,
    async ({ userId, role }: AcceptMatchInput): Promise<MatchUpdateResult> => {
      // An accept that raced the expiry or a decline in the same task is refused here.
      if (state.status !== 'matched') {
        if (state.status === 'accepted' || state.status === 'completed') return { state: { ...state } };
        throw ApplicationFailure.nonRetryable(`match ${state.matchId} is ${state.status}; it can no longer be accepted`, MATCH_NOT_ACCEPTABLE, { status: state.status });
      }
      if (role === 'seeker' && state.seekerAcceptedAtMs === null) {
        state.seekerAcceptedAtMs = Date.now();
        projection.changed();
      }
      if (role === 'recruiter' && state.recruiterAcceptedAtMs === null) {
        state.recruiterAcceptedAtMs = Date.now();
        state.recruiterAcceptedBy = userId;
        projection.changed();
      }
      maybeAccepted();
      await projection.projected();
      return { state: { ...state } };
    },
    {
      validator: ({ userId, role }: AcceptMatchInput) => {
        if (role === 'seeker' && userId !== state.seekerUserId) throw ApplicationFailure.nonRetryable(`user ${userId} is not the seeker of match ${state.matchId}`, MATCH_NOT_ACCEPTABLE);
        // Accepting an already accepted match again answers its state (a double click).
        if (state.status !== 'matched' && state.status !== 'accepted' && state.status !== 'completed') {
          throw ApplicationFailure.nonRetryable(`match ${state.matchId} is ${state.status}; it can no longer be accepted`, MATCH_NOT_ACCEPTABLE, { status: state.status });
        }
      },
    },
  );
  setHandler(
    declineMatchUpdate,
    async ({ userId, role, reason }: DeclineMatchInput): Promise<MatchUpdateResult> => {
      if (state.status !== 'matched') throw ApplicationFailure.nonRetryable(`match ${state.matchId} is ${state.status}; only a matched match can be declined`, MATCH_NOT_DECLINABLE, { status: state.status });
      state.declinedAtMs = Date.now();
      state.declinedBy = userId;
      state.declinedByRole = role;
      state.declineReason = reason;
      transition('declined');
      await projection.projected();
      return { state: { ...state } };
    },
    {
      validator: ({ userId, role }: DeclineMatchInput) => {
        if (role === 'seeker' && userId !== state.seekerUserId) throw ApplicationFailure.nonRetryable(`user ${userId} is not the seeker of match ${state.matchId}`, MATCH_NOT_DECLINABLE);
        if (state.status !== 'matched') throw ApplicationFailure.nonRetryable(`match ${state.matchId} is ${state.status}; only a matched match can be declined`, MATCH_NOT_DECLINABLE, { status: state.status });
      },
    },
  );
  setHandler(interviewCompletedSignal, ({ userId }: InterviewCompletedSignalInput) => {
    if (state.status !== 'accepted') return;
    state.completedAtMs = Date.now();
    state.completedBy = userId;
    transition('completed');
  });

  const emit = (type: string, data: Record<string, unknown>) =>
    emitDomainEvent({
      id: domainEventId(state.matchId, type),
      type,
      // The recruiters' side is the team (a recruiter with a team subscribes as the team), so a
      // recruiter who has left the team stops receiving its events; the seeker is the other owner.
      ownerUserIds: [state.seekerUserId],
      ownerTeamId: state.teamId,
      data,
      createdAtMs: Date.now(),
    });
  const tellQueueEntry = async (outcome: MatchClosedSignalInput['outcome']) => {
    try {
      await getExternalWorkflowHandle(queueEntryWorkflowId(state.seekerUserId)).signal(matchClosedSignal, { matchId: state.matchId, outcome });
    } catch (err) {
      // The entry's run is gone (it only closes on its own terms): nothing waits for this answer.
      log.warn(`match ${state.matchId}: queue entry of ${state.seekerUserId} could not be told (${outcome})`, { error: String(err) });
    }
  };
  const kick = async () => {
    try {
      await kickMatchmaker({ reason: 'slot_freed' });
    } catch (err) {
      // The matchmaker's idle poll finds the free slot anyway; a lost kick only delays it.
      log.warn(`match ${state.matchId}: matchmaker kick failed`, { error: String(err) });
    }
  };
  /** Runs each side effect once, whatever transitions happened between two projections. */
  const effects = async () => {
    if (state.acceptedAtMs !== null && !done.accepted) {
      done.accepted = true;
      await tellQueueEntry('accepted');
      await emit('match.accepted', {
        match_id: state.matchId,
        job_id: state.jobId,
        role_title: input.jobTitle,
        live_event_slug: state.liveEventSlug,
        accepted_at: new Date(state.acceptedAtMs).toISOString(),
        recruiter_auto_accepted: state.recruiterAutoAccepted,
      });
    }
    if ((state.status === 'declined' || state.status === 'expired') && !done.closed) {
      done.closed = true;
      await tellQueueEntry(state.status);
      await kick();
    }
    if (state.status === 'completed' && !done.completed) {
      done.completed = true;
      await emit('interview.completed', {
        match_id: state.matchId,
        job_id: state.jobId,
        role_title: input.jobTitle,
        live_event_slug: state.liveEventSlug,
        completed_at: new Date(state.completedAtMs ?? Date.now()).toISOString(),
      });
      await kick();
    }
  };

  const settings = await loadMatchSettings({ teamId: state.teamId });
  if (settings.autoAcceptRecruiter) {
    state.recruiterAcceptedAtMs = state.createdAtMs;
    state.recruiterAutoAccepted = true;
  }
  await projection.project();
  await emit('match.matched', { match_id: state.matchId, role_title: input.jobTitle, seeker_headline: input.seekerHeadline ?? '' });

  for (;;) {
    if (state.status === 'matched') {
      const remaining = state.expiresAtMs - Date.now();
      const changed = remaining > 0 && (await condition(projection.pending, remaining, { summary: 'acceptance window (expires_at)' }));
      if (!changed && state.status === 'matched') {
        state.expiredAtMs = Date.now();
        transition('expired');
      }
    } else if (state.status === 'accepted') {
      const remaining = (state.interviewEndsAtMs ?? 0) - Date.now();
      const changed = remaining > 0 && (await condition(projection.pending, remaining, { summary: 'interview length' }));
      if (!changed && state.status === 'accepted') {
        // The room closes after the interview length: the interview counts as completed.
        state.completedAtMs = Date.now();
        transition('completed');
      }
    } else if (!projection.pending()) {
      break;
    }
    await projection.project();
    await effects();
  }
  await condition(allHandlersFinished);
  return { ...state };
}
