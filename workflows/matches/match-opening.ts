import { patched } from '@temporalio/workflow';
import { MATCH_EARLY_UPDATES_PATCH, MATCH_NO_SHOW_PATCH, type LoadMatchSettingsResult } from './contract';
import type { MatchRun } from './match-run';

/**
 * The opening of a match, once the team's settings are loaded: the no-show grace time, the team's
 * auto-accept, and the updates that arrived before the settings. Answers whether those early
 * updates are settled before the lifecycle loop (MATCH_EARLY_UPDATES_PATCH).
 */
export function applyMatchSettings(run: MatchRun, settings: LoadMatchSettingsResult): boolean {
  const { state, input } = run;
  // No-shows (patched in; only runs started with a grace time): who has not come to the room by
  // acceptance + grace is missing. An accept settled before this point gets its deadline here.
  run.noShowGraceMs = (input.noShowGraceMs ?? 0) > 0 && patched(MATCH_NO_SHOW_PATCH) ? input.noShowGraceMs! : 0;
  if (run.noShowGraceMs > 0 && state.acceptedAtMs !== null && (state.arriveByMs ?? null) === null)
    state.arriveByMs = state.acceptedAtMs + run.noShowGraceMs;
  // The match row is readable (and so acceptable and declinable) from the moment the seeker's entry
  // says `matched`, before this run starts (decision 0120): an accept or a decline can arrive in
  // the first task, before the settings are loaded. Such early updates are settled here and their
  // effects run before the loop (which only runs effects after a transition it waited for).
  const earlyUpdates = patched(MATCH_EARLY_UPDATES_PATCH);
  if (settings.autoAcceptRecruiter) {
    state.recruiterAcceptedAtMs = state.createdAtMs;
    state.recruiterAutoAccepted = true;
    if (earlyUpdates) run.maybeAccepted();
  }
  return earlyUpdates;
}
