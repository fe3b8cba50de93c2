import { log, patched, setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import {
  MATCH_NOTICES_PATCH,
  type InterviewReportedSignalInput,
  type MatchInput,
  type MatchNoticeKind,
  type MatchState,
  type MatchStatus,
} from './contract';
import { notifyMatchParties, projectMatch } from './match-proxies';
import { JobfairEntity, JobfairEventSlug, JobfairStatus, JobfairTeamId, JobfairUserId } from '../shared/contract';
import { createProjection, type Projection } from '../shared/projection';
import { matchDetails } from '../shared/details';

/**
 * What every phase of one match run shares: the input, the state (projected to PostgreSQL on every
 * transition), the side effects already done, and the e-mail notices in flight.
 */
export interface MatchRun {
  readonly input: MatchInput;
  readonly state: MatchState;
  readonly projection: Projection;
  /** Each side effect runs once, whatever transitions happened between two projections. */
  readonly done: { accepted: boolean; closed: boolean; completed: boolean; reminded: boolean; noShow: boolean };
  /** The no-show grace time of this run (0 = none); set once the settings are loaded, behind its patch. */
  noShowGraceMs: number;
  /** The recruiter's report card outcome, once reported after the interview. */
  reported: InterviewReportedSignalInput['outcome'] | null;
  /** The e-mail notices sent so far; the run waits for them at its end. */
  readonly notices: Array<Promise<unknown>>;
  /** Both sides are told by e-mail (patched in: runs started before it send none). */
  notify(kind: MatchNoticeKind): void;
  /** Moves to `status` and marks the state for projection. */
  transition(status: MatchStatus): void;
  /** Both sides have accepted: the match becomes `accepted` and the room opens. */
  maybeAccepted(): void;
}

/** The state of a match when its run starts: `matched`, open until the acceptance window closes. */
export function initialMatchState(input: MatchInput): MatchState {
  return {
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
    interviewStartedAtMs: null,
    declinedAtMs: null,
    declinedBy: null,
    declinedByRole: null,
    declineReason: null,
    declineReasonCode: null,
    expiredAtMs: null,
    completedAtMs: null,
    completedBy: null,
    seekerInRoomAtMs: null,
    recruiterInRoomAtMs: null,
    arriveByMs: null,
    noShowAtMs: null,
    noShowMissing: null,
  };
}

export function createMatchRun(input: MatchInput): MatchRun {
  const state = initialMatchState(input);
  const notices: Array<Promise<unknown>> = [];
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
      input: {
        matchScore: input.matchScore,
        scoreVersion: input.scoreVersion,
        scoreBreakdown: input.scoreBreakdown,
        seekerViaAgent: input.seekerViaAgent,
        seekerAgentIdentity: input.seekerAgentIdentity,
      },
    });
  });
  const run: MatchRun = {
    input,
    state,
    projection,
    done: { accepted: false, closed: false, completed: false, reminded: false, noShow: false },
    noShowGraceMs: 0,
    reported: null,
    notices,
    notify(kind) {
      if (!patched(MATCH_NOTICES_PATCH)) return;
      notices.push(
        notifyMatchParties({ matchId: state.matchId, kind }).catch((err) => {
          // The outbox keeps what could not be sent (status failed, last_error); the match goes on.
          log.warn(`match ${state.matchId}: ${kind} notice not delivered`, { error: String(err) });
        }),
      );
    },
    transition(status) {
      log.info(`match ${state.matchId}: ${state.status} → ${status}`, { matchId: state.matchId });
      state.status = status;
      projection.changed();
    },
    maybeAccepted() {
      if (state.status === 'matched' && state.seekerAcceptedAtMs !== null && state.recruiterAcceptedAtMs !== null) {
        const now = Date.now();
        state.acceptedAtMs = now;
        state.interviewEndsAtMs = now + input.interviewLengthMs;
        if (run.noShowGraceMs > 0) state.arriveByMs = now + run.noShowGraceMs;
        run.transition('accepted');
      }
    },
  };
  return run;
}
