import type { MatchScore, SeekerForScore } from '#domain/matchmaking/match-score';
import { solveBMatching, type BEdge } from './b-matching';
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

/** MATCHMAKING_PLANNER=assignment: points a whole TTL of waiting adds to a pair's weight (one score band). */
export const WAIT_POINTS = SCORE_BAND;
/** Points a pair gains at the event with the most free slots (load balancing; less than a tenth of a score point apart otherwise matters). */
export const BALANCE_POINTS = 2;

/**
 * The assignment planner (MATCHMAKING_PLANNER=assignment): the page's entries are assigned to the
 * events' free slots all at once, as the max-weight bipartite b-matching of entries (one each) and
 * events (their free slots), solved by HiGHS (b-matching.ts). An entry's edge to an event is its
 * best job there (its candidates); the weight is the score, plus up to WAIT_POINTS for waiting
 * (the share of the entry's TTL waited, so nobody starves) and up to BALANCE_POINTS toward the
 * events with most free slots (recruiter load balancing). Where greedy lets the first entry take
 * the slot a later one needed (each of them fitting only that event otherwise), the assignment
 * gives each its own. Entries left out whose candidate list was cut are then served from `refill`
 * as the greedy plan does. Pairs come best weight first, so a round's offer bound keeps the best.
 */
export async function planByAssignment<E extends PlanEntry, J extends PlanJob>(
  ranked: Array<RankedEntry<E, J>>,
  freeByEvent: ReadonlyMap<string, number>,
  opts: { nowMs: number; ttlMs: number },
  refill?: (entry: E, isFull: (eventId: string) => boolean) => Candidate<J> | undefined,
): Promise<Array<PlannedPair<E, J>>> {
  const free = new Map(freeByEvent);
  const maxFree = Math.max(1, ...free.values());
  const edges: Array<BEdge & { r: RankedEntry<E, J>; c: Candidate<J> }> = [];
  for (const r of ranked) {
    const waited = Math.min(1, Math.max(0, opts.nowMs - r.entry.enteredAtMs) / Math.max(1, opts.ttlMs));
    for (const c of r.candidates) {
      const room = free.get(c.job.liveEventId) ?? 0;
      if (room <= 0) continue;
      edges.push({
        left: r.entry.id,
        right: c.job.liveEventId,
        weight: c.score.score + WAIT_POINTS * waited + (BALANCE_POINTS * room) / maxFree + 1e-3,
        r,
        c,
      });
    }
  }
  const solved = await solveBMatching({ edges, rightCapacity: free });
  const chosen = solved.chosen
    .map((i) => edges[i])
    .sort((a, b) => b.weight - a.weight || a.r.entry.enteredAtMs - b.r.entry.enteredAtMs);
  const pairs: Array<PlannedPair<E, J>> = [];
  const served = new Set<string>();
  for (const e of chosen) {
    const left = free.get(e.right) ?? 0;
    if (left <= 0 || served.has(e.r.entry.id)) continue; // the solver's answer is re-checked, never trusted blindly
    free.set(e.right, left - 1);
    served.add(e.r.entry.id);
    pairs.push({ entry: e.r.entry, job: e.c.job, score: e.c.score });
  }
  if (refill) {
    const isFull = (eventId: string) => (free.get(eventId) ?? 0) <= 0;
    const rest = ranked
      .filter((r) => !served.has(r.entry.id) && !r.complete && r.candidates.every((c) => isFull(c.job.liveEventId)))
      .sort((a, b) => a.entry.enteredAtMs - b.entry.enteredAtMs || a.entry.id.localeCompare(b.entry.id));
    for (const r of rest) {
      const pick = refill(r.entry, isFull);
      if (!pick || isFull(pick.job.liveEventId)) continue;
      free.set(pick.job.liveEventId, (free.get(pick.job.liveEventId) ?? 0) - 1);
      pairs.push({ entry: r.entry, job: pick.job, score: pick.score });
    }
  }
  return pairs;
}

export type PlannerName = 'greedy' | 'assignment';

/** The whole plan over a list of jobs, every event considered for every entry (tests, small inputs). */
export function planMatches(input: PlanMatchesInput): PlannedPair[] {
  return planFromCandidates(rankAll(input), input.freeByEvent);
}

/** planMatches with a chosen planner (the assignment planner's answer is asynchronous). */
export async function planMatchesWith(
  planner: PlannerName,
  input: PlanMatchesInput & { nowMs?: number; ttlMs?: number },
): Promise<PlannedPair[]> {
  const ranked = rankAll(input);
  return planner === 'greedy'
    ? planFromCandidates(ranked, input.freeByEvent)
    : planByAssignment(ranked, input.freeByEvent, {
        nowMs: input.nowMs ?? Date.now(),
        ttlMs: input.ttlMs ?? 2 * 60 * 60 * 1000,
      });
}

export interface PlanMatchesInput {
  entries: PlanEntry[];
  jobs: PlanJob[];
  freeByEvent: Map<string, number>;
  openInviteEventIds: ReadonlySet<string>;
  excludedPairs: ReadonlySet<string>;
  /** The candidate search's floor per entry (default: none). */
  floorOf?: (entry: PlanEntry) => Parameters<CandidateIndex<PlanJob>['bestPerEvent']>[1]['floor'];
}

function rankAll(input: PlanMatchesInput) {
  const index = new CandidateIndex(input.jobs, input.openInviteEventIds);
  return input.entries.map((entry) => ({
    entry,
    candidates: index.bestPerEvent(entry, {
      limit: Infinity,
      free: input.freeByEvent,
      excluded: (jobId) => input.excludedPairs.has(pairKey(entry.id, jobId)),
      floor: input.floorOf?.(entry),
    }),
    complete: true,
  }));
}

export const pairKey = (entryId: string, jobId: string) => `${entryId}:${jobId}`;
