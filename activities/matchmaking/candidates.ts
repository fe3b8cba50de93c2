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
  /** Canonical skill id (`skillKey`) → its number in this scope. */
  skillIds: Map<string, number>;
  /** Per job its essential (bonus) listings as skill ids, once per listing: `essIds[essOff[i] .. essOff[i + 1])`. */
  essOff: Int32Array;
  essIds: Int32Array;
  bonOff: Int32Array;
  bonIds: Int32Array;
  /**
   * Per skill id the jobs listing it, highest single-skill ceiling first (the ceiling of a job for a
   * seeker sharing only that skill, bucket units): `skillJobs[skillOff[k] .. skillOff[k + 1])`.
   */
  skillOff: Int32Array;
  skillJobs: Int32Array;
  skillCeil: Int32Array;
  /** Per pair of skill ids listed by one job (`pairKey`), the jobs listing both. */
  pairs: Map<number, Int32Array>;
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
function ceilingBucket(
  essentialMatched: number,
  essentialLen: number,
  bonusMatched: number,
  bonusLen: number,
  other: number,
  weights: number,
): number {
  const skills =
    (essentialLen ? (W.essential_skills * essentialMatched) / essentialLen : 0) +
    (bonusLen ? (W.bonus_skills * bonusMatched) / bonusLen : 0);
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

/** The key of a pair of skill ids in `Scope.pairs` (a < b). */
const pairOf = (a: number, b: number) => (a < b ? a * 0x200000 + b : b * 0x200000 + a);

/**
 * The jobs one round may offer, indexed once per round and per scope: an event's own jobs (entries
 * for that event) or the jobs of every open-invite event with room (entries for any event).
 */
export class CandidateIndex<J extends CandidateJob> {
  private readonly scopes = new Map<string, Scope<J>>();
  /** Per scope: per job matched counts, touched flag, score; per skill id the seeker's (reset after each entry). */
  private readonly scratch = new Map<
    string,
    { essential: Int32Array; bonus: Int32Array; seen: Uint8Array; scores: Float64Array; has: Uint8Array }
  >();

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
    const ceilOther = Float64Array.from(parts, (p) => p.other);
    const ceilWeights = Float64Array.from(parts, (p) => p.weights);

    // Skills as ids; per job its listings (once per listing, as the score counts them).
    const skillIds = new Map<string, number>();
    const idOf = (skill: string) => {
      const k = skillKey(skill);
      let id = skillIds.get(k);
      if (id === undefined) {
        id = skillIds.size;
        skillIds.set(k, id);
      }
      return id;
    };
    const listings = (pick: (j: J) => string[]) => {
      const off = new Int32Array(jobs.length + 1);
      const ids: number[] = [];
      jobs.forEach((j, i) => {
        for (const skill of pick(j)) ids.push(idOf(skill));
        off[i + 1] = ids.length;
      });
      return { off, ids: Int32Array.from(ids) };
    };
    const ess = listings((j) => j.essentialSkills);
    const bon = listings((j) => j.bonusSkills);

    // Per skill the jobs listing it (each once) with their single-skill ceiling; per pair of skills
    // listed by one job, the jobs listing both.
    const perSkill: Array<{ jobs: number[]; ceil: number[] }> = Array.from({ length: skillIds.size }, () => ({
      jobs: [],
      ceil: [],
    }));
    const pairLists = new Map<number, number[]>();
    const counts = new Map<number, [number, number]>();
    for (let i = 0; i < jobs.length; i++) {
      counts.clear();
      for (let k = ess.off[i]; k < ess.off[i + 1]; k++) {
        const c = counts.get(ess.ids[k]);
        if (c) c[0]++;
        else counts.set(ess.ids[k], [1, 0]);
      }
      for (let k = bon.off[i]; k < bon.off[i + 1]; k++) {
        const c = counts.get(bon.ids[k]);
        if (c) c[1]++;
        else counts.set(bon.ids[k], [0, 1]);
      }
      for (const [id, [e, b]] of counts) {
        perSkill[id].jobs.push(i);
        perSkill[id].ceil.push(ceilingBucket(e, essentialLen[i], b, bonusLen[i], ceilOther[i], ceilWeights[i]));
      }
      if (counts.size > 1) {
        const distinct = [...counts.keys()];
        for (let a = 0; a < distinct.length; a++)
          for (let b = a + 1; b < distinct.length; b++) {
            const k = pairOf(distinct[a], distinct[b]);
            const list = pairLists.get(k);
            if (list) list.push(i);
            else pairLists.set(k, [i]);
          }
      }
    }
    const skillOff = new Int32Array(skillIds.size + 1);
    perSkill.forEach((p, id) => (skillOff[id + 1] = skillOff[id] + p.jobs.length));
    const skillJobs = new Int32Array(skillOff[skillIds.size]);
    const skillCeil = new Int32Array(skillOff[skillIds.size]);
    perSkill.forEach((p, id) => {
      const order = p.jobs.map((_, k) => k).sort((a, b) => p.ceil[b] - p.ceil[a] || a - b);
      order.forEach((k, n) => {
        skillJobs[skillOff[id] + n] = p.jobs[k];
        skillCeil[skillOff[id] + n] = p.ceil[k];
      });
    });
    const pairs = new Map<number, Int32Array>();
    for (const [k, list] of pairLists) pairs.set(k, Int32Array.from(list));

    const zeroCeilOf = jobs.map((_, i) =>
      ceilingBucket(0, essentialLen[i], 0, bonusLen[i], ceilOther[i], ceilWeights[i]),
    );
    const zeroOrder = jobs.map((_, i) => i).sort((a, b) => zeroCeilOf[b] - zeroCeilOf[a]);
    scope = {
      jobs,
      skillIds,
      essOff: ess.off,
      essIds: ess.ids,
      bonOff: bon.off,
      bonIds: bon.ids,
      skillOff,
      skillJobs,
      skillCeil,
      pairs,
      essentialLen,
      bonusLen,
      ceilOther,
      ceilWeights,
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
    this.scratch.set(key, {
      essential: new Int32Array(jobs.length),
      bonus: new Int32Array(jobs.length),
      seen: new Uint8Array(jobs.length),
      scores: new Float64Array(jobs.length),
      has: new Uint8Array(skillIds.size),
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
       * stops below it: nothing lower can pass). `essentialRequired`: every event of the scope
       * requires one of a job's essential skills now, so a job listing essential skills of which
       * the seeker has none is skipped unscored (it cannot pass).
       */
      floor?: {
        minScore: number;
        essentialRequired?: boolean;
        passes: (job: J, score: number, essentialMatched: number) => boolean;
      };
    },
  ): Array<Candidate<J>> {
    const scope = this.scope(entry.liveEventId);
    if (!scope.jobs.length || opts.limit <= 0) return [];
    const s = prepareSeeker(entry.seeker);
    const { essential, bonus, seen, scores, has } = this.scratch.get(entry.liveEventId ?? '*')!;
    const mask = entry.liveEventId ? null : (opts.anyEventMask ?? null);
    const allowed = (i: number) => !mask || mask.allowed[mask.eventOf[i]] === 1;
    const essentialRequired = opts.floor?.essentialRequired === true;
    // The seeker's skills known to the scope (others match no job).
    const sids: number[] = [];
    for (const skill of s.skills) {
      const id = scope.skillIds.get(skill);
      if (id !== undefined) sids.push(id);
    }
    for (const id of sids) has[id] = 1;
    const touched: number[] = [];
    /** Marks a job sharing a skill as seen and counts its matched listings. */
    const count = (i: number) => {
      seen[i] = 1;
      touched.push(i);
      let e = 0;
      for (let k = scope.essOff[i]; k < scope.essOff[i + 1]; k++) e += has[scope.essIds[k]];
      let b = 0;
      for (let k = scope.bonOff[i]; k < scope.bonOff[i + 1]; k++) b += has[scope.bonIds[k]];
      essential[i] = e;
      bonus[i] = b;
    };
    const cannotPass = (i: number) => essentialRequired && scope.essentialLen[i] > 0 && essential[i] === 0;
    // The location component per (remote mode, place): the same few values for many jobs.
    const places = scope.places.length + 1;
    const locationMemo = new Float64Array((scope.modes.length + 1) * places).fill(-1);
    const location = (i: number): number | null => {
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
    try {
      // Jobs sharing two or more skills enter by their ceiling (computed now); jobs sharing one are
      // read from that skill's list when the walk reaches their ceiling. Each moves to its exact
      // score's bucket (never above) when the walk reaches its ceiling; only those are scored.
      const ceilings: Array<number[] | undefined> = new Array(BUCKETS);
      const exact: Array<number[] | undefined> = new Array(BUCKETS);
      for (let a = 0; a < sids.length; a++)
        for (let b = a + 1; b < sids.length; b++) {
          const list = scope.pairs.get(pairOf(sids[a], sids[b]));
          if (!list) continue;
          for (const i of list) {
            if (seen[i] || !allowed(i)) continue;
            count(i);
            (ceilings[
              ceilingBucket(
                essential[i],
                scope.essentialLen[i],
                bonus[i],
                scope.bonusLen[i],
                scope.ceilOther[i],
                scope.ceilWeights[i],
              )
            ] ??= []).push(i);
          }
        }
      const cursor = Int32Array.from(sids, (id) => scope.skillOff[id]);
      const end = Int32Array.from(sids, (id) => scope.skillOff[id + 1]);
      const score = (i: number, level: number) => {
        if (opts.stats) opts.stats.scored++;
        scores[i] = scoreFromCounts(s, scope.jobs[i], essential[i], bonus[i], location(i));
        (exact[Math.min(level, bucketOf(scores[i]))] ??= []).push(i);
      };

      // Per event its best job so far (score, then job id). Levels are walked from the top, so once
      // `limit` events are known after a level, no lower level can change the first `limit`.
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
            if (seen[i] || !allowed(i)) continue;
            count(i);
            if (!cannotPass(i)) score(i, level);
          }
        }
        // Jobs sharing no skill (their ceiling does not depend on the seeker) …
        while (zero < scope.zeroOrder.length && scope.zeroCeil[zero] >= level) {
          const i = scope.zeroOrder[zero++];
          if (!seen[i] && allowed(i) && !(essentialRequired && scope.essentialLen[i] > 0)) score(i, level);
        }
        // … and jobs sharing several, whose ceiling is this level, are scored.
        for (const i of ceilings[level] ?? []) if (!cannotPass(i)) score(i, level);
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
      if (opts.stats) {
        opts.stats.searches++;
        opts.stats.sharingSkills += touched.length;
        opts.stats.jobs += scope.jobs.length;
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
      for (const id of sids) has[id] = 0;
    }
  }
}
