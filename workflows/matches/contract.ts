import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { detailLines, temporalName, type StartMetadata } from '../shared/contract';
/**
 * Contract of the matches capability: the match workflow. Holds every message definition, id helper, type name, Input/Result type and vocabulary of the capability; no I/O (imports only @temporalio/workflow, @temporalio/common and other contracts), so workflows, activities, clients and the API all import it.
 *
 * Lifecycle: `matched` → (both parties accept, or the seeker accepts and the team auto-accepts)
 * `accepted` → (interviewCompleted signal, or the interview length elapses) `completed`; the
 * interview length counts from the moment both are in the room (update `bothInRoom`), or from
 * acceptance when that never happens;
 * `matched` → decline → `declined`; `matched` → acceptance window elapses → `expired`;
 * `accepted` → a party has not come to the room within the no-show grace time → `no_show` (update
 * `enteredRoom` records each arrival; `noShowMissing` says who was missing).
 */
export const matchWorkflowId = (matchId: string): string => `match:${matchId}`;

/** Lifecycle of a match (PostgreSQL `matches.status`, the API's `status`, JobfairStatus). */
export const MATCH_STATUSES = ['matched', 'accepted', 'declined', 'expired', 'completed', 'no_show'] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];
/** The two sides of a match. */
export const MATCH_PARTY_ROLES = ['seeker', 'recruiter'] as const;
export type MatchPartyRole = (typeof MATCH_PARTY_ROLES)[number];
/**
 * Why a match was declined (`reason_code`, beside the free-text `reason`). A
 * seeker's `salary` or `location` decline lowers that score component's weight for the rest of
 * the seeker's queue entry (docs/match-score.md, v2). `left_queue`: the seeker declined because
 * they left the queue (`POST /queue/leave` while matched, or a decline with `leave_queue`).
 */
export const DECLINE_REASON_CODES = [
  'skills',
  'experience',
  'salary',
  'location',
  'timing',
  'not_interested',
  'other',
  'left_queue',
] as const;
export type DeclineReasonCode = (typeof DECLINE_REASON_CODES)[number];

export interface MatchInput {
  matchId: string;
  queueEntryId: string;
  seekerUserId: string;
  /** Recruiters of the job's team when the match was made (owners of its events besides the seeker). */
  recruiterUserIds: string[];
  /**
   * The recruiter the match is offered to (round-robin at events with recruiter availability), the
   * suggested interviewer; whoever of the team accepts becomes the interviewer (decision 0244). With
   * the team's auto-accept this recruiter is the interviewer. Optional: absent at events without
   * availability and in runs started before it.
   */
  offeredToUserId?: string | null;
  teamId: string;
  jobId: string;
  jobTitle: string;
  liveEventId: string;
  liveEventSlug: string;
  seekerHeadline: string | null;
  seekerViaAgent: boolean;
  seekerAgentIdentity: string | null;
  matchScore: number;
  scoreVersion: string;
  /** The explainable breakdown (docs/match-score.md): a few hundred bytes of JSON. */
  scoreBreakdown: unknown;
  createdAtMs: number;
  acceptWindowMs: number;
  interviewLengthMs: number;
  /**
   * MATCH_NO_SHOW_GRACE_MS: how long after acceptance both people have to come to the room before
   * the match ends as `no_show`. Optional: runs started before it, and matches whose rooms report
   * no presence (a hosted video provider), have none (0): no no-show.
   */
  noShowGraceMs?: number;
}

export interface MatchState {
  matchId: string;
  status: MatchStatus;
  queueEntryId: string;
  seekerUserId: string;
  teamId: string;
  jobId: string;
  liveEventId: string;
  liveEventSlug: string;
  createdAtMs: number;
  expiresAtMs: number;
  seekerAcceptedAtMs: number | null;
  recruiterAcceptedAtMs: number | null;
  recruiterAcceptedBy: string | null;
  recruiterAutoAccepted: boolean;
  /**
   * The interviewer's display name (for the Temporal UI's details; never an e-mail address): the
   * recruiter whose acceptance claimed the interview slot. Optional: runs before
   * MATCH_INTERVIEWER_PATCH and auto-accepted matches have none.
   */
  interviewerName?: string | null;
  acceptedAtMs: number | null;
  /**
   * When both people were first in the interview room together (update `bothInRoom`): the
   * interview clock starts here and `interviewEndsAtMs` becomes this + the interview length. Until
   * then `interviewEndsAtMs` is the latest the room stays open for them to arrive. Optional: runs
   * started before the room clock have none.
   */
  interviewStartedAtMs?: number | null;
  interviewEndsAtMs: number | null;
  declinedAtMs: number | null;
  declinedBy: string | null;
  declinedByRole: MatchPartyRole | null;
  declineReason: string | null;
  /** Optional: runs started before reason codes existed have none. */
  declineReasonCode?: DeclineReasonCode | null;
  /** The seeker's decline also left the queue (the entry ended `left`). Optional: older runs have none. */
  declineLeftQueue?: boolean;
  expiredAtMs: number | null;
  completedAtMs: number | null;
  completedBy: string | null;
  /** First arrival of each party in the interview room (update `enteredRoom`). Optional: older runs have none. */
  seekerInRoomAtMs?: number | null;
  recruiterInRoomAtMs?: number | null;
  /** Acceptance + the no-show grace time: who has not come by then is missing (null: no no-show). */
  arriveByMs?: number | null;
  /** When the match ended as `no_show`, and who was missing. */
  noShowAtMs?: number | null;
  noShowMissing?: NoShowMissing | null;
}

export type MatchResult = MatchState;

/** Update `accept`: sent only for a session-authenticated human (web app); the API has no route for it. */
export interface AcceptMatchInput {
  userId: string;
  role: MatchPartyRole;
}

export interface DeclineMatchInput {
  userId: string;
  role: MatchPartyRole;
  reason: string;
  /** Optional: older API versions send none. */
  reasonCode?: DeclineReasonCode | null;
  /**
   * The seeker also leaves the queue: the entry is told to end `left` instead of going back to
   * waiting, so no other offer can reach it in between (patch MATCH_DECLINE_LEAVES_QUEUE_PATCH).
   * Only the seeker may set it. Optional: older API versions send none.
   */
  leaveQueue?: boolean;
}

export interface MatchUpdateResult {
  state: MatchState;
}

export interface InterviewCompletedSignalInput {
  userId: string;
}

/** Update `bothInRoom`: the built-in room saw both parties connected (the API's room hub sends it, each time they meet; only the first counts). */
export interface BothInRoomInput {
  /** The party whose arrival completed the pair (for the log). */
  userId: string;
}
/** Who did not come to the interview room of a `no_show` match. */
export const NO_SHOW_MISSING = ['seeker', 'recruiter', 'both'] as const;
export type NoShowMissing = (typeof NO_SHOW_MISSING)[number];

/** Update `enteredRoom`: one party is in the built-in room (the room hub sends it on each connection; only the first counts). */
export interface EnteredRoomInput {
  userId: string;
  role: MatchPartyRole;
}
/**
 * The patch id of the early updates (decision 0120): an accept or decline that arrived before the
 * settings were loaded is settled, and its effects run, before the lifecycle loop.
 */
export const MATCH_EARLY_UPDATES_PATCH = 'match-early-updates';
/** The patch id of the no-show grace timer (and per-party presence), read in match-opening.ts. */
export const MATCH_NO_SHOW_PATCH = 'match-no-show-after-grace';

/** The patch id (workflows/README.md) of the interview clock that starts when both are in the room. */
export const MATCH_ROOM_CLOCK_PATCH = 'match-interview-clock-starts-in-room';
/** ApplicationFailure type: `bothInRoom` for a match that is not accepted (the room is closed). */
export const MATCH_ROOM_CLOSED = 'MATCH_ROOM_CLOSED';

/** The patch id of a seeker's decline that also leaves the queue (`leaveQueue`) (match-answers.ts). */
export const MATCH_DECLINE_LEAVES_QUEUE_PATCH = 'match-decline-leaves-queue';

/** ApplicationFailure types of refused updates; the API answers 409 with the same code. */
export const MATCH_NOT_ACCEPTABLE = 'MATCH_NOT_ACCEPTABLE';
export const MATCH_NOT_DECLINABLE = 'MATCH_NOT_DECLINABLE';
/**
 * ApplicationFailure type (409 in the API): a recruiter's acceptance refused because they have no
 * free interview slot at the event under the availability rules (decision 0123); details carry
 * `{ active, capacity }`.
 */
export const MATCH_RECRUITER_AT_CAPACITY = 'MATCH_RECRUITER_AT_CAPACITY';
/**
 * The patch id (workflows/README.md) of "whoever of the team accepts is the interviewer" (decision
 * 0244): a recruiter's acceptance first claims the interview slot for the accepter
 * (`claimInterviewSlot`, a local activity) and is refused when they have none free.
 */
export const MATCH_INTERVIEWER_PATCH = 'match-accepter-is-interviewer';

export interface ClaimInterviewSlotInput {
  matchId: string;
  userId: string;
}
export interface ClaimInterviewSlotResult {
  /** False: the accepter has no free slot at the event (active offers ≥ capacity). */
  ok: boolean;
  /** The accepter's display name (for the details in the Temporal UI). */
  recruiterName: string | null;
  active?: number;
  capacity?: number;
}

export interface LoadMatchSettingsInput {
  teamId: string;
}
export interface LoadMatchSettingsResult {
  /** Team setting `auto_accept_matches`: recruiters of the team accept new matches automatically. */
  autoAcceptRecruiter: boolean;
  /**
   * MATCH_EXPIRY_REMINDER_MS: how long before `expires_at` the parties who have not accepted are
   * reminded. Optional: histories recorded before it answer without it (no reminder).
   */
  expiryReminderMs?: number;
  /**
   * INTERVIEW_REPORT_WINDOW_MS: how long a completed match waits for the recruiter's report card
   * (an "advance" then exchanges contact details by e-mail). Optional: older histories lack it
   * (the run ends at completion, as before).
   */
  reportWindowMs?: number;
}

/** Signal `interviewReported`: a recruiter saved the report card (the report itself is in PostgreSQL). */
export interface InterviewReportedSignalInput {
  outcome: 'advance' | 'follow_up' | 'pass';
}
/** The patch id of the wait for the report card after completion (match-interview.ts). */
export const MATCH_REPORT_PATCH = 'match-awaits-interview-report';

/** What the parties of a match are told by e-mail (through the outbox) and when. */
export const MATCH_NOTICE_KINDS = [
  'matched',
  'accepted',
  'declined',
  'expired',
  'expiring',
  'advance',
  'no_show',
] as const;
export type MatchNoticeKind = (typeof MATCH_NOTICE_KINDS)[number];
/** The patch id (workflows/README.md) of the e-mail notices (match-run.ts, match-answers.ts). */
export const MATCH_NOTICES_PATCH = 'match-notices-by-email';

export interface NotifyMatchPartiesInput {
  matchId: string;
  kind: MatchNoticeKind;
}
export interface NotifyMatchPartiesResult {
  /** Outbox rows for this notice (enqueued once: ids derive from match, kind and recipient). */
  outboxIds: string[];
  sent: number;
}

export interface ProjectMatchInput {
  state: MatchState;
  input: Pick<MatchInput, 'matchScore' | 'scoreVersion' | 'scoreBreakdown' | 'seekerViaAgent' | 'seekerAgentIdentity'>;
}

// Messages of the match workflow (the API and activities send them; the workflow handles them).
export const acceptMatchUpdate = defineUpdate<MatchUpdateResult, [AcceptMatchInput]>('accept');
export const declineMatchUpdate = defineUpdate<MatchUpdateResult, [DeclineMatchInput]>('decline');
export const interviewCompletedSignal = defineSignal<[InterviewCompletedSignalInput]>('interviewCompleted');
export const matchStateQuery = defineQuery<MatchState>('state');
export const interviewReportedSignal = defineSignal<[InterviewReportedSignalInput]>('interviewReported');
export const bothInRoomUpdate = defineUpdate<MatchUpdateResult, [BothInRoomInput]>('bothInRoom');
export const enteredRoomUpdate = defineUpdate<MatchUpdateResult, [EnteredRoomInput]>('enteredRoom');

/** Workflow type `matchWorkflow` (its export in workflows/index.ts): clients start it by this name, never by importing the implementation. */
export const MATCH_WORKFLOW = 'matchWorkflow';
export type MatchWorkflow = (input: MatchInput) => Promise<MatchResult>;

/**
 * Deterministic domain-event ids: `evt_` + a 128-bit FNV-1a hash of `<matchId>:<type>`, so a
 * retried or replayed emit of the same occurrence is the same event (the emitter and the webhook
 * deliveries collapse on it). Pure (no Node crypto inside workflow code); not a security hash.
 */
const FNV128_OFFSET = BigInt('0x6c62272e07bb014262b821756295c58d');
const FNV128_PRIME = BigInt('0x0000000001000000000000000000013B');
const MASK128 = (BigInt(1) << BigInt(128)) - BigInt(1);

export function domainEventId(matchId: string, type: string): string {
  let h = FNV128_OFFSET;
  const input = `${matchId}:${type}`;
  for (let i = 0; i < input.length; i++) {
    h ^= BigInt(input.charCodeAt(i));
    h = (h * FNV128_PRIME) & MASK128;
  }
  return `evt_${h.toString(16).padStart(32, '0')}`;
}

/** Names the client adds to a match's start (they are not workflow input: only the UI shows them). */
export interface MatchStartNames {
  seekerName: string | null;
  companyName: string | null;
  /** The recruiter the offer went to (events with availability), else null: the whole team. The suggested interviewer: whoever of the team accepts interviews. */
  recruiterName: string | null;
}

/** What the Temporal UI shows for `match:<id>`: the seeker, the job and the company by name (workflows/shared/summary.ts). */
export function matchStartMetadata(
  input: Pick<
    MatchInput,
    'matchId' | 'jobTitle' | 'liveEventSlug' | 'seekerUserId' | 'matchScore' | 'seekerViaAgent' | 'seekerAgentIdentity'
  >,
  names: MatchStartNames,
): StartMetadata {
  const seeker = temporalName(names.seekerName, 'A seeker');
  const company = temporalName(names.companyName, input.liveEventSlug);
  const recruiter = names.recruiterName ? temporalName(names.recruiterName, 'a recruiter') : null;
  return {
    // "offered to": the summary is written once at the start; a teammate may accept and interview
    // instead (the current details then name the interviewer).
    staticSummary: `${seeker} × "${temporalName(input.jobTitle, 'a job')}" at ${company}${recruiter ? `, offered to ${recruiter}` : ''}`,
    staticDetails: detailLines([
      ['Seeker', `${seeker}${input.seekerViaAgent ? ` (via agent ${input.seekerAgentIdentity ?? 'unnamed'})` : ''}`],
      ['Job', `${input.jobTitle} at ${company} (event ${input.liveEventSlug})`],
      [
        'Offered to',
        recruiter
          ? `${recruiter} (suggested; whoever of the team accepts interviews)`
          : "any recruiter of the company's team",
      ],
      ['Match score', input.matchScore],
      ['Match id', input.matchId],
      ['Seeker user id', input.seekerUserId],
    ]),
  };
}
