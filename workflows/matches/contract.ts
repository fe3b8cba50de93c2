/**
 * Contract of the matches capability: the match workflow's id, Input/Result types and the payloads
 * of its messages. Pure: imported by the workflow, its activities and the API.
 *
 * Lifecycle: `matched` → (both parties accept, or the seeker accepts and the team auto-accepts)
 * `accepted` → (interviewCompleted signal, or the interview length elapses) `completed`;
 * `matched` → decline → `declined`; `matched` → acceptance window elapses → `expired`.
 */
export const matchWorkflowId = (matchId: string): string => `match:${matchId}`;

export type MatchStatus = 'matched' | 'accepted' | 'declined' | 'expired' | 'completed';
export type MatchPartyRole = 'seeker' | 'recruiter';

export interface MatchInput {
  matchId: string;
  queueEntryId: string;
  seekerUserId: string;
  /** Recruiters of the job's team when the match was made (owners of its events besides the seeker). */
  recruiterUserIds: string[];
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
  acceptedAtMs: number | null;
  interviewEndsAtMs: number | null;
  declinedAtMs: number | null;
  declinedBy: string | null;
  declinedByRole: MatchPartyRole | null;
  declineReason: string | null;
  expiredAtMs: number | null;
  completedAtMs: number | null;
  completedBy: string | null;
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
}

export interface MatchUpdateResult {
  state: MatchState;
}

export interface InterviewCompletedSignalInput {
  userId: string;
}

/** ApplicationFailure types of refused updates; the API answers 409 with the same code. */
export const MATCH_NOT_ACCEPTABLE = 'MATCH_NOT_ACCEPTABLE';
export const MATCH_NOT_DECLINABLE = 'MATCH_NOT_DECLINABLE';

export interface LoadMatchSettingsInput {
  teamId: string;
}
export interface LoadMatchSettingsResult {
  /** Team setting `auto_accept_matches`: recruiters of the team accept new matches automatically. */
  autoAcceptRecruiter: boolean;
}

export interface ProjectMatchInput {
  state: MatchState;
  input: Pick<MatchInput, 'matchScore' | 'scoreVersion' | 'scoreBreakdown' | 'seekerViaAgent' | 'seekerAgentIdentity'>;
}
