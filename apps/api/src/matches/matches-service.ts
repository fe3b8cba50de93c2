import type { Knex } from 'knex';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { type MatchWithJob } from '#db/matches/matches-repository';
import { ConflictError, ForbiddenError, NotFoundError } from '#lib/errors';
import type { InterviewReportRow } from '#db/matches/interview-reports-repository';
import type { InterviewReportBody } from './matches-schemas';
import type { Config } from '#lib/config';
import { refusalConflict } from '#lib/update-refusal';
import {
  MATCH_NOT_ACCEPTABLE,
  MATCH_NOT_DECLINABLE,
  matchWorkflowId,
  acceptMatchUpdate,
  declineMatchUpdate,
  interviewCompletedSignal,
  interviewReportedSignal,
  bothInRoomUpdate,
  enteredRoomUpdate,
  MATCH_ROOM_CLOSED,
  MATCH_RECRUITER_AT_CAPACITY,
  type MatchPartyRole,
  type DeclineReasonCode,
  type MatchUpdateResult,
} from '#workflows/matches/contract';
import { matchInputFromOffer, matchStartNames, startMatchWorkflow } from '#workflows/matches/client';
import { createVideoProvider, type VideoProvider } from '../room/room-service';
import { interviewerId } from './match-status-line';
import type { ServiceDeps } from '../plugins/service-deps';

export interface MatchView {
  match: MatchWithJob;
  /** The caller's role in the match. */
  role: MatchPartyRole;
}

export const MATCH_LIST_MAX = 50;

/**
 * Use-cases of matches. Accepting and completing an interview are for the web application only
 * (a session-authenticated human): no API route calls `accept` or `completeInterview`.
 * Every call checks that the caller is a party — the seeker, or a recruiter of the job's team —
 * and answers 404 otherwise, so other tenants' matches are not revealed.
 */
/** How long leaving the room waits for the match projection to say `completed`. */
const COMPLETION_PROJECTION_WAIT_MS = 3_000;
/** How long a decline that leaves the queue waits for the seeker's entry to read `left`. */
export const LEAVE_PROJECTION_WAIT_MS = 5_000;

export function createMatchesService(
  deps: Pick<ServiceDeps, 'repos' | 'temporal' | 'config' | 'appSecret'> & { videoProvider?: VideoProvider },
) {
  const accounts = deps.repos.accounts;
  const matches = deps.repos.matches;
  const video = deps.videoProvider ?? createVideoProvider(deps.config, deps.appSecret);

  const partyOf = async (userId: string, match: MatchWithJob): Promise<MatchPartyRole | null> => {
    if (match.seeker_user_id === userId) return 'seeker';
    const membership = await accounts.findMembership(userId);
    return membership && membership.team_id === match.team_id ? 'recruiter' : null;
  };

  /** The match as the caller may see it, or 404. */
  const load = async (userId: string, matchId: string): Promise<MatchView> => {
    const match = await matches.findById(matchId);
    const role = match ? await partyOf(userId, match) : null;
    if (!match || !role) throw new NotFoundError('match', matchId);
    return { match, role };
  };

  /**
   * The match row exists from the moment its seeker's entry says `matched` (decision 0120), a few
   * milliseconds before the matchmaker starts `match:<id>`. An Update in that gap starts the
   * workflow itself from the same offer (the matchmaker's start then finds it running).
   */
  const startFromOffer = async (matchId: string): Promise<boolean> => {
    const [offer] = await deps.repos.matchmaking.loadOfferContexts([matchId]);
    if (!offer) return false;
    const recruiters = await accounts.listTeamMemberIds(offer.team_id);
    try {
      await startMatchWorkflow(
        deps.temporal,
        deps.config,
        matchInputFromOffer(offer, recruiters, deps.config),
        matchStartNames(offer),
      );
    } catch (err) {
      // Already started and closed: the projection is final, the caller answers from it.
      if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
      throw err;
    }
    return true;
  };

  /** Sends an Update; a refusal by the workflow becomes 409 with the workflow's code. */
  const update = async <T>(
    matchId: string,
    status: string,
    send: () => Promise<T>,
    refusedCode: string,
  ): Promise<T> => {
    try {
      try {
        return await send();
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError && status === 'matched' && (await startFromOffer(matchId))))
          throw err;
        return await send();
      }
    } catch (err) {
      const conflict = refusalConflict(
        err,
        [MATCH_NOT_ACCEPTABLE, MATCH_NOT_DECLINABLE, MATCH_RECRUITER_AT_CAPACITY],
        (r) => {
          const d = r.details?.[0] as { status?: string; active?: number; capacity?: number } | undefined;
          return r.type === MATCH_RECRUITER_AT_CAPACITY
            ? { status, active: d?.active ?? null, capacity: d?.capacity ?? null }
            : { status: d?.status ?? status };
        },
      );
      if (conflict) throw conflict;
      // The workflow has closed (declined/expired/completed long ago): the projection is final.
      if (err instanceof WorkflowNotFoundError)
        throw new ConflictError(refusedCode, `match ${matchId} is ${status}`, { status });
      throw err;
    }
  };

  /** An Update from the interview room (arrival, both in the room): a closed room answers 409 MATCH_ROOM_CLOSED. */
  const roomUpdate = async <A>(match: MatchWithJob, room: UpdateDefinition<MatchUpdateResult, [A]>, arg: A) => {
    try {
      await deps.temporal.workflow.getHandle(matchWorkflowId(match.id)).executeUpdate(room, { args: [arg] });
    } catch (err) {
      const conflict = refusalConflict(err, [MATCH_ROOM_CLOSED], (r) => ({
        status: (r.details?.[0] as { status?: string } | undefined)?.status ?? match.status,
      }));
      if (conflict) throw conflict;
      if (err instanceof WorkflowNotFoundError)
        throw new ConflictError(MATCH_ROOM_CLOSED, `match ${match.id} is closed`, { status: match.status });
      throw err;
    }
  };

  const reload = async (matchId: string, role: MatchPartyRole): Promise<MatchView> => {
    const match = await matches.findById(matchId);
    if (!match) throw new NotFoundError('match', matchId);
    return { match, role };
  };

  return {
    /** Up to 50 recent matches of the caller: a seeker's own, or those of the recruiter's team. */
    async list(input: { userId: string; limit?: number }): Promise<MatchView[]> {
      const limit = Math.min(MATCH_LIST_MAX, Math.max(1, input.limit ?? MATCH_LIST_MAX));
      const user = await accounts.findUserById(input.userId);
      if (!user) throw new NotFoundError('user', input.userId);
      if (user.role === 'seeker')
        return (await matches.listForSeeker(user.id, limit)).map((match) => ({ match, role: 'seeker' as const }));
      const membership = await accounts.findMembership(user.id);
      if (!membership) return [];
      return (await matches.listForTeam(membership.team_id, limit)).map((match) => ({
        match,
        role: 'recruiter' as const,
      }));
    },

    async get(input: { userId: string; matchId: string }): Promise<MatchView> {
      return load(input.userId, input.matchId);
    },

    /**
     * Web application only (humans): records the caller's acceptance (Update `accept`). The match
     * is `accepted` once the seeker and a recruiter of the team have accepted (or the team
     * auto-accepts for its recruiters). 409 MATCH_NOT_ACCEPTABLE once declined/expired. Whoever of
     * the team accepts first is the match's recruiter, the interviewer (decision 0244); 409
     * MATCH_RECRUITER_AT_CAPACITY when they have no free interview slot at the event.
     */
    async accept(input: { userId: string; matchId: string }): Promise<MatchView> {
      const { match, role } = await load(input.userId, input.matchId);
      // A retried accept whose answer was lost: this party's acceptance is recorded, so the
      // answer is the match as it is now, not a refusal (a retry must not turn success into 409).
      if ((role === 'seeker' ? match.seeker_accepted_at : match.recruiter_accepted_at) !== null) return { match, role };
      // Past the acceptance window the match is as good as expired, whether or not its timer has fired yet.
      if (match.status === 'matched' && match.expires_at && match.expires_at.getTime() <= Date.now()) {
        throw new ConflictError(
          MATCH_NOT_ACCEPTABLE,
          `match ${match.id} expired at ${match.expires_at.toISOString()}; it can no longer be accepted`,
          { status: 'expired' },
        );
      }
      if (match.status !== 'matched' && match.status !== 'accepted') {
        throw new ConflictError(
          MATCH_NOT_ACCEPTABLE,
          `match ${match.id} is ${match.status}; it can no longer be accepted`,
          { status: match.status },
        );
      }
      if (match.status === 'accepted') return { match, role };
      await update(
        match.id,
        match.status,
        () =>
          deps.temporal.workflow
            .getHandle(matchWorkflowId(match.id))
            .executeUpdate(acceptMatchUpdate, { args: [{ userId: input.userId, role }] }),
        MATCH_NOT_ACCEPTABLE,
      );
      return reload(match.id, role);
    },

    /**
     * A party declines while the match is `matched` (API or web); the seeker's entry goes back to
     * waiting. With `leaveQueue` (the seeker only; 403 otherwise) the entry ends `left` instead,
     * told by the match itself, so no other offer can reach it in between; the reason code defaults
     * to `left_queue`, and the answer waits (up to LEAVE_PROJECTION_WAIT_MS) until the entry reads
     * `left`. `entryLeft` says whether it did. Once a recruiter accepted, only the interviewer
     * declines on the team's side (403 MATCH_NOT_YOUR_INTERVIEW for a teammate).
     */
    async decline(input: {
      userId: string;
      matchId: string;
      reason: string;
      reasonCode?: DeclineReasonCode | null;
      leaveQueue?: boolean;
    }): Promise<MatchView & { entryLeft?: boolean }> {
      const { match, role } = await load(input.userId, input.matchId);
      const leaveQueue = input.leaveQueue === true;
      if (leaveQueue && role !== 'seeker')
        throw new ForbiddenError(
          `Only the seeker of match ${match.id} can leave the queue; a recruiter declines without leave_queue`,
          'ROLE_NOT_ALLOWED',
        );
      if (match.status !== 'matched')
        throw new ConflictError(
          MATCH_NOT_DECLINABLE,
          `match ${match.id} is ${match.status}; only a matched match can be declined`,
          { status: match.status },
        );
      // Once a recruiter accepted for the team, the team's decision is the interviewer's (decision
      // 0244): a teammate cannot undo it by declining. Before that, anyone of the team may decline.
      const interviewer = role === 'recruiter' && match.recruiter_accepted_at ? interviewerId(match) : null;
      if (interviewer && interviewer !== input.userId)
        throw new ForbiddenError(
          `match ${match.id} was accepted for the team by another recruiter (user ${interviewer}); only they can decline it`,
          'MATCH_NOT_YOUR_INTERVIEW',
        );
      await update(
        match.id,
        match.status,
        () =>
          deps.temporal.workflow.getHandle(matchWorkflowId(match.id)).executeUpdate(declineMatchUpdate, {
            args: [
              {
                userId: input.userId,
                role,
                reason: input.reason,
                reasonCode: input.reasonCode ?? (leaveQueue ? 'left_queue' : null),
                ...(leaveQueue ? { leaveQueue: true } : {}),
              },
            ],
          }),
        MATCH_NOT_DECLINABLE,
      );
      if (!leaveQueue) return reload(match.id, role);
      // The match tells the entry after its own projection: wait for the entry's, so the caller's
      // next read of the queue says `left`. Past the deadline the answer is the match as it is.
      const deadline = Date.now() + LEAVE_PROJECTION_WAIT_MS;
      for (;;) {
        const entry = await deps.repos.queue.findById(match.queue_entry_id);
        const entryLeft = !entry || entry.status === 'left';
        if (entryLeft || Date.now() > deadline) return { ...(await reload(match.id, role)), entryLeft };
        await new Promise((r) => setTimeout(r, 25));
      }
    },

    /**
     * The built-in room saw both parties connected: the interview clock starts (the first time;
     * later meetings answer the clock as it is). Answers the match as projected, with
     * `interview_started_at` and the new `interview_ends_at`. 409 MATCH_ROOM_CLOSED once the match
     * is no longer accepted.
     */
    async startInterviewClock(input: { userId: string; matchId: string }): Promise<MatchView> {
      const { match, role } = await load(input.userId, input.matchId);
      if (match.status !== 'accepted')
        throw new ConflictError(
          MATCH_ROOM_CLOSED,
          `match ${match.id} is ${match.status}; the interview room is closed`,
          { status: match.status },
        );
      if (match.interview_started_at) return { match, role };
      await roomUpdate(match, bothInRoomUpdate, { userId: input.userId });
      return reload(match.id, role);
    },

    /**
     * The built-in room saw one party connect (each connection; only the first arrival counts, so
     * a reconnect changes nothing). Whoever has not come by the match's `arrive_by` is a no-show.
     * 409 MATCH_ROOM_CLOSED once the match is no longer accepted.
     */
    async enterRoom(input: { userId: string; matchId: string }): Promise<MatchView> {
      const { match, role } = await load(input.userId, input.matchId);
      if ((role === 'seeker' ? match.seeker_in_room_at : match.recruiter_in_room_at) !== null) return { match, role };
      if (match.status !== 'accepted')
        throw new ConflictError(
          MATCH_ROOM_CLOSED,
          `match ${match.id} is ${match.status}; the interview room is closed`,
          { status: match.status },
        );
      await roomUpdate(match, enteredRoomUpdate, { userId: input.userId, role });
      return reload(match.id, role);
    },

    /**
     * The interview room (web app): a party ends the interview; `completed` follows (signal).
     * Not while one of them is in the room alone: the interview has not started, and ending it
     * would record an interview that never happened (409 INTERVIEW_NOT_STARTED; whoever has not
     * come by `arrive_by` makes it a no-show instead).
     */
    async completeInterview(input: { userId: string; matchId: string }): Promise<MatchView> {
      const { match, role } = await load(input.userId, input.matchId);
      if (match.status === 'completed') return { match, role };
      if (match.status !== 'accepted')
        throw new ConflictError(
          'MATCH_NOT_ACCEPTED',
          `match ${match.id} is ${match.status}; the interview starts after both accepted`,
          { status: match.status },
        );
      if (
        match.arrive_by !== null &&
        match.interview_started_at === null &&
        (match.seeker_in_room_at === null) !== (match.recruiter_in_room_at === null)
      )
        throw new ConflictError(
          'INTERVIEW_NOT_STARTED',
          `match ${match.id}: the ${match.seeker_in_room_at === null ? 'seeker' : 'recruiter'} has not come to the ` +
            `room; the interview has not started`,
          { status: match.status },
        );
      await deps.temporal.workflow
        .getHandle(matchWorkflowId(match.id))
        .signal(interviewCompletedSignal, { userId: input.userId });
      // A signal has no answer: wait (briefly) for the projection, so the page the person lands on
      // says "completed" rather than "the room is open". Past the deadline the page's live
      // updates catch up.
      const deadline = Date.now() + COMPLETION_PROJECTION_WAIT_MS;
      for (;;) {
        const now = await matches.findById(match.id);
        if (now && now.status !== 'accepted') return { match: now, role };
        if (Date.now() > deadline) return { match, role };
        await new Promise((r) => setTimeout(r, 50));
      }
    },

    /**
     * The report card after the interview: only a recruiter of the match's team, only once the
     * interview is completed. Stored on the candidate for the team (one per match; a resubmission
     * replaces it). The match workflow is told (`interviewReported`): "advance" sends both sides
     * each other's contact details. Answers whether the workflow heard it (false once its
     * INTERVIEW_REPORT_WINDOW_MS has passed: the report is stored, no e-mail goes out).
     */
    async submitReport(input: {
      userId: string;
      matchId: string;
      report: InterviewReportBody;
    }): Promise<{ report: InterviewReportRow; told: boolean }> {
      const { match, role } = await load(input.userId, input.matchId);
      if (role !== 'recruiter')
        throw new ForbiddenError('Only a recruiter of the team writes the report card', 'ROLE_NOT_ALLOWED');
      if (match.status !== 'completed')
        throw new ConflictError(
          'MATCH_NOT_COMPLETED',
          `match ${match.id} is ${match.status}; the report card follows the interview`,
          { status: match.status },
        );
      // The report card is the interviewer's (decision 0249): they were in the room, and "advance"
      // gives the candidate their address. Anyone of the team when the match names nobody.
      const interviewer = interviewerId(match);
      if (interviewer && interviewer !== input.userId)
        throw new ForbiddenError(
          `match ${match.id} was interviewed by another recruiter of the team (user ${interviewer}); only they write its report card`,
          'MATCH_NOT_YOUR_INTERVIEW',
        );
      const report = await deps.repos.interviewReports.upsert({
        match_id: match.id,
        team_id: match.team_id,
        seeker_user_id: match.seeker_user_id,
        author_user_id: input.userId,
        fit: input.report.fit,
        communication: input.report.communication,
        technical: input.report.technical,
        outcome: input.report.outcome,
        notes: input.report.notes,
      });
      let told = true;
      try {
        await deps.temporal.workflow
          .getHandle(matchWorkflowId(match.id))
          .signal(interviewReportedSignal, { outcome: report.outcome });
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        told = false;
      }
      return { report, told };
    },

    /** Room URL for a party of an accepted match, from the video provider adapter. */
    async interviewRoomUrl(input: { userId: string; matchId: string }): Promise<{ roomUrl: string; expiresAt: Date }> {
      const { match, role } = await load(input.userId, input.matchId);
      if (match.status === 'completed')
        throw new ConflictError('MATCH_INTERVIEW_COMPLETED', `the interview of match ${match.id} has ended`, {
          status: match.status,
        });
      if (match.status === 'no_show')
        throw new ConflictError('MATCH_NOT_ACCEPTED', `match ${match.id} ended as a no-show; the room is closed`, {
          status: match.status,
        });
      if (match.status !== 'accepted') {
        throw new ConflictError(
          'MATCH_NOT_ACCEPTED',
          `match ${match.id} is ${match.status}; the room opens once both parties have accepted in the web application`,
          { status: match.status },
        );
      }
      // One interviewer per match (decision 0244): on the team's side the room admits the recruiter
      // who accepted (with the team's auto-accept, the one it was offered to; else anyone of the team).
      if (role === 'recruiter' && match.recruiter_user_id && match.recruiter_user_id !== input.userId)
        throw new ForbiddenError(
          `match ${match.id} is interviewed by another recruiter of the team (user ${match.recruiter_user_id}); only they enter the room`,
          'MATCH_NOT_YOUR_INTERVIEW',
        );
      // The URL never outlives the interview.
      const untilInterviewEnds = match.interview_ends_at
        ? match.interview_ends_at.getTime() - Date.now()
        : deps.config.ROOM_URL_TTL_MS;
      const ttlMs = Math.max(1_000, Math.min(deps.config.ROOM_URL_TTL_MS, untilInterviewEnds));
      return video.issueRoomUrl({ matchId: match.id, userId: input.userId, role, ttlMs });
    },
  };
}
export type MatchesService = ReturnType<typeof createMatchesService>;
