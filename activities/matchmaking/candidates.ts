import {
  computeMatchScore,
  experienceScore,
  locationScore,
  MATCH_SCORE_WEIGHTS,
  norm,
  round,
  skillKey,
  salaryScore,
  type JobForScore,
  type MatchScore,
  type SeekerForScore,
} from '#domain/matchmaking/match-score';
import { BUCKETS, bucketOf, buildScope, ceilingBucket, pairOf, type CandidateJob, type Scope } from './candidate-scope';

/**
 * Candidate search for the matchmaker (docs/decisions/0010-matchmaker.md): for one waiting entry,
 * the best-scoring job of each event it may go to, best events first, at most `limit` events —
 * without building a score breakdown for every job.
 *
 * The v1 score (match-score.ts) depends on the skills only through the matched essential and
 * bonus counts, so a job's score ceiling (the non-skill components at 1) is its fixed part plus one
 * term per skill of the seeker it lists. Per scope (kept between rounds with the job cache) the
 * index holds, per normalised skill, the jobs listing it sorted by their ceiling for a seeker who
 * shares that one skill (decision 0235), and per pair of skills listed together the jobs listing
 * both. For one entry:
 *
 * 1. jobs sharing two or more of the seeker's skills are the union of the pair lists of the
 *    seeker's skill pairs (few): their matched counts and ceilings are computed at once;
 * 2. every other job sharing a skill shares exactly one, so its ceiling is its place in that
 *    skill's list: the lists are read lazily, only as far down as the walk goes;
 * 3. jobs sharing no skill have a ceiling that does not depend on the seeker: they wait in one
 *    list per scope, highest ceiling first, and are reached only if the walk gets that low;
 * 4. the walk goes from 100 down in steps of 0.1 (the score's precision): at each level the jobs
 *    whose ceiling is that level are scored exactly (landing at that level or below), then the
 *    jobs scoring exactly that level update their event's best; it stops once `limit` events are
 *    known, since nothing lower can change the first `limit`, or below the floor.
 *
 * A popular skill shared with thousands of jobs therefore costs only the jobs above the level where
 * the walk stops, not all of them (before 0235 every job sharing a skill was counted and bucketed).
 * The result equals scoring every job of the scope and keeping each event's best (same scores,
 * same order, ties included); the candidate tests compare both on random data. Only the returned
 * candidates get a full `computeMatchScore` (breakdown).
 */

export type { CandidateJob } from './candidate-scope';

const W = MATCH_SCORE_WEIGHTS;

/** Which events of the "any event" scope an entry may get now: per job its event's ordinal, per ordinal 1 = allowed. */
export interface AnyEventMask {
  eventOf: Int32Array;
  allowed: Uint8Array;
}

export interface Candidate<J extends CandidateJob = CandidateJob> {
  job: J;
  score: MatchScore;
}

/** A seeker as the search reads it. */
export interface PreparedSeeker {
  seeker: SeekerForScore;
  skills: Set<string>;
  place: string | null;
  expectation: number | null;
}

export function prepareSeeker(seeker: SeekerForScore): PreparedSeeker {
  return {
    seeker,
    skills: new Set(seeker.skills.map(skillKey)),
    place: seeker.location ? norm(seeker.location) : null,
    expectation: seeker.salaryExpectationMin ?? null,
  };
}

/**
 * The v1 score of a seeker for a job given how many of its essential and bonus skills the seeker
 * has — `computeMatchScore(...).score` without the breakdown: the same components, summed in the
 * same order and rounded the same way. `location` is the job's location component (null: not scored).
 */
export function scoreFromCounts(
  s: PreparedSeeker,
  job: JobForScore,
  essentialMatched: number,
  bonusMatched: number,
  location: number | null,
): number {
  let weighted = 0;
  let weights = 0;
  const e = job.essentialSkills.length;
  if (e) {
    weighted += W.essential_skills * round(essentialMatched / e, 4);
    weights += W.essential_skills;
  }
  const b = job.bonusSkills.length;
  if (b) {
    weighted += W.bonus_skills * round(bonusMatched / b, 4);
    weights += W.bonus_skills;
  }
  weighted += W.experience * experienceScore(s.seeker.experienceYears, job.experienceMin);
  weights += W.experience;
  const salary = salaryScore(s.expectation, job.salaryMin, job.salaryMax);
  if (salary !== null) {
    weighted += W.salary * salary;
    weights += W.salary;
  }
  if (location !== null) {
    weighted += W.location * location;
    weights += W.location;
  }
  return weights ? round((100 * weighted) / weights, 1) : 0;
}

/** What searches did (for tests and benchmarks): jobs in scope, jobs sharing a skill, jobs scored. */
export interface SearchStats {
  searches: number;
  jobs: number;
  sharingSkills: number;
  scored: number;
}

export const newSearchStats = (): SearchStats => ({ searches: 0, jobs: 0, sharingSkills: 0, scored: 0 });

/** Candidates are ordered by score, then the event with more free slots, then job id (deterministic). */
export function compareCandidates(free: ReadonlyMap<string, number>) {
  return (a: Candidate, b: Candidate) =>
    b.score.score - a.score.score ||
    (free.get(b.job.liveEventId) ?? 0) - (free.get(a.job.liveEventId) ?? 0) ||
    (a.job.id < b.job.id ? -1 : a.job.id > b.job.id ? 1 : 0);
}

/**
 * The jobs one round may offer, indexed once per round and per scope: an event's own jobs (entries
 * for that event) or the jobs of every open-invite event with room (entries for any event).
 */
export class CandidateIndex<J extends CandidateJob> {
  private readonly scopes = new Map<string, Scope<J>>();
  /** Per scope: per job matched counts, touched flag, score; per skill id the seeker's (reset after each entry). */
  private readonly scratch = new Map<string, Scratch>();

  private readonly byEvent = new Map<string, J[]>();

  constructor(
    jobs: readonly J[],
    private readonly openInviteEventIds: ReadonlySet<string>,
  ) {
    for (const j of jobs) {
      const list = this.byEvent.get(j.liveEventId);
      if (list) list.push(j);
      else this.byEvent.set(j.liveEventId, [j]);
    }
  }

  /**
   * A mask narrowing the "any event" scope to these events (e.g. the open-invite events with a
   * free slot now), for `bestPerEvent`'s `anyEventMask`: an index kept between rounds over every
   * open-invite event's jobs then answers as one built over only these events' jobs would.
   */
  anyEventMask(eventIds: ReadonlySet<string>): AnyEventMask {
    const scope = this.scope(null);
    return { eventOf: scope.eventOf, allowed: Uint8Array.from(scope.eventIds, (id) => (eventIds.has(id) ? 1 : 0)) };
  }

  private scope(liveEventId: string | null): Scope<J> {
    const key = liveEventId ?? '*';
    let scope = this.scopes.get(key);
    if (scope) return scope;
    const jobs = liveEventId
      ? (this.byEvent.get(liveEventId) ?? [])
      : [...this.byEvent].flatMap(([eventId, js]) => (this.openInviteEventIds.has(eventId) ? js : []));
    scope = buildScope(jobs);
    this.scopes.set(key, scope);
    this.scratch.set(key, {
      essential: new Int32Array(jobs.length),
      bonus: new Int32Array(jobs.length),
      seen: new Uint8Array(jobs.length),
      scores: new Float64Array(jobs.length),
      has: new Uint8Array(scope.skillIds.size),
    });
    return scope;
  }

  /**
   * One entry's candidates: per event its best job, the best `limit` events first, ordered by
   * `compareCandidates(free)`. `excluded(jobId)` drops jobs this entry must not be offered again,
   * `skipEvent(eventId)` whole events (full ones, when the planner asks again). Equal to scoring
   * every job of the scope and keeping each event's best.
   */
  bestPerEvent(
    entry: { liveEventId: string | null; seeker: SeekerForScore },
    opts: BestPerEventOptions<J>,
  ): Array<Candidate<J>> {
    const scope = this.scope(entry.liveEventId);
    if (!scope.jobs.length || opts.limit <= 0) return [];
    const s = prepareSeeker(entry.seeker);
    const scratch = this.scratch.get(entry.liveEventId ?? '*')!;
    const mask = entry.liveEventId ? null : (opts.anyEventMask ?? null);
    const sids = seekerSkillIds(scope, s);
    const w: Walk<J> = {
      scope,
      s,
      scratch,
      sids,
      touched: [],
      allowed: (i: number) => !mask || mask.allowed[mask.eventOf[i]] === 1,
      essentialRequired: opts.floor?.essentialRequired === true,
      location: locationOf(scope, s),
      exact: new Array(BUCKETS),
      stats: opts.stats,
    };
    for (const id of sids) scratch.has[id] = 1;
    try {
      const best = walkLevels(w, sharingSeveral(w), opts);
      if (opts.stats) {
        opts.stats.searches++;
        opts.stats.sharingSkills += w.touched.length;
        opts.stats.jobs += scope.jobs.length;
      }
      return rankBest(w, best, entry.seeker, opts.free, opts.limit);
    } finally {
      for (const i of w.touched) {
        scratch.essential[i] = 0;
        scratch.bonus[i] = 0;
        scratch.seen[i] = 0;
      }
      for (const id of sids) scratch.has[id] = 0;
    }
  }
}

/** What `bestPerEvent` takes besides the entry. */
export interface BestPerEventOptions<J extends CandidateJob> {
  limit: number;
  free: ReadonlyMap<string, number>;
  excluded?: (jobId: string) => boolean;
  skipEvent?: (eventId: string) => boolean;
  /** For an "any event" entry: only jobs of the events the mask allows (`anyEventMask`). */
  anyEventMask?: AnyEventMask;
  stats?: SearchStats;
  /**
   * The quality floor (floor.ts): a job whose score or essential-skill count does not pass its
   * event's floor is not a candidate; `minScore` is the lowest floor of the scope (the walk
   * stops below it: nothing lower can pass). `essentialRequired`: every event of the scope
   * requires one of a job's essential skills now, so a job listing essential skills of which
   * the seeker has none is skipped unscored (it cannot pass).
   */
  floor?: {
    minScore: number;
    essentialRequired?: boolean;
    passes: (job: J, score: number, essentialMatched: number) => boolean;
  };
}

/** Per scope: per job matched counts, touched flag, score; per skill id the seeker's (reset after each entry). */
interface Scratch {
  essential: Int32Array;
  bonus: Int32Array;
  seen: Uint8Array;
  scores: Float64Array;
  has: Uint8Array;
}

/** One entry's search over a scope: the seeker, the scratch arrays and the jobs it touched (reset afterwards). */
interface Walk<J extends CandidateJob> {
  scope: Scope<J>;
  s: PreparedSeeker;
  scratch: Scratch;
  /** The seeker's skills known to the scope (others match no job). */
  sids: number[];
  touched: number[];
  allowed: (i: number) => boolean;
  essentialRequired: boolean;
  location: (i: number) => number | null;
  /** Per bucket the jobs scored exactly there. */
  exact: Array<number[] | undefined>;
  stats?: SearchStats;
}

/** The seeker's skills known to the scope, as its skill ids. */
function seekerSkillIds<J extends CandidateJob>(scope: Scope<J>, s: PreparedSeeker): number[] {
  const sids: number[] = [];
  for (const skill of s.skills) {
    const id = scope.skillIds.get(skill);
    if (id !== undefined) sids.push(id);
  }
  return sids;
}

/** The location component per (remote mode, place): the same few values for many jobs, computed once each. */
function locationOf<J extends CandidateJob>(scope: Scope<J>, s: PreparedSeeker): (i: number) => number | null {
  const places = scope.places.length + 1;
  const locationMemo = new Float64Array((scope.modes.length + 1) * places).fill(-1);
  return (i: number): number | null => {
    const k = (scope.modeIds[i] + 1) * places + scope.placeIds[i] + 1;
    let v = locationMemo[k];
    if (v === -1) {
      const p = scope.placeIds[i];
      v =
        locationScore(
          scope.jobs[i].remotePreference,
          s.seeker.remotePreference,
          p < 0 ? null : scope.places[p],
          s.place,
        )?.score ?? NaN;
      locationMemo[k] = v;
    }
    return Number.isNaN(v) ? null : v;
  };
}

/** Marks a job sharing a skill as seen and counts its matched listings. */
function countJob<J extends CandidateJob>(w: Walk<J>, i: number): void {
  const { scope, scratch } = w;
  scratch.seen[i] = 1;
  w.touched.push(i);
  let e = 0;
  for (let k = scope.essOff[i]; k < scope.essOff[i + 1]; k++) e += scratch.has[scope.essIds[k]];
  let b = 0;
  for (let k = scope.bonOff[i]; k < scope.bonOff[i + 1]; k++) b += scratch.has[scope.bonIds[k]];
  scratch.essential[i] = e;
  scratch.bonus[i] = b;
}

const cannotPass = <J extends CandidateJob>(w: Walk<J>, i: number) =>
  w.essentialRequired && w.scope.essentialLen[i] > 0 && w.scratch.essential[i] === 0;

/** Scores a job exactly; it lands in its score's bucket, never above the level the walk is at. */
function scoreJob<J extends CandidateJob>(w: Walk<J>, i: number, level: number): void {
  const { scratch } = w;
  if (w.stats) w.stats.scored++;
  scratch.scores[i] = scoreFromCounts(w.s, w.scope.jobs[i], scratch.essential[i], scratch.bonus[i], w.location(i));
  (w.exact[Math.min(level, bucketOf(scratch.scores[i]))] ??= []).push(i);
}

/**
 * Jobs sharing two or more skills enter by their ceiling (computed now), per bucket; jobs sharing
 * one are read from that skill's list when the walk reaches their ceiling.
 */
function sharingSeveral<J extends CandidateJob>(w: Walk<J>): Array<number[] | undefined> {
  const { scope, sids, scratch } = w;
  const ceilings: Array<number[] | undefined> = new Array(BUCKETS);
  for (let a = 0; a < sids.length; a++)
    for (let b = a + 1; b < sids.length; b++) {
      const list = scope.pairs.get(pairOf(sids[a], sids[b]));
      if (!list) continue;
      for (const i of list) {
        if (scratch.seen[i] || !w.allowed(i)) continue;
        countJob(w, i);
        (ceilings[
          ceilingBucket(
            scratch.essential[i],
            scope.essentialLen[i],
            scratch.bonus[i],
            scope.bonusLen[i],
            scope.ceilOther[i],
            scope.ceilWeights[i],
          )
        ] ??= []).push(i);
      }
    }
  return ceilings;
}

/**
 * The walk from the top bucket down: each job moves to its exact score's bucket (never above)
 * when the walk reaches its ceiling; only those are scored. Per event its best job so far (score,
 * then job id); once `limit` events are known after a level, no lower level can change the first
 * `limit`, and nothing below the floor can pass.
 */
function walkLevels<J extends CandidateJob>(
  w: Walk<J>,
  ceilings: Array<number[] | undefined>,
  opts: BestPerEventOptions<J>,
): Map<string, number> {
  const { scope, sids, scratch } = w;
  const { scores, seen } = scratch;
  const cursor = Int32Array.from(sids, (id) => scope.skillOff[id]);
  const end = Int32Array.from(sids, (id) => scope.skillOff[id + 1]);
  const best = new Map<string, number>();
  const better = (i: number, j: number) =>
    scores[i] > scores[j] || (scores[i] === scores[j] && scope.jobs[i].id < scope.jobs[j].id);
  let zero = 0;
  for (let level = BUCKETS - 1; level >= 0; level--) {
    // Jobs sharing exactly one skill whose ceiling is this level (their single-skill ceiling is
    // their ceiling; one sharing more was seen above) — read before the jobs sharing none, so a
    // job sharing a skill is seen by then (its ceiling is at least its zero-skill ceiling).
    for (let k = 0; k < sids.length; k++) {
      while (cursor[k] < end[k] && scope.skillCeil[cursor[k]] >= level) {
        const i = scope.skillJobs[cursor[k]++];
        if (seen[i] || !w.allowed(i)) continue;
        countJob(w, i);
        if (!cannotPass(w, i)) scoreJob(w, i, level);
      }
    }
    // Jobs sharing no skill (their ceiling does not depend on the seeker) …
    while (zero < scope.zeroOrder.length && scope.zeroCeil[zero] >= level) {
      const i = scope.zeroOrder[zero++];
      if (!seen[i] && w.allowed(i) && !(w.essentialRequired && scope.essentialLen[i] > 0)) scoreJob(w, i, level);
    }
    // … and jobs sharing several, whose ceiling is this level, are scored.
    for (const i of ceilings[level] ?? []) if (!cannotPass(w, i)) scoreJob(w, i, level);
    for (const i of w.exact[level] ?? []) {
      const job = scope.jobs[i];
      if (opts.excluded?.(job.id) || opts.skipEvent?.(job.liveEventId)) continue;
      if (opts.floor && !opts.floor.passes(job, scores[i], scratch.essential[i])) continue;
      const prev = best.get(job.liveEventId);
      if (prev === undefined || better(i, prev)) best.set(job.liveEventId, i);
    }
    if (best.size >= opts.limit) break;
    if (opts.floor && level <= bucketOf(opts.floor.minScore)) break;
  }
  return best;
}

/** The best `limit` events' jobs, each with its full score, ordered by `compareCandidates(free)`. */
function rankBest<J extends CandidateJob>(
  w: Walk<J>,
  best: Map<string, number>,
  seeker: SeekerForScore,
  freeBy: ReadonlyMap<string, number>,
  limit: number,
): Array<Candidate<J>> {
  const { scope } = w;
  const { scores } = w.scratch;
  const free = (i: number) => freeBy.get(scope.jobs[i].liveEventId) ?? 0;
  const cmp = compareCandidates(freeBy);
  return [...best.values()]
    .sort((a, b) => scores[b] - scores[a] || free(b) - free(a) || (scope.jobs[a].id < scope.jobs[b].id ? -1 : 1))
    .slice(0, limit)
    .map((i) => ({ job: scope.jobs[i], score: computeMatchScore(seeker, scope.jobs[i]) }))
    .sort(cmp);
}
