import { MATCH_SCORE_WEIGHTS, norm, skillKey, type JobForScore } from '#domain/matchmaking/match-score';

/** A job the candidate search can return: scored, and known by id and event. */
export interface CandidateJob extends JobForScore {
  id: string;
  liveEventId: string;
}

/**
 * The candidate index of one scope (an event's jobs, or every open-invite event's for "any event"
 * entries), built once and kept between rounds: see candidates.ts for how the search walks it.
 */
export interface Scope<J extends CandidateJob> {
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
export const BUCKETS = 1001;
export const bucketOf = (score: number) => Math.round(score * 10);

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
export function ceilingBucket(
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

/** The key of a pair of skill ids in `Scope.pairs` (a < b). */
export const pairOf = (a: number, b: number) => (a < b ? a * 0x200000 + b : b * 0x200000 + a);

/** Values interned: per value its id (-1: null) and the distinct values in order of first use. */
function intern(values: (string | null)[]): { ids: Int32Array; list: string[] } {
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
}

/** Skills as ids; per job its essential and bonus listings (once per listing, as the score counts them). */
function skillListings<J extends CandidateJob>(jobs: J[]) {
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
  return { skillIds, ess, bon };
}

/** Per job the fixed parts of its ceiling: listed essential and bonus skills, other components and weights. */
function ceilingFixedParts(jobs: JobForScore[]) {
  const parts = jobs.map(ceilingParts);
  return {
    essentialLen: Int32Array.from(jobs, (j) => j.essentialSkills.length),
    bonusLen: Int32Array.from(jobs, (j) => j.bonusSkills.length),
    ceilOther: Float64Array.from(parts, (p) => p.other),
    ceilWeights: Float64Array.from(parts, (p) => p.weights),
  };
}

type Listings = ReturnType<typeof skillListings>;
type FixedParts = ReturnType<typeof ceilingFixedParts>;

/**
 * Per skill the jobs listing it (each once) with their single-skill ceiling, highest first; per
 * pair of skills listed by one job, the jobs listing both.
 */
function skillIndex(jobCount: number, { skillIds, ess, bon }: Listings, fixed: FixedParts) {
  const { essentialLen, bonusLen, ceilOther, ceilWeights } = fixed;
  const perSkill: Array<{ jobs: number[]; ceil: number[] }> = Array.from({ length: skillIds.size }, () => ({
    jobs: [],
    ceil: [],
  }));
  const pairLists = new Map<number, number[]>();
  const counts = new Map<number, [number, number]>();
  for (let i = 0; i < jobCount; i++) {
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
  return { skillOff, skillJobs, skillCeil, pairs };
}

/** The scope's index over these jobs. */
export function buildScope<J extends CandidateJob>(jobs: J[]): Scope<J> {
  const place = intern(jobs.map((j) => (j.location ? norm(j.location) : null)));
  const mode = intern(jobs.map((j) => j.remotePreference));
  const events = intern(jobs.map((j) => j.liveEventId));
  const fixed = ceilingFixedParts(jobs);
  const { essentialLen, bonusLen, ceilOther, ceilWeights } = fixed;
  const listings = skillListings(jobs);
  const { skillIds, ess, bon } = listings;
  const { skillOff, skillJobs, skillCeil, pairs } = skillIndex(jobs.length, listings, fixed);

  const zeroCeilOf = jobs.map((_, i) =>
    ceilingBucket(0, essentialLen[i], 0, bonusLen[i], ceilOther[i], ceilWeights[i]),
  );
  const zeroOrder = jobs.map((_, i) => i).sort((a, b) => zeroCeilOf[b] - zeroCeilOf[a]);
  return {
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
}
