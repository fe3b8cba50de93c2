/**
 * The explainable match score (docs/match-score.md). Pure: no I/O, so the matchmaker, the tests
 * and anyone reading a breakdown can recompute it.
 *
 * Each component scores 0..1 and has a weight; a component with no data on one side is reported
 * with `score: null` and left out (its weight is not counted), so missing data neither helps nor
 * hurts. match_score = round(100 × Σ weight·score / Σ weight of the scored components, 1 decimal).
 */
export const MATCH_SCORE_VERSION = 'v1';

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
}

export interface MatchScore {
  score: number;
  version: string;
  breakdown: ScoreBreakdown;
}

const norm = (s: string) => s.trim().toLowerCase();

/** Remote fit of a job's mode (rows) against a seeker's preference (columns). */
const REMOTE_FIT: Record<string, Record<string, number>> = {
  remote: { fully_remote: 1, hybrid: 1, onsite: 0.5 },
  hybrid: { fully_remote: 0.25, hybrid: 1, onsite: 0.75 },
  onsite: { fully_remote: 0, hybrid: 0.5, onsite: 1 },
};

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export function computeMatchScore(seeker: SeekerForScore, job: JobForScore): MatchScore {
  const have = new Set(seeker.skills.map(norm));

  const essentialMatched = job.essentialSkills.filter((s) => have.has(norm(s)));
  const essentialMissing = job.essentialSkills.filter((s) => !have.has(norm(s)));
  const essential = {
    weight: MATCH_SCORE_WEIGHTS.essential_skills,
    score: job.essentialSkills.length ? round(essentialMatched.length / job.essentialSkills.length, 4) : null,
    detail: job.essentialSkills.length ? `${essentialMatched.length} of ${job.essentialSkills.length} essential skills` : 'the job lists no essential skills',
    matched: essentialMatched,
    missing: essentialMissing,
  };

  const bonusMatched = job.bonusSkills.filter((s) => have.has(norm(s)));
  const bonus = {
    weight: MATCH_SCORE_WEIGHTS.bonus_skills,
    score: job.bonusSkills.length ? round(bonusMatched.length / job.bonusSkills.length, 4) : null,
    detail: job.bonusSkills.length ? `${bonusMatched.length} of ${job.bonusSkills.length} bonus skills` : 'the job lists no bonus skills',
    matched: bonusMatched,
  };

  const experience = {
    weight: MATCH_SCORE_WEIGHTS.experience,
    score: job.experienceMin > 0 ? round(Math.min(1, seeker.experienceYears / job.experienceMin), 4) : 1,
    detail: job.experienceMin > 0 ? `${seeker.experienceYears} of ${job.experienceMin} required years` : 'no minimum experience',
    required: job.experienceMin,
    actual: seeker.experienceYears,
  };

  let salary: ScoreComponent;
  const expectation = seeker.salaryExpectationMin ?? null;
  const top = job.salaryMax ?? job.salaryMin;
  if (expectation === null || top === null) {
    salary = { weight: MATCH_SCORE_WEIGHTS.salary, score: null, detail: expectation === null ? 'the seeker has no salary expectation' : 'the job publishes no salary' };
  } else if (top >= expectation) {
    salary = { weight: MATCH_SCORE_WEIGHTS.salary, score: 1, detail: `the range reaches the expectation of ${expectation}` };
  } else {
    // Partial credit falls linearly to 0 at a 25 % shortfall.
    const shortfall = (expectation - top) / expectation;
    salary = { weight: MATCH_SCORE_WEIGHTS.salary, score: round(Math.max(0, 1 - shortfall / 0.25), 4), detail: `the range tops out ${Math.round(shortfall * 100)} % below the expectation` };
  }

  let location: ScoreComponent;
  const mode = job.remotePreference;
  const pref = seeker.remotePreference;
  if (!mode || !pref || !REMOTE_FIT[mode] || REMOTE_FIT[mode][pref] === undefined) {
    location = { weight: MATCH_SCORE_WEIGHTS.location, score: null, detail: 'remote preference unknown on one side' };
  } else {
    let fit = REMOTE_FIT[mode][pref];
    let detail = `job ${mode}, seeker prefers ${pref}`;
    // Where the seeker must be on site, a different city halves the fit.
    if (mode !== 'remote' && job.location && seeker.location) {
      const a = norm(job.location);
      const b = norm(seeker.location);
      const sameArea = a.includes(b) || b.includes(a);
      if (!sameArea) {
        fit *= 0.5;
        detail += `; different location (${job.location} vs ${seeker.location})`;
      } else detail += `; same location`;
    }
    location = { weight: MATCH_SCORE_WEIGHTS.location, score: round(fit, 4), detail };
  }

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
