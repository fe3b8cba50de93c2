import { getExternalWorkflowHandle, log } from '@temporalio/workflow';
import { domainEventId } from './contract';
import { emitDomainEvent, kickMatchmaker } from './match-proxies';
import type { MatchRun } from './match-run';
import { queueEntryWorkflowId, matchClosedSignal, type MatchClosedSignalInput } from '../queue/contract';

/**
 * The side effects of a match's transitions, each once: on acceptance `match.accepted` and the
 * queue entry finishes; on decline/expiry the queue entry goes back to waiting (or ends `left`);
 * on completion `interview.completed`; on a no-show `match.no_show`. A freed interview slot wakes
 * the matchmaker.
 */
export interface MatchEffects {
  /** Emits a domain event of this match (its id derives from the match and the type). */
  emit(type: string, data: Record<string, unknown>): Promise<unknown>;
  /** Runs each side effect once, whatever transitions happened between two projections. */
  run(): Promise<void>;
}

export function createMatchEffects(run: MatchRun): MatchEffects {
  const { state, input, done } = run;
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
  const tellQueueEntry = async (outcome: MatchClosedSignalInput['outcome'], leaveQueue = false) => {
    try {
      await getExternalWorkflowHandle(queueEntryWorkflowId(state.seekerUserId)).signal(matchClosedSignal, {
        matchId: state.matchId,
        outcome,
        ...(leaveQueue ? { leaveQueue: true } : {}),
      });
    } catch (err) {
      // The entry's run is gone (it only closes on its own terms): nothing waits for this answer.
      log.warn(`match ${state.matchId}: queue entry of ${state.seekerUserId} could not be told (${outcome})`, {
        error: String(err),
      });
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
  /** Who interviews: the recruiter who accepted; with the team's auto-accept, the one it was offered to. */
  const interviewerId = (): string | null =>
    state.recruiterAcceptedBy ?? (state.recruiterAutoAccepted ? (input.offeredToUserId ?? null) : null);
  const startedAtMs = (): number | null => state.interviewStartedAtMs ?? state.acceptedAtMs;
  const iso = (ms: number) => new Date(ms).toISOString();

  const effects = async () => {
    if (state.acceptedAtMs !== null && !done.accepted) {
      done.accepted = true;
      await tellQueueEntry('accepted');
      run.notify('accepted');
      await emit('match.accepted', {
        match_id: state.matchId,
        job_id: state.jobId,
        role_title: input.jobTitle,
        live_event_slug: state.liveEventSlug,
        accepted_at: iso(state.acceptedAtMs),
        recruiter_auto_accepted: state.recruiterAutoAccepted,
        // The interviewer: whoever of the team accepted (decision 0244); null when unknown (an
        // auto-accepted match at an event without recruiter availability).
        recruiter_user_id: interviewerId(),
      });
    }
    if ((state.status === 'declined' || state.status === 'expired') && !done.closed) {
      done.closed = true;
      await tellQueueEntry(state.status, state.status === 'declined' && state.declineLeftQueue === true);
      run.notify(state.status);
      await kick();
    }
    if (state.status === 'completed' && !done.completed) {
      done.completed = true;
      const started = startedAtMs();
      await emit('interview.completed', {
        match_id: state.matchId,
        job_id: state.jobId,
        role_title: input.jobTitle,
        live_event_slug: state.liveEventSlug,
        completed_at: iso(state.completedAtMs ?? Date.now()),
        // Safe to share with both sides' subscribers (docs/design/webhooks.md): who ended it and how long
        // it ran; never the report card, which is the recruiter's.
        ended_by:
          state.completedBy === null ? 'time_limit' : state.completedBy === state.seekerUserId ? 'seeker' : 'recruiter',
        // The interview started when both were in the room; without that moment (a hosted
        // provider's room, or they never met) the room's opening at acceptance is the start.
        started_at: started !== null ? iso(started) : null,
        duration_seconds:
          started !== null && state.completedAtMs !== null
            ? Math.max(0, Math.round((state.completedAtMs - started) / 1000))
            : null,
      });
      await kick();
    }
    if (state.status === 'no_show' && !done.noShow) {
      done.noShow = true;
      // Never an interview: no interview.completed, no report card; the slot is free again.
      run.notify('no_show');
      await emit('match.no_show', {
        match_id: state.matchId,
        job_id: state.jobId,
        role_title: input.jobTitle,
        live_event_slug: state.liveEventSlug,
        accepted_at: state.acceptedAtMs !== null ? iso(state.acceptedAtMs) : null,
        no_show_at: iso(state.noShowAtMs ?? Date.now()),
        missing: state.noShowMissing ?? 'both',
      });
      await kick();
    }
  };
  return { emit, run: effects };
}
