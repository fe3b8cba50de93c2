import type { FloorBracket } from '../../lib/config';

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
}

/** The floor that applied to a match: part of its explanation (`score_breakdown.floor`). */
export interface AppliedFloor {
  /** 0-based index of the bracket in MATCH_FLOOR_BRACKETS. */
  bracket: number;
  brackets: number;
  waited_seconds: number;
  min_score: number;
  essential_required: boolean;
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
    essential_required: event.requireEssential && b.essential,
  };
}

/** A job passes when its score reaches the floor and, if required, the seeker has one of its essential skills (a job listing none passes). */
export function passesFloor(
  floor: Pick<AppliedFloor, 'min_score' | 'essential_required'>,
  score: number,
  essentialMatched: number,
  essentialListed: number,
): boolean {
  if (score < floor.min_score) return false;
  return !floor.essential_required || essentialListed === 0 || essentialMatched > 0;
}
