import type { AppliedFloor } from './match-floor';
import { skillId } from './skills';
/**
 * The explainable match score (docs/match-score.md). Pure: no I/O, so the matchmaker, the tests
 * and anyone reading a breakdown can recompute it.
 *
 * Each component scores 0..1 and has a weight; a component with no data on one side is reported
 * with `score: null` and left out (its weight is not counted), so missing data neither helps nor
 * hurts. match_score = round(100 × Σ weight·score / Σ weight of the scored components, 1 decimal).
 */
export const MATCH_SCORE_VERSION = 'v1';
/**
 * Matches made by the matchmaker since the quality floor: the same components and weights (unless a
 * seeker's declines tuned them), plus `breakdown.floor` — the quality floor and its bracket that
 * let the pair through (docs/match-score.md). v1 matches stay readable as they were stored.
 */
export const MATCH_SCORE_VERSION_FLOOR = 'v2';

export const MATCH_SCORE_WEIGHTS = {
  essential_skills: 50,
  bonus_skills: 10,
  experience: 15,
  salary: 10,
  location: 15,
} as const;

export interface SeekerForScore {
  skills: string[];
  experienceYears: number;
  location: string | null;
  /** `onsite`, `hybrid`, `fully_remote` (profile values). */
  remotePreference: string | null;
  /** Lowest acceptable yearly salary, when the seeker has said (not on the v1 profile: null today). */
  salaryExpectationMin?: number | null;
}

export interface JobForScore {
  essentialSkills: string[];
  bonusSkills: string[];
  experienceMin: number;
  salaryMin: number | null;
  salaryMax: number | null;
  location: string | null;
  /** `remote`, `hybrid`, `onsite` (job values). */
  remotePreference: string | null;
}

export interface ScoreComponent {
  weight: number;
  /** 0..1, or null when there is nothing to compare (left out of the total). */
  score: number | null;
  detail: string;
  [extra: string]: unknown;
}

export interface ScoreBreakdown {
  essential_skills: ScoreComponent & { matched: string[]; missing: string[] };
  bonus_skills: ScoreComponent & { matched: string[] };
  experience: ScoreComponent & { required: number; actual: number };
  salary: ScoreComponent;
  location: ScoreComponent;
  /** v2: the quality floor and bracket that let the pair through (floor.ts). */
  floor?: AppliedFloor;
  /** v2: component weights lowered by the seeker's declines in this queue entry (factor per component). */
  tuning?: Partial<Record<TunableComponent, number>>;
}

/** Components a seeker's decline reason can tune (docs/match-score.md, v2). */
export const TUNABLE_COMPONENTS = ['salary', 'location'] as const;
export type TunableComponent = (typeof TUNABLE_COMPONENTS)[number];
/** Each decline for a reason halves that component's weight, down to a quarter. */
export const DECLINE_TUNING_FACTOR = 0.5;
export const DECLINE_TUNING_MIN = 0.25;

export function tuningFor(
  declines: Partial<Record<TunableComponent, number>>,
): Partial<Record<TunableComponent, number>> {
  const out: Partial<Record<TunableComponent, number>> = {};
  for (const c of TUNABLE_COMPONENTS)
    if (declines[c]) out[c] = Math.max(DECLINE_TUNING_MIN, DECLINE_TUNING_FACTOR ** declines[c]!);
  return out;
}

/** The score again with tuned component weights (same rounding as computeMatchScore); the breakdown names the tuning. */
export function tuneScore(score: MatchScore, tuning: Partial<Record<TunableComponent, number>>): MatchScore {
  if (!Object.keys(tuning).length) return score;
  const b = score.breakdown;
  const breakdown: ScoreBreakdown = { ...b, tuning };
  for (const c of TUNABLE_COMPONENTS)
    if (tuning[c] !== undefined) breakdown[c] = { ...b[c], weight: round(b[c].weight * tuning[c]!, 4) };
  let weighted = 0;
  let weights = 0;
  for (const c of [
    breakdown.essential_skills,
    breakdown.bonus_skills,
    breakdown.experience,
    breakdown.salary,
    breakdown.location,
  ]) {
    if (c.score === null) continue;
    weighted += c.weight * c.score;
    weights += c.weight;
  }
  return { ...score, score: weights ? round((100 * weighted) / weights, 1) : 0, breakdown };
}

export interface MatchScore {
  score: number;
  version: string;
  breakdown: ScoreBreakdown;
}

/**
 * The score as matches carry it (`v2`): the v1 score, tuned by the seeker's declines, with the
 * floor that applies in its breakdown. The matchmaker and the job comparison both score with it.
 */
export function toMatchScoreV2(
  v1: MatchScore,
  floor: AppliedFloor,
  tuning: Partial<Record<TunableComponent, number>> = {},
): MatchScore {
  const tuned = tuneScore(v1, tuning);
  return { ...tuned, version: MATCH_SCORE_VERSION_FLOOR, breakdown: { ...tuned.breakdown, floor } };
}

/** How places are compared: trimmed, lower-cased. */
export const norm = (s: string) => s.trim().toLowerCase();

/**
 * How skills are compared: as canonical skill ids (skills.ts), so "Postgres" on a profile matches
 * "PostgreSQL" on a job; a skill the vocabulary does not know compares as its normalised text.
 */
export const skillKey = skillId;

/** Remote fit of a job's mode (rows) against a seeker's preference (columns). */
const REMOTE_FIT: Record<string, Record<string, number>> = {
  remote: { fully_remote: 1, hybrid: 1, onsite: 0.5 },
  hybrid: { fully_remote: 0.25, hybrid: 1, onsite: 0.75 },
  onsite: { fully_remote: 0, hybrid: 0.5, onsite: 1 },
};

/**
 * A hard mismatch of remote modes: the fit is 0, the seeker cannot work the job as offered (a
 * seeker who wants fully remote work and an on-site job). The quality floor never offers such a
 * pair unless the event allows it (match-floor.ts). The reverse (an on-site seeker, a remote job)
 * fits at 0.5: the seeker can work remotely, so it is not a hard mismatch.
 */
export function hardRemoteMismatch(mode: string | null, pref: string | null): boolean {
  return !!mode && !!pref && REMOTE_FIT[mode]?.[pref] === 0;
}

export const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

// The components that do not depend on skills, shared with the matchmaker's candidate search
// (candidates.ts bounds the score from above with exactly these numbers).

/** Experience: min(1, years ÷ required), 1 when the job has no minimum. */
export function experienceScore(years: number, experienceMin: number): number {
  return experienceMin > 0 ? round(Math.min(1, years / experienceMin), 4) : 1;
}

/** Salary: 1 when the job's top reaches the expectation, linear down to 0 at a 25 % shortfall; null without figures. */
export function salaryScore(
  expectation: number | null,
  salaryMin: number | null,
  salaryMax: number | null,
): number | null {
  const top = salaryMax ?? salaryMin;
  if (expectation === null || top === null) return null;
  if (top >= expectation) return 1;
  // Partial credit falls linearly to 0 at a 25 % shortfall.
  const shortfall = (expectation - top) / expectation;
  return round(Math.max(0, 1 - shortfall / 0.25), 4);
}

/**
 * Location: the remote fit, halved where the seeker must be on site in a different place (neither
 * normalised name contains the other). Places are passed normalised (`norm`), null when unknown.
 * Null when either remote preference is unknown.
 */
export function locationScore(
  mode: string | null,
  pref: string | null,
  jobPlace: string | null,
  seekerPlace: string | null,
): { score: number; differentPlace: boolean } | null {
  if (!mode || !pref || !REMOTE_FIT[mode] || REMOTE_FIT[mode][pref] === undefined) return null;
  let fit = REMOTE_FIT[mode][pref];
  let differentPlace = false;
  // Where the seeker must be on site, a different city halves the fit.
  if (mode !== 'remote' && jobPlace !== null && seekerPlace !== null) {
    differentPlace = !(jobPlace.includes(seekerPlace) || seekerPlace.includes(jobPlace));
    if (differentPlace) fit *= 0.5;
  }
  return { score: round(fit, 4), differentPlace };
}

/** The essential and bonus skill components: matched (and missing) listings of the job. */
function skillComponents(seeker: SeekerForScore, job: JobForScore) {
  const have = new Set(seeker.skills.map(skillKey));

  const essentialMatched = job.essentialSkills.filter((s) => have.has(skillKey(s)));
  const essentialMissing = job.essentialSkills.filter((s) => !have.has(skillKey(s)));
  const essential = {
    weight: MATCH_SCORE_WEIGHTS.essential_skills,
    score: job.essentialSkills.length ? round(essentialMatched.length / job.essentialSkills.length, 4) : null,
    detail: job.essentialSkills.length
      ? `${essentialMatched.length} of ${job.essentialSkills.length} essential skills`
      : 'the job lists no essential skills',
    matched: essentialMatched,
    missing: essentialMissing,
  };

  const bonusMatched = job.bonusSkills.filter((s) => have.has(skillKey(s)));
  const bonus = {
    weight: MATCH_SCORE_WEIGHTS.bonus_skills,
    score: job.bonusSkills.length ? round(bonusMatched.length / job.bonusSkills.length, 4) : null,
    detail: job.bonusSkills.length
      ? `${bonusMatched.length} of ${job.bonusSkills.length} bonus skills`
      : 'the job lists no bonus skills',
    matched: bonusMatched,
  };
  return { essential, bonus };
}

/** The experience component: the seeker's years against the job's minimum. */
function experienceComponent(seeker: SeekerForScore, job: JobForScore) {
  return {
    weight: MATCH_SCORE_WEIGHTS.experience,
    score: experienceScore(seeker.experienceYears, job.experienceMin),
    detail:
      job.experienceMin > 0
        ? `${seeker.experienceYears} of ${job.experienceMin} required years`
        : 'no minimum experience',
    required: job.experienceMin,
    actual: seeker.experienceYears,
  };
}

/** The salary component: the job's range against the seeker's expectation (null when either is missing). */
function salaryComponent(seeker: SeekerForScore, job: JobForScore): ScoreComponent {
  const expectation = seeker.salaryExpectationMin ?? null;
  const top = job.salaryMax ?? job.salaryMin;
  const salaryFit = salaryScore(expectation, job.salaryMin, job.salaryMax);
  if (expectation === null || top === null) {
    return {
      weight: MATCH_SCORE_WEIGHTS.salary,
      score: null,
      detail: expectation === null ? 'the seeker has no salary expectation' : 'the job publishes no salary',
    };
  } else if (top >= expectation) {
    return {
      weight: MATCH_SCORE_WEIGHTS.salary,
      score: salaryFit,
      detail: `the range reaches the expectation of ${expectation}`,
    };
  }
  const shortfall = (expectation - top) / expectation;
  return {
    weight: MATCH_SCORE_WEIGHTS.salary,
    score: salaryFit,
    detail: `the range tops out ${Math.round(shortfall * 100)} % below the expectation`,
  };
}

/** The location component: remote modes and places (null when a remote preference is unknown). */
function locationComponent(seeker: SeekerForScore, job: JobForScore): ScoreComponent {
  const mode = job.remotePreference;
  const pref = seeker.remotePreference;
  const fit = locationScore(
    mode,
    pref,
    job.location ? norm(job.location) : null,
    seeker.location ? norm(seeker.location) : null,
  );
  if (fit === null) {
    return { weight: MATCH_SCORE_WEIGHTS.location, score: null, detail: 'remote preference unknown on one side' };
  }
  let detail = `job ${mode}, seeker prefers ${pref}`;
  if (mode !== 'remote' && job.location && seeker.location) {
    detail += fit.differentPlace ? `; different location (${job.location} vs ${seeker.location})` : `; same location`;
  }
  return { weight: MATCH_SCORE_WEIGHTS.location, score: fit.score, detail };
}

export function computeMatchScore(seeker: SeekerForScore, job: JobForScore): MatchScore {
  const { essential, bonus } = skillComponents(seeker, job);
  const experience = experienceComponent(seeker, job);
  const salary = salaryComponent(seeker, job);
  const location = locationComponent(seeker, job);

  const breakdown: ScoreBreakdown = { essential_skills: essential, bonus_skills: bonus, experience, salary, location };
  let weighted = 0;
  let weights = 0;
  for (const c of Object.values(breakdown) as ScoreComponent[]) {
    if (c.score === null) continue;
    weighted += c.weight * c.score;
    weights += c.weight;
  }
  const score = weights ? round((100 * weighted) / weights, 1) : 0;
  return { score, version: MATCH_SCORE_VERSION, breakdown };
}
