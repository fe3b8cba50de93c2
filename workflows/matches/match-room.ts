import { ApplicationFailure, log, patched, setHandler } from '@temporalio/workflow';
import {
  bothInRoomUpdate,
  enteredRoomUpdate,
  MATCH_ROOM_CLOCK_PATCH,
  MATCH_ROOM_CLOSED,
  type BothInRoomInput,
  type EnteredRoomInput,
  type MatchState,
  type MatchUpdateResult,
  type NoShowMissing,
} from './contract';
import type { MatchRun } from './match-run';

/**
 * The room phase: once `accepted`, both people walk to the interview room. Each arrival is recorded
 * (Update `enteredRoom`); who has not come by `arriveByMs` is missing and the match ends as a
 * no-show. Meeting there (Update `bothInRoom`) starts the interview clock; the room closes after
 * the interview length and the interview counts as completed.
 */

const roomClosed = (state: MatchState) =>
  ApplicationFailure.nonRetryable(
    `match ${state.matchId} is ${state.status}; the interview room is closed`,
    MATCH_ROOM_CLOSED,
    {
      status: state.status,
    },
  );
const roomOpen = (state: MatchState) => state.status === 'accepted' || state.status === 'completed';

/** Registers the `bothInRoom` and `enteredRoom` updates. */
export function registerRoomHandlers(run: MatchRun): void {
  const { state, projection } = run;
  // The interview clock: the length counts from the moment both people are in the room, not from
  // acceptance (the shared room starts it). The first `bothInRoom` restarts the interview timer (the loop re-reads
  // interviewEndsAtMs after the projection); later ones (a reconnect) answer the state as it is.
  setHandler(
    bothInRoomUpdate,
    async ({ userId }: BothInRoomInput): Promise<MatchUpdateResult> => {
      if (
        state.status === 'accepted' &&
        (state.interviewStartedAtMs ?? null) === null &&
        patched(MATCH_ROOM_CLOCK_PATCH)
      ) {
        const now = Date.now();
        state.interviewStartedAtMs = now;
        state.interviewEndsAtMs = now + run.input.interviewLengthMs;
        // Meeting in the room is arriving there, whether or not each arrival was reported first.
        if ((state.seekerInRoomAtMs ?? null) === null) state.seekerInRoomAtMs = now;
        if ((state.recruiterInRoomAtMs ?? null) === null) state.recruiterInRoomAtMs = now;
        log.info(`match ${state.matchId}: both in the room (${userId} arrived second); the interview clock starts`, {
          matchId: state.matchId,
        });
        projection.changed();
        await projection.projected();
      }
      return { state: { ...state } };
    },
    {
      validator: (_input: BothInRoomInput) => {
        if (!roomOpen(state)) throw roomClosed(state);
      },
    },
  );
  // Presence: each party's first arrival in the room (a reconnect or a reload answers the state as
  // it is). Who has not arrived by `arriveByMs` is missing: the match ends as a no-show.
  setHandler(
    enteredRoomUpdate,
    async ({ userId, role }: EnteredRoomInput): Promise<MatchUpdateResult> => {
      const key = role === 'seeker' ? 'seekerInRoomAtMs' : 'recruiterInRoomAtMs';
      if (state.status === 'accepted' && (state[key] ?? null) === null) {
        state[key] = Date.now();
        log.info(`match ${state.matchId}: the ${role} (${userId}) is in the room`, { matchId: state.matchId });
        projection.changed();
        await projection.projected();
      }
      return { state: { ...state } };
    },
    {
      validator: ({ userId, role }: EnteredRoomInput) => {
        if (role === 'seeker' && userId !== state.seekerUserId)
          throw ApplicationFailure.nonRetryable(
            `user ${userId} is not the seeker of match ${state.matchId}`,
            MATCH_ROOM_CLOSED,
          );
        if (!roomOpen(state)) throw roomClosed(state);
      },
    },
  );
}

/** Who has not come to the room yet (null: both are there). */
export function missingFromRoom(state: MatchState): NoShowMissing | null {
  const seeker = (state.seekerInRoomAtMs ?? null) === null;
  const recruiter = (state.recruiterInRoomAtMs ?? null) === null;
  return seeker && recruiter ? 'both' : seeker ? 'seeker' : recruiter ? 'recruiter' : null;
}

/** The next deadline of an accepted match: the arrival deadline (no-show grace) or the interview's end. */
export interface RoomDeadline {
  atMs: number;
  waitingForArrival: boolean;
}

/**
 * Until both are in the room (and while someone has not come at all) the first deadline is the
 * arrival deadline; the room never stays open past the interview length either way.
 */
export function roomDeadline(run: MatchRun): RoomDeadline {
  const { state } = run;
  const waitingForArrival =
    run.noShowGraceMs > 0 &&
    (state.interviewStartedAtMs ?? null) === null &&
    (state.arriveByMs ?? null) !== null &&
    missingFromRoom(state) !== null;
  const atMs = waitingForArrival
    ? Math.min(state.arriveByMs!, state.interviewEndsAtMs ?? 0)
    : (state.interviewEndsAtMs ?? 0);
  return { atMs, waitingForArrival };
}

/** The deadline passed without a change: a no-show when someone never came, else the interview is over. */
export function closeRoomAtDeadline(run: MatchRun, deadline: RoomDeadline): void {
  const { state } = run;
  if (state.status !== 'accepted') return;
  if (deadline.waitingForArrival && missingFromRoom(state) !== null) {
    // Someone never came: a no-show, never an interview.
    state.noShowAtMs = Date.now();
    state.noShowMissing = missingFromRoom(state);
    run.transition('no_show');
  } else {
    // The room closes after the interview length: the interview counts as completed.
    state.completedAtMs = Date.now();
    run.transition('completed');
  }
}
