import { ApplicationFailure, condition, patched, setHandler } from '@temporalio/workflow';
import {
  acceptMatchUpdate,
  declineMatchUpdate,
  matchStateQuery,
  MATCH_DECLINE_LEAVES_QUEUE_PATCH,
  MATCH_INTERVIEWER_PATCH,
  MATCH_NOT_ACCEPTABLE,
  MATCH_NOT_DECLINABLE,
  MATCH_NOTICES_PATCH,
  MATCH_RECRUITER_AT_CAPACITY,
  type AcceptMatchInput,
  type ClaimInterviewSlotResult,
  type DeclineMatchInput,
  type MatchState,
  type MatchUpdateResult,
} from './contract';
import { claimInterviewSlot } from './match-proxies';
import type { MatchRun } from './match-run';

/**
 * The answers phase: while the match is `matched`, each side accepts (Update `accept`) or declines
 * (Update `decline`) until the acceptance window closes; whoever has not answered is reminded
 * shortly before it does.
 */

const notAcceptable = (state: MatchState) =>
  ApplicationFailure.nonRetryable(
    `match ${state.matchId} is ${state.status}; it can no longer be accepted`,
    MATCH_NOT_ACCEPTABLE,
    { status: state.status },
  );
const expired = (state: MatchState) =>
  ApplicationFailure.nonRetryable(
    `match ${state.matchId} expired at ${new Date(state.expiresAtMs).toISOString()}; it can no longer be accepted`,
    MATCH_NOT_ACCEPTABLE,
    { status: 'expired' },
  );
const notDeclinable = (state: MatchState) =>
  ApplicationFailure.nonRetryable(
    `match ${state.matchId} is ${state.status}; only a matched match can be declined`,
    MATCH_NOT_DECLINABLE,
    { status: state.status },
  );
const stillAcceptable = (state: MatchState) =>
  state.status === 'matched' || state.status === 'accepted' || state.status === 'completed';

/** Registers the state query and the `accept` and `decline` updates. */
export function registerAnswerHandlers(run: MatchRun): void {
  const { state } = run;
  setHandler(matchStateQuery, () => ({ ...state }));
  registerAccept(run);
  setHandler(
    declineMatchUpdate,
    async ({ userId, role, reason, reasonCode, leaveQueue }: DeclineMatchInput): Promise<MatchUpdateResult> => {
      if (state.status !== 'matched') throw notDeclinable(state);
      state.declinedAtMs = Date.now();
      state.declinedBy = userId;
      state.declinedByRole = role;
      state.declineReason = reason;
      state.declineReasonCode = reasonCode ?? null;
      // The seeker leaves with the decline: the entry is told to end `left`, not to wait again.
      if (leaveQueue === true && role === 'seeker' && patched(MATCH_DECLINE_LEAVES_QUEUE_PATCH))
        state.declineLeftQueue = true;
      run.transition('declined');
      await run.projection.projected();
      return { state: { ...state } };
    },
    {
      validator: ({ userId, role, leaveQueue }: DeclineMatchInput) => {
        if (role === 'seeker' && userId !== state.seekerUserId)
          throw ApplicationFailure.nonRetryable(
            `user ${userId} is not the seeker of match ${state.matchId}`,
            MATCH_NOT_DECLINABLE,
          );
        if (leaveQueue === true && role !== 'seeker')
          throw ApplicationFailure.nonRetryable(
            `only the seeker of match ${state.matchId} can leave the queue with the decline`,
            MATCH_NOT_DECLINABLE,
            { status: state.status },
          );
        if (state.status !== 'matched') throw notDeclinable(state);
      },
    },
  );
}

function registerAccept(run: MatchRun): void {
  const { state, projection } = run;
  /** A recruiter's acceptance is claiming the interview slot (MATCH_INTERVIEWER_PATCH). */
  let claiming = false;
  setHandler(
    acceptMatchUpdate,
    async ({ userId, role }: AcceptMatchInput): Promise<MatchUpdateResult> => {
      // An accept that raced the expiry or a decline in the same task is refused here.
      if (state.status !== 'matched') {
        if (state.status === 'accepted' || state.status === 'completed') return { state: { ...state } };
        throw notAcceptable(state);
      }
      if (role === 'seeker' && state.seekerAcceptedAtMs === null) {
        state.seekerAcceptedAtMs = Date.now();
        projection.changed();
      }
      if (role === 'recruiter' && state.recruiterAcceptedAtMs === null) {
        if (patched(MATCH_INTERVIEWER_PATCH)) {
          // Whoever of the team accepts is the interviewer (decision 0244): the slot moves to the
          // accepter first, refused when they have none free. One claim at a time: a teammate's
          // accept in the meantime waits, then finds the first one recorded.
          await condition(() => !claiming);
          if (state.status === 'matched' && state.recruiterAcceptedAtMs === null) {
            claiming = true;
            let claim: ClaimInterviewSlotResult;
            try {
              claim = await claimInterviewSlot({ matchId: state.matchId, userId });
            } finally {
              claiming = false;
            }
            if (!claim.ok)
              throw ApplicationFailure.nonRetryable(
                `recruiter ${userId} has no free interview slot at event ${state.liveEventSlug} (${claim.active ?? '?'} of ${claim.capacity ?? '?'} in use); match ${state.matchId} stays offered to the team`,
                MATCH_RECRUITER_AT_CAPACITY,
                { active: claim.active ?? null, capacity: claim.capacity ?? null },
              );
            // The claim took time: past the window the acceptance is refused, as the validator
            // refuses one arriving late (the expiry timer may not have fired yet).
            if (state.status === 'matched' && Date.now() >= state.expiresAtMs) throw expired(state);
            if (state.status === 'matched' && state.recruiterAcceptedAtMs === null) {
              state.recruiterAcceptedAtMs = Date.now();
              state.recruiterAcceptedBy = userId;
              state.interviewerName = claim.recruiterName;
              projection.changed();
            }
          }
          if (!stillAcceptable(state)) throw notAcceptable(state);
        } else {
          state.recruiterAcceptedAtMs = Date.now();
          state.recruiterAcceptedBy = userId;
          projection.changed();
        }
      }
      run.maybeAccepted();
      await projection.projected();
      return { state: { ...state } };
    },
    {
      validator: ({ userId, role }: AcceptMatchInput) => {
        if (role === 'seeker' && userId !== state.seekerUserId)
          throw ApplicationFailure.nonRetryable(
            `user ${userId} is not the seeker of match ${state.matchId}`,
            MATCH_NOT_ACCEPTABLE,
          );
        // Accepting an already accepted match again answers its state (a double click).
        if (!stillAcceptable(state)) throw notAcceptable(state);
        // The expiry timer may not have fired yet (a busy worker): the window is the deadline, not the timer. A validator: no command, no patch.
        if (state.status === 'matched' && Date.now() >= state.expiresAtMs) throw expired(state);
      },
    },
  );
}

/**
 * How long to wait before reminding whoever has not answered, or null when no reminder is due
 * (already sent, none configured, too late, or a run from before the e-mail notices).
 */
export function reminderDueInMs(run: MatchRun, reminderMs: number): number | null {
  const remaining = run.state.expiresAtMs - Date.now();
  if (!run.done.reminded && reminderMs > 0 && remaining > reminderMs && patched(MATCH_NOTICES_PATCH))
    return remaining - reminderMs;
  return null;
}

/** The reminder is due: whoever has not accepted by now is reminded (once). */
export function remindUnanswered(run: MatchRun): void {
  run.done.reminded = true;
  if (run.state.status === 'matched') run.notify('expiring');
}

/** The acceptance window closed without a change: a match still `matched` expires. */
export function expireUnanswered(run: MatchRun): void {
  if (run.state.status !== 'matched') return;
  run.state.expiredAtMs = Date.now();
  run.transition('expired');
}
