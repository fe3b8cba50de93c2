import { allHandlersFinished, condition } from '@temporalio/workflow';
import type { MatchInput, MatchResult } from './contract';
import { expireUnanswered, registerAnswerHandlers, reminderDueInMs, remindUnanswered } from './match-answers';
import { createMatchEffects } from './match-effects';
import { registerInterviewHandlers, reportWindowLeftMs } from './match-interview';
import { applyMatchSettings } from './match-opening';
import { loadMatchSettings } from './match-proxies';
import { closeRoomAtDeadline, registerRoomHandlers, roomDeadline } from './match-room';
import { createMatchRun } from './match-run';

/**
 * One match between a seeker and a job, `match:<matchId>`, started by the matchmaker once the
 * seeker's queue entry accepted the offer. It owns the match's lifecycle; PostgreSQL holds the
 * projection written by `projectMatch` on every transition (before an Update answers).
 *
 * Side effects, each once (match-effects.ts): `match.matched` at start; on acceptance
 * `match.accepted` and the queue entry finishes; on decline/expiry the queue entry goes back to
 * waiting; on completion `interview.completed`; on a no-show (someone did not come to the room in
 * time) `match.no_show`. A freed interview slot wakes the matchmaker.
 *
 * The phases: the opening (match-opening.ts), the answers until the acceptance window closes
 * (match-answers.ts), the walk to the room and the interview (match-room.ts), then the report card
 * (match-interview.ts) and the release. Every wait stays here, in the loop, so each command is
 * issued in the same step as before the phases had their own files (replay: test/replay/).
 */
export async function matchWorkflow(input: MatchInput): Promise<MatchResult> {
  const run = createMatchRun(input);
  const { state, projection } = run;
  registerAnswerHandlers(run);
  registerRoomHandlers(run);
  registerInterviewHandlers(run);
  const effects = createMatchEffects(run);

  // The opening: the team's settings, the first projection and `match.matched`.
  const settings = await loadMatchSettings({ teamId: state.teamId });
  const earlyUpdates = applyMatchSettings(run, settings);
  await projection.project();
  await effects.emit('match.matched', {
    match_id: state.matchId,
    role_title: input.jobTitle,
    seeker_headline: input.seekerHeadline ?? '',
  });
  run.notify('matched');
  const reminderMs = settings.expiryReminderMs ?? 0;
  if (earlyUpdates) await effects.run();

  for (;;) {
    if (state.status === 'matched') {
      // The answers: first wait until the reminder is due (whoever has not accepted by then is
      // reminded), then until the acceptance window closes.
      const reminderInMs = reminderDueInMs(run, reminderMs);
      if (reminderInMs !== null) {
        if (!(await condition(projection.pending, reminderInMs, { summary: 'expiry reminder' }))) {
          remindUnanswered(run);
          continue;
        }
        await projection.project();
        await effects.run();
        continue;
      }
      const remaining = state.expiresAtMs - Date.now();
      const changed =
        remaining > 0 &&
        (await condition(projection.pending, remaining, { summary: 'acceptance window (expires_at)' }));
      if (!changed) expireUnanswered(run);
    } else if (state.status === 'accepted') {
      // The room: the arrival deadline (no-show grace), then the interview length.
      const deadline = roomDeadline(run);
      const remaining = deadline.atMs - Date.now();
      const changed =
        remaining > 0 &&
        (await condition(projection.pending, remaining, {
          summary: deadline.waitingForArrival ? 'no-show grace (arrive by)' : 'interview length',
        }));
      if (!changed) closeRoomAtDeadline(run, deadline);
    } else if (!projection.pending()) {
      break;
    }
    await projection.project();
    await effects.run();
  }

  // After the interview the run waits (a while) for the recruiter's report card: "advance" tells
  // both sides each other's contact details. The report itself lives in PostgreSQL.
  const reportLeftMs = reportWindowLeftMs(run, settings);
  if (
    reportLeftMs !== null &&
    reportLeftMs > 0 &&
    (await condition(() => run.reported !== null, reportLeftMs, { summary: 'report card window' })) &&
    run.reported === 'advance'
  )
    run.notify('advance');

  // The release: the e-mail notices sent, every update answered.
  await Promise.all(run.notices);
  await condition(allHandlersFinished);
  return { ...state };
}
