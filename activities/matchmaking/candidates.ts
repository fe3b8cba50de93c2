import { computeMatchScore, experienceScore, locationScore, MATCH_SCORE_WEIGHTS, norm, round, salaryScore, type JobForScore, type MatchScore, type SeekerForScore } from './match-score';

/**
 * Candidate search for the matchmaker (docs/decisions/0010-matchmaker.md): for one waiting entry,
 * the best-scoring job of each event it may go to, best events first, at most `limit` events —
 * without building a score breakdown for every job.
 *
 * The v1 score (match-score.ts) depends on the skills only through the matched essential and
 * bonus counts. Per round and scope the jobs are indexed by normalised skill (skill → the jobs
 * listing it, once per listing, so duplicates count as the score counts them). For one entry:
 *
 * 1. the seeker's skills are looked up in the index: only jobs sharing a skill are touched, and
 *    for those the matched counts are known, hence a ceiling of their score (the non-skill
 *    components at 1) and, when needed, the exact score (`scoreFromCounts`: the same components,
 *    order of summation and rounding as `computeMatchScore`);
 * 2. jobs sharing no skill have a ceiling that does not depend on the seeker: they wait in one
 *    list per scope, highest ceiling first, and are reached only if the walk gets that low;
 * 3. the walk goes from 100 down in steps of 0.1 (the score's precision): at each level the jobs
 *    whose ceiling is that level are scored exactly (landing at that level or below), then the
 *    jobs scoring exactly that level update their event's best; it stops once `limit` events are
 *    known, since nothing lower can change the first `limit`.
 *
 * The result equals scoring every job of the scope and keeping each event's best (same scores,
 * same order, ties included); the candidate tests compare both on random data. Only the returned
 * candidates get a full `computeMatchScore` (breakdown).
 */

export interface CandidateJob extends JobForScore {
  id: string;
  liveEventId: string;
}

/** Which events of the "any event" scope an entry may get now: per job its event's ordinal, per ordinal 1 = allowed. */
export interface AnyEventMask {
  eventOf: Int32Array;
  allowed: Uint8Array;
}

export interface Candidate<J extends CandidateJob = CandidateJob> {
  job: J;
  score: MatchScore;
}

interface Scope<J extends CandidateJob> {
  jobs: J[];
  /** Per normalised skill, the jobs listing it as essential (bonus), once per listing. */
  essentialBy: Map<string, number[]>;
  bonusBy: Map<string, number[]>;
  /** Per job: listed essential and bonus skills, and the ceiling's fixed part (see `ceilingParts`). */
  essentialLen: Int32Array;
  bonusLen: Int32Array;
  ceilOther: Float64Array;
  ceilWeights: Float64Array;
  /** Per job: interned remote mode and normalised place (-1: none), for the location memo. */
  modeIds: Int32Array;
  modes: (string | null)[];
  placeIds: Int32Array;
  places: string[];
  /** Jobs ordered by their ceiling without shared skills (bucket units), highest first. */
  zeroOrder: number[];
  zeroCeil: Int32Array;
  /** Per job the ordinal of its event in `eventIds` (for `AnyEventMask`). */
  eventOf: Int32Array;
  eventIds: string[];
}

const W = MATCH_SCORE_WEIGHTS;
/** Scores are compared in tenths of a point, their precision. */
const BUCKETS = 1001;
const bucketOf = (score: number) => Math.round(score * 10);

/**
 * A ceiling of a job's score for any seeker with given matched counts: the skill components as
 * they are, every other component the job can score at 1 (a component at 1 never lowers a
 * weighted mean that is at most 1, so counting every possible one gives a ceiling). `other` is the
 * weighted sum of those components at 1, `weights` every weight that can count.
 */
function ceilingParts(job: JobForScore): { other: number; weights: number } {
  let other = W.experience;
  let weights = W.experience;
  if (job.essentialSkills.length) weights += W.essential_skills;
  if (job.bonusSkills.length) weights += W.bonus_skills;
  if ((job.salaryMax ?? job.salaryMin) !== null) {
    other += W.salary;
    weights += W.salary;
  }
  if (job.remotePreference) {
    other += W.location;
    weights += W.location;
  }
  return { other, weights };
}

/**
 * The ceiling in bucket units (tenths, rounded up). The exact score rounds each skill fraction to
 * 4 decimals (at most +0.00005 × 60 on the sum) and the total to 1 decimal: the margin covers both.
 */
function ceilingBucket(essentialMatched: number, essentialLen: number, bonusMatched: number, bonusLen: number, other: number, weights: number): number {
  const skills = (essentialLen ? (W.essential_skills * essentialMatched) / essentialLen : 0) + (bonusLen ? (W.bonus_skills * bonusMatched) / bonusLen : 0);
  return Math.min(BUCKETS - 1, Math.ceil(((100 * (skills + other)) / weights) * 10 + 0.05));
}

/** A seeker as the search reads it. */
export interface PreparedSeeker {
  seeker: SeekerForScore;
  skills: Set<string>;
  place: string | null;
  expectation: number | null;
}

export function prepareSeeker(seeker: SeekerForScore): PreparedSeeker {
  return { seeker, skills: new Set(seeker.skills.map(norm)), place: seeker.location ? norm(seeker.location) : null, expectation: seeker.salaryExpectationMin ?? null };
}

/**
 * The v1 score of a seeker for a job given how many of its essential and bonus skills the seeker
 * has — `computeMatchScore(...).score` without the breakdown: the same components, summed in the
 * same order and rounded the same way. `location` is the job's location component (null: not scored).
 */
export function scoreFromCounts(s: PreparedSeeker, job: JobForScore, essentialMatched: number, bonusMatched: number, location: number | null): number {
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
  return (a: Candidate, b: Candidate) => b.score.score - a.score.score || (free.get(b.job.liveEventId) ?? 0) - (free.get(a.job.liveEventId) ?? 0) || (a.job.id < b.job.id ? -1 : a.job.id > b.job.id ? 1 : 0);
}

/**
 * The jobs one round may offer, indexed once per round and per scope: an event's own jobs (entries
 * for that event) or the jobs of every open-invite event with room (entries for any event).
 */
export class CandidateIndex<J extends CandidateJob> {
  private readonly scopes = new Map<string, Scope<J>>();
  /** Per scope, per job: matched counts, touched flag, score (reset after each entry). */
  private readonly scratch = new Map<string, { essential: Int32Array; bonus: Int32Array; seen: Uint8Array; scores: Float64Array }>();

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
    const jobs = liveEventId ? (this.byEvent.get(liveEventId) ?? []) : [...this.byEvent].flatMap(([eventId, js]) => (this.openInviteEventIds.has(eventId) ? js : []));
    const index = (pick: (j: J) => string[]) => {
      const by = new Map<string, number[]>();
      jobs.forEach((j, i) => {
        for (const skill of pick(j)) {
          const k = norm(skill);
          const list = by.get(k);
          if (list) list.push(i);
          else by.set(k, [i]);
        }
      });
      return by;
    };
    const intern = (values: (string | null)[]) => {
      const ids = new Map<string, number>();
      const list: string[] = [];
      const out = Int32Array.from(values, (v) => {
        if (v === null) return -1;
        let id = ids.get(v);
        if (id === undefined) {
          id = list.push(v) - 1;
          ids.set(v, id);
        }
        return id;
      });
      return { ids: out, list };
    };
    const place = intern(jobs.map((j) => (j.location ? norm(j.location) : null)));
    const mode = intern(jobs.map((j) => j.remotePreference));
    const events = intern(jobs.map((j) => j.liveEventId));
    const parts = jobs.map(ceilingParts);
    const essentialLen = Int32Array.from(jobs, (j) => j.essentialSkills.length);
    const bonusLen = Int32Array.from(jobs, (j) => j.bonusSkills.length);
    const zeroCeilOf = jobs.map((_, i) => ceilingBucket(0, essentialLen[i], 0, bonusLen[i], parts[i].other, parts[i].weights));
    const zeroOrder = jobs.map((_, i) => i).sort((a, b) => zeroCeilOf[b] - zeroCeilOf[a]);
    scope = {
      jobs,
      essentialBy: index((j) => j.essentialSkills),
      bonusBy: index((j) => j.bonusSkills),
      essentialLen,
      bonusLen,
      ceilOther: Float64Array.from(parts, (p) => p.other),
      ceilWeights: Float64Array.from(parts, (p) => p.weights),
      modeIds: mode.ids,
      modes: mode.list,
      placeIds: place.ids,
      places: place.list,
      zeroOrder,
      zeroCeil: Int32Array.from(zeroOrder, (i) => zeroCeilOf[i]),
      eventOf: events.ids,
      eventIds: events.list,
    };
    this.scopes.set(key, scope);
    this.scratch.set(key, { essential: new Int32Array(jobs.length), bonus: new Int32Array(jobs.length), seen: new Uint8Array(jobs.length), scores: new Float64Array(jobs.length) });
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
    opts: {
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
       * stops below it: nothing lower can pass).
       */
      floor?: { minScore: number; passes: (job: J, score: number, essentialMatched: number) => boolean };
    },
  ): Array<Candidate<J>> {
    const scope = this.scope(entry.liveEventId);
    if (!scope.jobs.length || opts.limit <= 0) return [];
    const s = prepareSeeker(entry.seeker);
    const { essential, bonus, seen, scores } = this.scratch.get(entry.liveEventId ?? '*')!;
    const mask = entry.liveEventId ? null : (opts.anyEventMask ?? null);
    const allowed = (i: number) => !mask || mask.allowed[mask.eventOf[i]] === 1;
    const touched: number[] = [];
    for (const skill of s.skills) {
      const e = scope.essentialBy.get(skill);
      if (e)
        for (const i of e) {
          if (!allowed(i)) continue;
          essential[i]++;
          if (!seen[i]) {
            seen[i] = 1;
            touched.push(i);
          }
        }
      const b = scope.bonusBy.get(skill);
      if (b)
        for (const i of b) {
          if (!allowed(i)) continue;
          bonus[i]++;
          if (!seen[i]) {
            seen[i] = 1;
            touched.push(i);
          }
        }
    }
    // The location component per (remote mode, place): the same few values for many jobs.
    const places = scope.places.length + 1;
    const locationMemo = new Float64Array((scope.modes.length + 1) * places).fill(-1);
    const location = (i: number): number | null => {
      const k = (scope.modeIds[i] + 1) * places + scope.placeIds[i] + 1;
      let v = locationMemo[k];
      if (v === -1) {
        const p = scope.placeIds[i];
        v = locationScore(scope.jobs[i].remotePreference, s.seeker.remotePreference, p < 0 ? null : scope.places[p], s.place)?.score ?? NaN;
        locationMemo[k] = v;
      }
      return Number.isNaN(v) ? null : v;
    };
    try {
      // Jobs enter by their ceiling and move to their exact score's bucket (never above) when the
      // walk reaches their ceiling; only those are scored.
      const ceilings: Array<number[] | undefined> = new Array(BUCKETS);
      const exact: Array<number[] | undefined> = new Array(BUCKETS);
      for (const i of touched) (ceilings[ceilingBucket(essential[i], scope.essentialLen[i], bonus[i], scope.bonusLen[i], scope.ceilOther[i], scope.ceilWeights[i])] ??= []).push(i);
      if (opts.stats) {
        opts.stats.searches++;
        opts.stats.sharingSkills += touched.length;
        opts.stats.jobs += scope.jobs.length;
      }
      const score = (i: number, level: number) => {
        if (opts.stats) opts.stats.scored++;
        scores[i] = scoreFromCounts(s, scope.jobs[i], essential[i], bonus[i], location(i));
        (exact[Math.min(level, bucketOf(scores[i]))] ??= []).push(i);
      };

      // Per event its best job so far (score, then job id). Levels are walked from the top, so once
      // `limit` events are known after a level, no lower level can change the first `limit`.
      const best = new Map<string, number>();
      const better = (i: number, j: number) => scores[i] > scores[j] || (scores[i] === scores[j] && scope.jobs[i].id < scope.jobs[j].id);
      let zero = 0;
      for (let level = BUCKETS - 1; level >= 0; level--) {
        // Jobs sharing no skill (their ceiling does not depend on the seeker) …
        while (zero < scope.zeroOrder.length && scope.zeroCeil[zero] >= level) {
          const i = scope.zeroOrder[zero++];
          if (!seen[i] && allowed(i)) score(i, level);
        }
        // … and jobs sharing some, whose ceiling is this level, are scored.
        for (const i of ceilings[level] ?? []) score(i, level);
        for (const i of exact[level] ?? []) {
          const job = scope.jobs[i];
          if (opts.excluded?.(job.id) || opts.skipEvent?.(job.liveEventId)) continue;
          if (opts.floor && !opts.floor.passes(job, scores[i], essential[i])) continue;
          const prev = best.get(job.liveEventId);
          if (prev === undefined || better(i, prev)) best.set(job.liveEventId, i);
        }
        if (best.size >= opts.limit) break;
        if (opts.floor && level <= bucketOf(opts.floor.minScore)) break;
      }
      const free = (i: number) => opts.free.get(scope.jobs[i].liveEventId) ?? 0;
      const cmp = compareCandidates(opts.free);
      return [...best.values()]
        .sort((a, b) => scores[b] - scores[a] || free(b) - free(a) || (scope.jobs[a].id < scope.jobs[b].id ? -1 : 1))
        .slice(0, opts.limit)
        .map((i) => ({ job: scope.jobs[i], score: computeMatchScore(entry.seeker, scope.jobs[i]) }))
        .sort(cmp);
    } finally {
      for (const i of touched) {
        essential[i] = 0;
        bonus[i] = 0;
        seen[i] = 0;
      }
    }
  }
}
