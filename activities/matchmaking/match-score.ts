/**
 * The explainable match score lives in lib/match-score.ts (pure maths, no I/O) so the API can
 * explain a job to a seeker with the same numbers the matchmaker uses (POST /jobs/{id}/comparison);
 * this module keeps the matchmaker's imports where they were.
 */
export * from '../../lib/match-score';
