import type { Knex } from 'knex';

/** What the recruiter decides after an interview: continue (contact details are exchanged), follow up later, or pass. */
export const INTERVIEW_OUTCOMES = ['advance', 'follow_up', 'pass'] as const;
export type InterviewOutcome = (typeof INTERVIEW_OUTCOMES)[number];

export interface InterviewReportRow {
  match_id: string;
  team_id: string;
  seeker_user_id: string;
  author_user_id: string | null;
  fit: number;
  communication: number;
  technical: number;
  outcome: InterviewOutcome;
  notes: string;
  created_at: Date;
  updated_at: Date;
}

export type InterviewReportWithJob = InterviewReportRow & { job_title: string | null; author_name: string | null };

/** Data access for `interview_reports` (matches): the report card a recruiter fills in after an interview. */
export function createInterviewReportsRepository(knex: Knex) {
  return {
    /** One report per match: a second submission replaces the first (the latest judgement counts). */
    async upsert(
      row: Omit<InterviewReportRow, 'created_at' | 'updated_at'>,
      trx: Knex = knex,
    ): Promise<InterviewReportRow> {
      const [saved] = await trx('interview_reports')
        .insert({ ...row, updated_at: trx.fn.now() })
        .onConflict('match_id')
        .merge(['author_user_id', 'fit', 'communication', 'technical', 'outcome', 'notes', 'updated_at'])
        .returning('*');
      return saved;
    },
    async findByMatch(matchId: string, trx: Knex = knex): Promise<InterviewReportRow | undefined> {
      return trx('interview_reports').where({ match_id: matchId }).first();
    },
    /** The team's reports on one candidate, newest first (the console's candidate page). */
    async listForCandidate(
      teamId: string,
      seekerUserId: string,
      limit: number,
      trx: Knex = knex,
    ): Promise<InterviewReportWithJob[]> {
      return trx('interview_reports as r')
        .leftJoin('matches as m', 'm.id', 'r.match_id')
        .leftJoin('jobs as j', 'j.id', 'm.job_id')
        .leftJoin('users as u', 'u.id', 'r.author_user_id')
        .where({ 'r.team_id': teamId, 'r.seeker_user_id': seekerUserId })
        .orderBy('r.updated_at', 'desc')
        .limit(limit)
        .select('r.*', 'j.title as job_title', 'u.display_name as author_name');
    },
  };
}
export type InterviewReportsRepository = ReturnType<typeof createInterviewReportsRepository>;
