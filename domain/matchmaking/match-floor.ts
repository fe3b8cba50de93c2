import type { FloorBracket } from '#lib/config';

/**
 * The quality floor (docs/match-score.md, v2; decision 0122): per event a minimum score and "at
 * least one essential skill", relaxed in brackets as the seeker waits (MATCH_FLOOR_BRACKETS).
 * Pure: the matchmaker applies it in the candidate search, the queue status explains it.
 */
export interface EventFloor {
  /** The event's minimum score (its own setting or MATCH_MIN_SCORE). */
  minScore: number;
  /** The event requires at least one of a job's essential skills (its own setting, default true). */
  requireEssential: boolean;
  /**
   * The brackets that lift the essential-skill rule (MATCH_FLOOR_BRACKETS) lift it at this event
   * (its own setting, default false: a pair sharing none of a job's essential skills is never
   * offered while `requireEssential`, however long the seeker waits).
   */
  relaxEssential?: boolean;
  /** Pairs whose remote modes cannot meet (`hardRemoteMismatch`) may be offered (default false). */
  allowRemoteMismatch?: boolean;
}

/** An event's floor from its row's settings (null: the defaults). */
export function eventFloorOf(
  e: {
    match_min_score: number | null;
    match_require_essential: boolean | null;
    match_relax_essential?: boolean | null;
    match_allow_remote_mismatch?: boolean | null;
  },
  defaultMinScore: number,
): EventFloor {
  return {
    minScore: e.match_min_score ?? defaultMinScore,
    requireEssential: e.match_require_essential ?? true,
    relaxEssential: e.match_relax_essential ?? false,
    allowRemoteMismatch: e.match_allow_remote_mismatch ?? false,
  };
}

/** Floors with equal settings share one key (an "any event" entry computes each distinct floor once). */
export const floorKey = (f: EventFloor) =>
  `${f.minScore}:${f.requireEssential}:${f.relaxEssential === true}:${f.allowRemoteMismatch === true}`;

/** The floor that applied to a match: part of its explanation (`score_breakdown.floor`). */
export interface AppliedFloor {
  /** 0-based index of the bracket in MATCH_FLOOR_BRACKETS. */
  bracket: number;
  brackets: number;
  waited_seconds: number;
  min_score: number;
  essential_required: boolean;
  /** A pair whose remote modes cannot meet passes (the event allows it); absent on older matches: false. */
  remote_mismatch_allowed?: boolean;
}

export function bracketIndex(waitedMs: number, brackets: readonly FloorBracket[]): number {
  let i = 0;
  while (i + 1 < brackets.length && waitedMs >= brackets[i + 1].afterMs) i++;
  return i;
}

export function floorFor(event: EventFloor, waitedMs: number, brackets: readonly FloorBracket[]): AppliedFloor {
  const i = bracketIndex(Math.max(0, waitedMs), brackets);
  const b = brackets[i];
  return {
    bracket: i,
    brackets: brackets.length,
    waited_seconds: Math.max(0, Math.floor(waitedMs / 1000)),
    min_score: Math.max(0, event.minScore - b.relax),
    // A relaxed bracket lifts the essential-skill rule only where the event allows it.
    essential_required: event.requireEssential && (b.essential || event.relaxEssential !== true),
    remote_mismatch_allowed: event.allowRemoteMismatch === true,
  };
}

/** When the floor next changes for an entry that has waited `waitedMs` (ms after entering), or null in the last bracket. */
export function nextBracketAfterMs(waitedMs: number, brackets: readonly FloorBracket[]): number | null {
  const i = bracketIndex(Math.max(0, waitedMs), brackets);
  return i + 1 < brackets.length ? brackets[i + 1].afterMs : null;
}

/**
 * A job passes when its score reaches the floor, if required the seeker has one of its essential
 * skills (a job listing none passes), and the remote modes can meet unless the event allows a
 * mismatch (`remoteMismatch`: `hardRemoteMismatch` of the job's mode and the seeker's preference).
 */
export function passesFloor(
  floor: Pick<AppliedFloor, 'min_score' | 'essential_required' | 'remote_mismatch_allowed'>,
  score: number,
  essentialMatched: number,
  essentialListed: number,
  remoteMismatch = false,
): boolean {
  if (score < floor.min_score) return false;
  if (remoteMismatch && floor.remote_mismatch_allowed !== true) return false;
  return !floor.essential_required || essentialListed === 0 || essentialMatched > 0;
}

/** Why a job fails the floor (null: it passes), in the order `passesFloor` checks. */
export type FloorFailure = 'score' | 'remote_mismatch' | 'no_essential_skill';
export function floorFailure(
  floor: Pick<AppliedFloor, 'min_score' | 'essential_required' | 'remote_mismatch_allowed'>,
  score: number,
  essentialMatched: number,
  essentialListed: number,
  remoteMismatch = false,
): FloorFailure | null {
  if (score < floor.min_score) return 'score';
  if (remoteMismatch && floor.remote_mismatch_allowed !== true) return 'remote_mismatch';
  if (floor.essential_required && essentialListed > 0 && essentialMatched === 0) return 'no_essential_skill';
  return null;
}
