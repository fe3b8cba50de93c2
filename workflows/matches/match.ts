import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  getExternalWorkflowHandle,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  acceptMatchUpdate,
  bothInRoomUpdate,
  enteredRoomUpdate,
  MATCH_NO_SHOW_PATCH,
  type EnteredRoomInput,
  type NoShowMissing,
  MATCH_ROOM_CLOCK_PATCH,
  MATCH_ROOM_CLOSED,
  type BothInRoomInput,
  declineMatchUpdate,
  interviewCompletedSignal,
  interviewReportedSignal,
  MATCH_REPORT_PATCH,
  type InterviewReportedSignalInput,
  matchStateQuery,
  MATCH_NOT_ACCEPTABLE,
  MATCH_NOT_DECLINABLE,
  MATCH_NOTICES_PATCH,
  MATCH_INTERVIEWER_PATCH,
  MATCH_RECRUITER_AT_CAPACITY,
  type ClaimInterviewSlotResult,
  MATCH_DECLINE_LEAVES_QUEUE_PATCH,
  domainEventId,
  type MatchNoticeKind,
  type AcceptMatchInput,
  type DeclineMatchInput,
  type InterviewCompletedSignalInput,
  type MatchInput,
  type MatchResult,
  type MatchState,
  type MatchStatus,
  type MatchUpdateResult,
} from './contract';
import type { createMatchesActivities } from '../../activities/matches/matches-activities';
import type { createMatchmakingActivities } from '../../activities/matchmaking/matchmaking-activities';
import type { createDomainEventsActivities } from '../../activities/webhooks/domain-events';
import { KICK_MATCHMAKER_ACTIVITY_OPTIONS } from '../matchmaking/contract';
import { queueEntryWorkflowId, matchClosedSignal, type MatchClosedSignalInput } from '../queue/contract';
import { JobfairEntity, JobfairEventSlug, JobfairStatus, JobfairTeamId, JobfairUserId } from '../shared/contract';
import { createProjection } from '../shared/projection';
import { matchDetails } from '../shared/details';

// Short PostgreSQL reads/writes: local activities, so an accept or decline answers in one workflow task.
const { projectMatch, loadMatchSettings, claimInterviewSlot } = proxyLocalActivities<
  ReturnType<typeof createMatchesActivities>
>({
  startToCloseTimeout: '10 seconds',
  // At most 2 s between retries: a projection waiting out a PostgreSQL outage lands within ~2 s of
  // its return (decision 0204).
  retry: { initialInterval: '200 ms', maximumInterval: '2 seconds' },
});
const { emitDomainEvent } = proxyActivities<ReturnType<typeof createDomainEventsActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 ms', maximumInterval: '30 seconds' },
});
// E-mail notices: enqueue in the outbox and send; SMTP may be slow or down, so they run beside the
// lifecycle (never awaited before a transition) and the run waits for them only at its end.
const { notifyMatchParties } = proxyActivities<ReturnType<typeof createMatchesActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
});
const { kickMatchmaker } = proxyActivities<ReturnType<typeof createMatchmakingActivities>>(
  KICK_MATCHMAKER_ACTIVITY_OPTIONS,
);

/**
 * One match between a seeker and a job, `match:<matchId>`, started by the matchmaker once the
 * seeker's queue entry accepted the offer. It owns the match's lifecycle; PostgreSQL holds the
 * projection written by `projectMatch` on every transition (before an Update answers).
 *
 * Side effects, each once: `match.matched` at start; on acceptance `match.accepted` and the queue
 * entry finishes; on decline/expiry the queue entry goes back to waiting; on completion
 * `interview.completed`; on a no-show (someone did not come to the room in time) `match.no_show`.
 * A freed interview slot wakes the matchmaker.
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
  const done = { accepted: false, closed: false, completed: false, reminded: false, noShow: false };
  /** The no-show grace time of this run (0 = none); set once the settings are loaded, behind its patch. */
  let noShowGraceMs = 0;
  const notices: Array<Promise<unknown>> = [];
  /** Both sides are told by e-mail (patched in: runs started before it send none). */
  const notify = (kind: MatchNoticeKind) => {
    if (!patched(MATCH_NOTICES_PATCH)) return;
    notices.push(
      notifyMatchParties({ matchId: state.matchId, kind }).catch((err) => {
        // The outbox keeps what could not be sent (status failed, last_error); the match goes on.
        log.warn(`match ${state.matchId}: ${kind} notice not delivered`, { error: String(err) });
      }),
    );
  };

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
      if (noShowGraceMs > 0) state.arriveByMs = now + noShowGraceMs;
      transition('accepted');
    }
  };

  /** A recruiter's acceptance is claiming the interview slot (MATCH_INTERVIEWER_PATCH). */
  let claiming = false;
  /** Who interviews: the recruiter who accepted; with the team's auto-accept, the one it was offered to. */
  const interviewerId = (): string | null =>
    state.recruiterAcceptedBy ?? (state.recruiterAutoAccepted ? (input.offeredToUserId ?? null) : null);

  setHandler(matchStateQuery, () => ({ ...state }));
  setHandler(
    acceptMatchUpdate,
    async ({ userId, role }: AcceptMatchInput): Promise<MatchUpdateResult> => {
      // An accept that raced the expiry or a decline in the same task is refused here.
      if (state.status !== 'matched') {
        if (state.status === 'accepted' || state.status === 'completed') return { state: { ...state } };
        throw ApplicationFailure.nonRetryable(
          `match ${state.matchId} is ${state.status}; it can no longer be accepted`,
          MATCH_NOT_ACCEPTABLE,
          { status: state.status },
        );
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
            if (state.status === 'matched' && Date.now() >= state.expiresAtMs)
              throw ApplicationFailure.nonRetryable(
                `match ${state.matchId} expired at ${new Date(state.expiresAtMs).toISOString()}; it can no longer be accepted`,
                MATCH_NOT_ACCEPTABLE,
                { status: 'expired' },
              );
            if (state.status === 'matched' && state.recruiterAcceptedAtMs === null) {
              state.recruiterAcceptedAtMs = Date.now();
              state.recruiterAcceptedBy = userId;
              state.interviewerName = claim.recruiterName;
              projection.changed();
            }
          }
          if (state.status !== 'matched' && state.status !== 'accepted' && state.status !== 'completed')
            throw ApplicationFailure.nonRetryable(
              `match ${state.matchId} is ${state.status}; it can no longer be accepted`,
              MATCH_NOT_ACCEPTABLE,
              { status: state.status },
            );
        } else {
          state.recruiterAcceptedAtMs = Date.now();
          state.recruiterAcceptedBy = userId;
          projection.changed();
        }
      }
      maybeAccepted();
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
        if (state.status !== 'matched' && state.status !== 'accepted' && state.status !== 'completed') {
          throw ApplicationFailure.nonRetryable(
            `match ${state.matchId} is ${state.status}; it can no longer be accepted`,
            MATCH_NOT_ACCEPTABLE,
            { status: state.status },
          );
        }
        // The expiry timer may not have fired yet (a busy worker): the window is the deadline, not the timer. A validator: no command, no patch.
        if (state.status === 'matched' && Date.now() >= state.expiresAtMs) {
          throw ApplicationFailure.nonRetryable(
            `match ${state.matchId} expired at ${new Date(state.expiresAtMs).toISOString()}; it can no longer be accepted`,
            MATCH_NOT_ACCEPTABLE,
            { status: 'expired' },
          );
        }
      },
    },
  );
  setHandler(
    declineMatchUpdate,
    async ({ userId, role, reason, reasonCode, leaveQueue }: DeclineMatchInput): Promise<MatchUpdateResult> => {
      if (state.status !== 'matched')
        throw ApplicationFailure.nonRetryable(
          `match ${state.matchId} is ${state.status}; only a matched match can be declined`,
          MATCH_NOT_DECLINABLE,
          { status: state.status },
        );
      state.declinedAtMs = Date.now();
      state.declinedBy = userId;
      state.declinedByRole = role;
      state.declineReason = reason;
      state.declineReasonCode = reasonCode ?? null;
      // The seeker leaves with the decline: the entry is told to end `left`, not to wait again.
      if (leaveQueue === true && role === 'seeker' && patched(MATCH_DECLINE_LEAVES_QUEUE_PATCH))
        state.declineLeftQueue = true;
      transition('declined');
      await projection.projected();
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
        if (state.status !== 'matched')
          throw ApplicationFailure.nonRetryable(
            `match ${state.matchId} is ${state.status}; only a matched match can be declined`,
            MATCH_NOT_DECLINABLE,
            { status: state.status },
          );
      },
    },
  );
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
        state.interviewEndsAtMs = now + input.interviewLengthMs;
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
        if (state.status !== 'accepted' && state.status !== 'completed')
          throw ApplicationFailure.nonRetryable(
            `match ${state.matchId} is ${state.status}; the interview room is closed`,
            MATCH_ROOM_CLOSED,
            { status: state.status },
          );
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
        if (state.status !== 'accepted' && state.status !== 'completed')
          throw ApplicationFailure.nonRetryable(
            `match ${state.matchId} is ${state.status}; the interview room is closed`,
            MATCH_ROOM_CLOSED,
            { status: state.status },
          );
      },
    },
  );
  const missing = (): NoShowMissing | null => {
    const seeker = (state.seekerInRoomAtMs ?? null) === null;
    const recruiter = (state.recruiterInRoomAtMs ?? null) === null;
    return seeker && recruiter ? 'both' : seeker ? 'seeker' : recruiter ? 'recruiter' : null;
  };
  setHandler(interviewCompletedSignal, ({ userId }: InterviewCompletedSignalInput) => {
    if (state.status !== 'accepted') return;
    state.completedAtMs = Date.now();
    state.completedBy = userId;
    transition('completed');
  });

  let reported: InterviewReportedSignalInput['outcome'] | null = null;
  setHandler(interviewReportedSignal, ({ outcome }: InterviewReportedSignalInput) => {
    if (state.status === 'completed') reported = outcome;
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
  const startedAtMs = (): number | null => state.interviewStartedAtMs ?? state.acceptedAtMs;
  /** Runs each side effect once, whatever transitions happened between two projections. */
  const effects = async () => {
    if (state.acceptedAtMs !== null && !done.accepted) {
      done.accepted = true;
      await tellQueueEntry('accepted');
      notify('accepted');
      await emit('match.accepted', {
        match_id: state.matchId,
        job_id: state.jobId,
        role_title: input.jobTitle,
        live_event_slug: state.liveEventSlug,
        accepted_at: new Date(state.acceptedAtMs).toISOString(),
        recruiter_auto_accepted: state.recruiterAutoAccepted,
        // The interviewer: whoever of the team accepted (decision 0244); null when unknown (an
        // auto-accepted match at an event without recruiter availability).
        recruiter_user_id: interviewerId(),
      });
    }
    if ((state.status === 'declined' || state.status === 'expired') && !done.closed) {
      done.closed = true;
      await tellQueueEntry(state.status, state.status === 'declined' && state.declineLeftQueue === true);
      notify(state.status);
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
        // Safe to share with both sides' subscribers (docs/webhooks.md): who ended it and how long
        // it ran; never the report card, which is the recruiter's.
        ended_by:
          state.completedBy === null ? 'time_limit' : state.completedBy === state.seekerUserId ? 'seeker' : 'recruiter',
        // The interview started when both were in the room; without that moment (a hosted
        // provider's room, or they never met) the room's opening at acceptance is the start.
        started_at: startedAtMs() !== null ? new Date(startedAtMs()!).toISOString() : null,
        duration_seconds:
          startedAtMs() !== null && state.completedAtMs !== null
            ? Math.max(0, Math.round((state.completedAtMs - startedAtMs()!) / 1000))
            : null,
      });
      await kick();
    }
    if (state.status === 'no_show' && !done.noShow) {
      done.noShow = true;
      // Never an interview: no interview.completed, no report card; the slot is free again.
      notify('no_show');
      await emit('match.no_show', {
        match_id: state.matchId,
        job_id: state.jobId,
        role_title: input.jobTitle,
        live_event_slug: state.liveEventSlug,
        accepted_at: state.acceptedAtMs !== null ? new Date(state.acceptedAtMs).toISOString() : null,
        no_show_at: new Date(state.noShowAtMs ?? Date.now()).toISOString(),
        missing: state.noShowMissing ?? 'both',
      });
      await kick();
    }
  };

  const settings = await loadMatchSettings({ teamId: state.teamId });
  // No-shows (patched in; only runs started with a grace time): who has not come to the room by
  // acceptance + grace is missing. An accept settled before this point gets its deadline here.
  noShowGraceMs = (input.noShowGraceMs ?? 0) > 0 && patched(MATCH_NO_SHOW_PATCH) ? input.noShowGraceMs! : 0;
  if (noShowGraceMs > 0 && state.acceptedAtMs !== null && (state.arriveByMs ?? null) === null)
    state.arriveByMs = state.acceptedAtMs + noShowGraceMs;
  // The match row is readable (and so acceptable and declinable) from the moment the seeker's entry
  // says `matched`, before this run starts (decision 0120): an accept or a decline can arrive in
  // the first task, before the settings are loaded. Such early updates are settled here and their
  // effects run before the loop (which only runs effects after a transition it waited for).
  const earlyUpdates = patched('match-early-updates');
  if (settings.autoAcceptRecruiter) {
    state.recruiterAcceptedAtMs = state.createdAtMs;
    state.recruiterAutoAccepted = true;
    if (earlyUpdates) maybeAccepted();
  }
  await projection.project();
  await emit('match.matched', {
    match_id: state.matchId,
    role_title: input.jobTitle,
    seeker_headline: input.seekerHeadline ?? '',
  });
  notify('matched');
  const reminderMs = settings.expiryReminderMs ?? 0;
  if (earlyUpdates) await effects();

  for (;;) {
    if (state.status === 'matched') {
      const remaining = state.expiresAtMs - Date.now();
      if (!done.reminded && reminderMs > 0 && remaining > reminderMs && patched(MATCH_NOTICES_PATCH)) {
        // First wait until the reminder is due; whoever has not accepted by then is reminded.
        const changedBefore = await condition(projection.pending, remaining - reminderMs, {
          summary: 'expiry reminder',
        });
        if (!changedBefore) {
          done.reminded = true;
          if (state.status === 'matched') notify('expiring');
          continue;
        }
        await projection.project();
        await effects();
        continue;
      }
      const changed =
        remaining > 0 &&
        (await condition(projection.pending, remaining, { summary: 'acceptance window (expires_at)' }));
      if (!changed && state.status === 'matched') {
        state.expiredAtMs = Date.now();
        transition('expired');
      }
    } else if (state.status === 'accepted') {
      // Until both are in the room (and while someone has not come at all) the first deadline is
      // the arrival deadline; the room never stays open past the interview length either way.
      const waitingForArrival =
        noShowGraceMs > 0 &&
        (state.interviewStartedAtMs ?? null) === null &&
        (state.arriveByMs ?? null) !== null &&
        missing() !== null;
      const deadline = waitingForArrival
        ? Math.min(state.arriveByMs!, state.interviewEndsAtMs ?? 0)
        : (state.interviewEndsAtMs ?? 0);
      const remaining = deadline - Date.now();
      const changed =
        remaining > 0 &&
        (await condition(projection.pending, remaining, {
          summary: waitingForArrival ? 'no-show grace (arrive by)' : 'interview length',
        }));
      if (!changed && state.status === 'accepted') {
        if (waitingForArrival && missing() !== null) {
          // Someone never came: a no-show, never an interview.
          state.noShowAtMs = Date.now();
          state.noShowMissing = missing();
          transition('no_show');
        } else {
          // The room closes after the interview length: the interview counts as completed.
          state.completedAtMs = Date.now();
          transition('completed');
        }
      }
    } else if (!projection.pending()) {
      break;
    }
    await projection.project();
    await effects();
  }
  // After the interview the run waits (a while) for the recruiter's report card: "advance" tells
  // both sides each other's contact details. The report itself lives in PostgreSQL.
  const reportWindowMs = settings.reportWindowMs ?? 0;
  if (state.status === 'completed' && reportWindowMs > 0 && patched(MATCH_REPORT_PATCH)) {
    const remaining = (state.completedAtMs ?? Date.now()) + reportWindowMs - Date.now();
    if (
      remaining > 0 &&
      (await condition(() => reported !== null, remaining, { summary: 'report card window' })) &&
      reported === 'advance'
    )
      notify('advance');
  }
  await Promise.all(notices);
  await condition(allHandlersFinished);
  return { ...state };
}
