import type { FastifyInstance } from 'fastify';
import type { UserRow } from '#db/accounts/accounts-repository';
import type { InterviewReportRow } from '#db/matches/interview-reports-repository';
import type { MatchWithJob } from '#db/matches/matches-repository';
import type { MatchView } from '../matches-service';
import { interviewerId } from '../match-status-line';

type Repos = FastifyInstance['services']['deps']['repos'];
type Profile = Awaited<ReturnType<FastifyInstance['services']['accounts']['profiles']['get']>>;

/** Everything one match's page shows besides the match: the job, the event, the people and the report card. */
export interface MatchPageData {
  m: MatchWithJob;
  role: MatchView['role'];
  job: Awaited<ReturnType<Repos['jobs']['findForTeam']>>;
  event: Awaited<ReturnType<Repos['events']['findById']>>;
  seekerProfile: Profile;
  seekerUser: UserRow | undefined;
  /** The recruiter who accepted for the team (none with the team's auto-accept). */
  acceptedBy: UserRow | undefined;
  report: InterviewReportRow | undefined;
  /** The seeker's contact after an "advance": the interviewer, else the report's author. */
  author: UserRow | undefined;
  interviewerName: string | null;
  reportAuthorName: string | null;
}

/** Reads what the page of the caller's match shows. */
export async function loadMatchPageData(app: FastifyInstance, { match: m, role }: MatchView): Promise<MatchPageData> {
  const profiles = app.services.accounts.profiles;
  const { events, jobs, accounts, interviewReports } = app.services.deps.repos;
  const [job, event, seekerProfile, seekerUser, acceptedBy, report] = await Promise.all([
    jobs.findForTeam(m.team_id, m.job_id),
    events.findById(m.live_event_id),
    profiles.get(m.seeker_user_id),
    accounts.findUserById(m.seeker_user_id),
    m.recruiter_accepted_by ? accounts.findUserById(m.recruiter_accepted_by) : Promise.resolve(undefined),
    m.status === 'completed' ? interviewReports.findByMatch(m.id) : Promise.resolve(undefined),
  ]);
  // The seeker's contact after an "advance" is the recruiter who interviewed (decision 0244), the
  // report's author when the match names nobody.
  const interviewer = interviewerId(m);
  const author =
    report?.outcome === 'advance' && interviewer
      ? await accounts.findUserById(interviewer)
      : report?.author_user_id
        ? await accounts.findUserById(report.author_user_id)
        : undefined;
  const interviewerName =
    interviewer === m.recruiter_user_id
      ? m.recruiter_name
      : interviewer === acceptedBy?.id
        ? acceptedBy.display_name
        : null;
  const reportAuthorName = !report?.author_user_id
    ? null
    : report.author_user_id === author?.id
      ? author.display_name
      : ((await accounts.findUserById(report.author_user_id))?.display_name ?? null);
  return {
    m,
    role,
    job,
    event,
    seekerProfile,
    seekerUser,
    acceptedBy,
    report,
    author,
    interviewerName,
    reportAuthorName,
  };
}
