import { WorkflowNotFoundError } from '@temporalio/client';
import type { InterviewReportRow } from '#db/matches/interview-reports-repository';
import { ConflictError, ForbiddenError } from '#lib/errors';
import { interviewReportedSignal, matchWorkflowId } from '#workflows/matches/contract';
import { interviewerId } from '../match-status-line';
import type { InterviewReportBody } from '../matches-schemas';
import type { MatchesContext } from './match-access';

/**
 * The report card after the interview: only a recruiter of the match's team, only once the
 * interview is completed. Stored on the candidate for the team (one per match; a resubmission
 * replaces it). The match workflow is told (`interviewReported`): "advance" sends both sides
 * each other's contact details. Answers whether the workflow heard it (false once its
 * INTERVIEW_REPORT_WINDOW_MS has passed: the report is stored, no e-mail goes out).
 */
export async function submitReport(
  ctx: MatchesContext,
  input: { userId: string; matchId: string; report: InterviewReportBody },
): Promise<{ report: InterviewReportRow; told: boolean }> {
  const { match, role } = await ctx.load(input.userId, input.matchId);
  if (role !== 'recruiter')
    throw new ForbiddenError('Only a recruiter of the team writes the report card', 'ROLE_NOT_ALLOWED');
  if (match.status !== 'completed')
    throw new ConflictError(
      'MATCH_NOT_COMPLETED',
      `match ${match.id} is ${match.status}; the report card follows the interview`,
      { status: match.status },
    );
  // The report card is the interviewer's (decision 0249): they were in the room, and "advance"
  // gives the candidate their address. Anyone of the team when the match names nobody.
  const interviewer = interviewerId(match);
  if (interviewer && interviewer !== input.userId)
    throw new ForbiddenError(
      `match ${match.id} was interviewed by another recruiter of the team (user ${interviewer}); only they write its report card`,
      'MATCH_NOT_YOUR_INTERVIEW',
    );
  const report = await ctx.deps.repos.interviewReports.upsert({
    match_id: match.id,
    team_id: match.team_id,
    seeker_user_id: match.seeker_user_id,
    author_user_id: input.userId,
    fit: input.report.fit,
    communication: input.report.communication,
    technical: input.report.technical,
    outcome: input.report.outcome,
    notes: input.report.notes,
  });
  let told = true;
  try {
    await ctx.deps.temporal.workflow
      .getHandle(matchWorkflowId(match.id))
      .signal(interviewReportedSignal, { outcome: report.outcome });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    told = false;
  }
  return { report, told };
}
