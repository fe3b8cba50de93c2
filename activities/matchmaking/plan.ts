import { computeMatchScore, type JobForScore, type MatchScore, type SeekerForScore } from './match-score';

/**
 * One matching round's plan, pure (docs/decisions/0010-matchmaker.md): given the waiting entries
 * (oldest first), the open jobs of live events and each event's free slots, choose pairs.
 *
 * - An entry for one event only gets that event's jobs; an "any event" entry gets jobs of live
 *   open-invite events.
 * - Each entry's candidate jobs are ranked by score (ties: the event with more free slots, then
 *   the job id, so the plan is deterministic).
 * - Entries are served by score band (scores within the same SCORE_BAND points are "comparable"),
 *   and within a band oldest first. Each takes its best job whose event still has a free slot.
 * - A slot is never planned twice: `free` is decremented as pairs are chosen.
 * - A pair whose earlier match was declined or expired is not proposed again (`excludedPairs`).
 */
export const SCORE_BAND = 20;

export interface PlanEntry {
  id: string;
  userId: string;
  liveEventId: string | null;
  enteredAtMs: number;
  seeker: SeekerForScore;
}

export interface PlanJob extends JobForScore {
  id: string;
  liveEventId: string;
}

export interface PlannedPair {
  entry: PlanEntry;
  job: PlanJob;
  score: MatchScore;
}

export function planMatches(input: {
  entries: PlanEntry[];
  jobs: PlanJob[];
  freeByEvent: Map<string, number>;
  openInviteEventIds: ReadonlySet<string>;
  excludedPairs: ReadonlySet<string>;
}): PlannedPair[] {
  const free = new Map(input.freeByEvent);
  const ranked = input.entries
    .map((entry) => {
      const candidates = input.jobs
        .filter((job) => (entry.liveEventId ? job.liveEventId === entry.liveEventId : input.openInviteEventIds.has(job.liveEventId)))
        .filter((job) => !input.excludedPairs.has(pairKey(entry.id, job.id)))
        .map((job) => ({ job, score: computeMatchScore(entry.seeker, job) }))
        .sort((a, b) => b.score.score - a.score.score || (free.get(b.job.liveEventId) ?? 0) - (free.get(a.job.liveEventId) ?? 0) || a.job.id.localeCompare(b.job.id));
      return { entry, candidates, band: candidates.length ? Math.floor(candidates[0].score.score / SCORE_BAND) : -1 };
    })
    .filter((r) => r.candidates.length > 0)
    .sort((a, b) => b.band - a.band || a.entry.enteredAtMs - b.entry.enteredAtMs || a.entry.id.localeCompare(b.entry.id));

  const pairs: PlannedPair[] = [];
  for (const r of ranked) {
    const pick = r.candidates.find((c) => (free.get(c.job.liveEventId) ?? 0) > 0);
    if (!pick) continue;
    free.set(pick.job.liveEventId, (free.get(pick.job.liveEventId) ?? 0) - 1);
    pairs.push({ entry: r.entry, job: pick.job, score: pick.score });
  }
  return pairs;
}

export const pairKey = (entryId: string, jobId: string) => `${entryId}:${jobId}`;
