import type { EventVisibility } from '../events/events-repository';
import type { JobScoreRow } from '#domain/matchmaking/score-inputs';

/** The rows the matchmaker reads and writes (`match_offers`, and what a round plans from). */
export type MatchOfferStatus = 'offering' | 'started' | 'refused' | 'closed';

export interface MatchOfferInsert {
  id: string;
  queue_entry_id: string;
  queue_live_event_id: string | null;
  seeker_user_id: string;
  job_id: string;
  live_event_id: string;
  team_id: string;
  match_score: number;
  score_breakdown: unknown;
  score_version: string;
  entered_at: Date;
  /** Set by `holdSlots` for events with recruiter availability (round-robin). */
  recruiter_user_id?: string | null;
}

/** Everything the matchmaker needs to offer a planned pair and start its match workflow. */
export interface OfferContext {
  id: string;
  /** The recruiter the offer went to (events with availability), else null. */
  recruiter_user_id: string | null;
  status: MatchOfferStatus;
  queue_entry_id: string;
  seeker_user_id: string;
  job_id: string;
  job_title: string;
  live_event_id: string;
  live_event_slug: string;
  team_id: string;
  match_score: number;
  score_breakdown: unknown;
  score_version: string;
  seeker_headline: string | null;
  seeker_via_agent: boolean;
  seeker_agent_identity: string | null;
  created_at: Date;
  /** Names for the Temporal UI's start summary. */
  seeker_name: string | null;
  company_name: string | null;
  recruiter_name: string | null;
}

/** A live event that can take a match now: open jobs and a free slot (read without locks). */
export interface EventWithRoom {
  id: string;
  visibility: EventVisibility;
  interview_slots: number;
  free: number;
  /** The event's quality floor settings (null: the configured default). */
  match_min_score: number | null;
  match_require_essential: boolean | null;
  match_relax_essential: boolean | null;
  match_allow_remote_mismatch: boolean | null;
}

/**
 * A live event's room as the round counts it, part by part (`listEventsWithRoom`): what the wait
 * explanation names when a seeker cannot be offered for lack of room.
 */
export interface EventRoom extends EventWithRoom {
  slug: string;
  has_jobs: boolean;
  /** interview_slots − offers being made − matches started and not ended. */
  slots_free: number;
  /** Recruiters who set availability at the event (0: event-level capacity only). */
  recruiters: number;
  /** Of them, those who take new interviews. */
  recruiters_available: number;
  /** Σ over available recruiters of capacity − their open offers at the event. */
  recruiter_free: number;
}

export interface WaitingCandidate {
  id: string;
  user_id: string;
  live_event_id: string | null;
  entered_at: Date;
  skills: string[];
  experience_years: number;
  location: string | null;
  remote_preference: string | null;
  /** The seeker's lowest acceptable yearly salary (profile, optional): the score's salary component. */
  salary_expectation: number | null;
}

/** What holding slots for one event did with the planned offers (see `holdSlots`). */
export interface HoldResult {
  /** Offers written (`offering`): the slots are held. */
  held: string[];
  /** The entry (or the event, past the lock timeout) was locked by someone else: try again next round. */
  busy: number;
  /** No slot left when its turn came (another round took it meanwhile). */
  full: number;
  /** No longer possible: the event is not live, the entry not waiting (or already offered), the job closed, the pair already tried. */
  stale: number;
}

export interface OpenJob extends JobScoreRow {
  id: string;
  team_id: string;
  live_event_id: string;
}
