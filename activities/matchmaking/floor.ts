/**
 * The quality floor lives in lib/match-floor.ts (pure, no I/O) beside the score, so the API can
 * explain a job with the same rules the matchmaker applies; this module keeps the matchmaker's imports.
 */
export * from '../../lib/match-floor';
