import { patched, setHandler } from '@temporalio/workflow';
import {
  interviewCompletedSignal,
  interviewReportedSignal,
  MATCH_REPORT_PATCH,
  type InterviewCompletedSignalInput,
  type InterviewReportedSignalInput,
  type LoadMatchSettingsResult,
} from './contract';
import type { MatchRun } from './match-run';

/**
 * The interview and its report card: a party ends the interview (signal `interviewCompleted`);
 * afterwards the recruiter's report card (signal `interviewReported`) may say "advance".
 */
export function registerInterviewHandlers(run: MatchRun): void {
  const { state } = run;
  setHandler(interviewCompletedSignal, ({ userId }: InterviewCompletedSignalInput) => {
    if (state.status !== 'accepted') return;
    state.completedAtMs = Date.now();
    state.completedBy = userId;
    run.transition('completed');
  });
  setHandler(interviewReportedSignal, ({ outcome }: InterviewReportedSignalInput) => {
    if (state.status === 'completed') run.reported = outcome;
  });
}

/**
 * How long the run still waits for the recruiter's report card after a completed interview, or
 * null when it waits for none (another outcome, no window configured, or a run from before it).
 */
export function reportWindowLeftMs(run: MatchRun, settings: LoadMatchSettingsResult): number | null {
  const { state } = run;
  const reportWindowMs = settings.reportWindowMs ?? 0;
  if (state.status === 'completed' && reportWindowMs > 0 && patched(MATCH_REPORT_PATCH))
    return (state.completedAtMs ?? Date.now()) + reportWindowMs - Date.now();
  return null;
}
