import type { MatchScore, SeekerForScore } from '../../domain/matchmaking/match-score';
import { CandidateIndex, type Candidate, type CandidateJob } from './candidates';

/**
 * One matching round's plan, pure (docs/decisions/0010-matchmaker.md): given the waiting entries
 * (oldest first), each with its candidates (per event its best job, best first — candidates.ts),
 * and each event's free slots, choose pairs.
 *
 * - An entry for one event only gets that event's jobs; an "any event" entry gets jobs of live
 *   open-invite events (the candidate search's scopes).
 * - Each entry's candidates are ranked by score (ties: the event with more free slots, then the
 *   job id, so the plan is deterministic).
 * - Entries are served by score band (scores within the same SCORE_BAND points are "comparable"),
 *   and within a band oldest first. Each takes its best job whose event still has a free slot.
 * - A slot is never planned twice: `free` is decremented as pairs are chosen.
 * - A pair whose earlier match was declined or expired is not proposed again (`excludedPairs`,
 *   applied by the candidate search).
 */
export const SCORE_BAND = 20;

export interface PlanEntry {
  id: string;
  userId: string;
  liveEventId: string | null;
  enteredAtMs: number;
  seeker: SeekerForScore;
}

export type PlanJob = CandidateJob;

export interface PlannedPair<E extends PlanEntry = PlanEntry, J extends PlanJob = PlanJob> {
  entry: E;
  job: J;
  score: MatchScore;
}

export interface RankedEntry<E extends PlanEntry, J extends PlanJob> {
  entry: E;
  /** Per event its best job, best first (candidates.ts). */
  candidates: Array<Candidate<J>>;
  /** False when the list was cut (more events could take the entry); see `refill`. */
  complete: boolean;
}

/**
 * Serves ranked entries: by band of their best score, oldest first within a band, each its best
 * job whose event still has a free slot. When every listed event of a cut list is full by the
 * entry's turn, `refill` asks the candidate search again for the best job of an event that is not
 * full — so the plan is the one a full list would give.
 */
export function planFromCandidates<E extends PlanEntry, J extends PlanJob>(
  ranked: Array<RankedEntry<E, J>>,
  freeByEvent: ReadonlyMap<string, number>,
  refill?: (entry: E, isFull: (eventId: string) => boolean) => Candidate<J> | undefined,
): Array<PlannedPair<E, J>> {
  const free = new Map(freeByEvent);
  const order = ranked
    .filter((r) => r.candidates.length > 0)
    .map((r) => ({ ...r, band: Math.floor(r.candidates[0].score.score / SCORE_BAND) }))
    .sort(
      (a, b) => b.band - a.band || a.entry.enteredAtMs - b.entry.enteredAtMs || a.entry.id.localeCompare(b.entry.id),
    );

  const pairs: Array<PlannedPair<E, J>> = [];
  for (const r of order) {
    const isFull = (eventId: string) => (free.get(eventId) ?? 0) <= 0;
    const pick =
      r.candidates.find((c) => !isFull(c.job.liveEventId)) ?? (r.complete ? undefined : refill?.(r.entry, isFull));
    if (!pick || isFull(pick.job.liveEventId)) continue;
    free.set(pick.job.liveEventId, (free.get(pick.job.liveEventId) ?? 0) - 1);
    pairs.push({ entry: r.entry, job: pick.job, score: pick.score });
  }
  return pairs;
}

/** The whole plan over a list of jobs, every event considered for every entry (tests, small inputs). */
export function planMatches(input: {
  entries: PlanEntry[];
  jobs: PlanJob[];
  freeByEvent: Map<string, number>;
  openInviteEventIds: ReadonlySet<string>;
  excludedPairs: ReadonlySet<string>;
}): PlannedPair[] {
  const index = new CandidateIndex(input.jobs, input.openInviteEventIds);
  const ranked = input.entries.map((entry) => ({
    entry,
    candidates: index.bestPerEvent(entry, {
      limit: Infinity,
      free: input.freeByEvent,
      excluded: (jobId) => input.excludedPairs.has(pairKey(entry.id, jobId)),
    }),
    complete: true,
  }));
  return planFromCandidates(ranked, input.freeByEvent);
}

export const pairKey = (entryId: string, jobId: string) => `${entryId}:${jobId}`;
