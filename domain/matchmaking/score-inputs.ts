import type { JobForScore, SeekerForScore } from './match-score';

/** The columns of a `jobs` row the score reads. */
export interface JobScoreRow {
  essential_skills: string[];
  bonus_skills: string[];
  experience_min: number;
  salary_min: number | null;
  salary_max: number | null;
  location: string | null;
  remote_preference: string | null;
}

/** The columns of a seeker's `profiles` row the score reads. */
export interface SeekerScoreRow {
  skills: string[];
  experience_years: number;
  location: string | null;
  remote_preference: string | null;
  salary_expectation?: number | null;
}

/** A job row as the score's input. */
export function jobForScore(row: JobScoreRow): JobForScore {
  return {
    essentialSkills: row.essential_skills,
    bonusSkills: row.bonus_skills,
    experienceMin: row.experience_min,
    salaryMin: row.salary_min,
    salaryMax: row.salary_max,
    location: row.location,
    remotePreference: row.remote_preference,
  };
}

/** A seeker's profile row as the score's input; no profile reads as one with nothing in it. */
export function seekerForScore(row: SeekerScoreRow | null | undefined): SeekerForScore {
  return {
    skills: row?.skills ?? [],
    experienceYears: row?.experience_years ?? 0,
    location: row?.location ?? null,
    remotePreference: row?.remote_preference ?? null,
    salaryExpectationMin: row?.salary_expectation ?? null,
  };
}
