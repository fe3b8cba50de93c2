import type { Knex } from 'knex';

import type { MatchStatus, NoShowMissing } from '#workflows/matches/contract';

export type { MatchStatus, NoShowMissing };

export interface MatchRow {
  id: string;
  status: MatchStatus;
  seeker_user_id: string;
  queue_entry_id: string;
  job_id: string;
  team_id: string;
  /**
   * The match's recruiter (decision 0244): until a recruiter accepts, the one it is offered to
   * (events with recruiter availability, else null: the whole team); once one accepts, the accepter,
   * who interviews. With the team's auto-accept, the one it was offered to.
   */
  recruiter_user_id: string | null;
  decline_reason_code: string | null;
  live_event_id: string;
  live_event_slug: string | null;
  match_score: number | null;
  score_breakdown: unknown;
  score_version: string | null;
  seeker_via_agent: boolean;
  seeker_agent_identity: string | null;
  expires_at: Date | null;
  seeker_accepted_at: Date | null;
  recruiter_accepted_at: Date | null;
  recruiter_accepted_by: string | null;
  recruiter_auto_accepted: boolean;
  declined_at: Date | null;
  declined_by: string | null;
  declined_by_role: string | null;
  decline_reason: string | null;
  accepted_at: Date | null;
  /** Both parties first in the room together: the interview clock's start (null until then). */
  interview_started_at: Date | null;
  interview_ends_at: Date | null;
  completed_at: Date | null;
  completed_by: string | null;
  expired_at: Date | null;
  /** Each party's first arrival in the interview room (null: not yet, or not reported). */
  seeker_in_room_at: Date | null;
  recruiter_in_room_at: Date | null;
  /** Acceptance + MATCH_NO_SHOW_GRACE_MS: whoever has not come by then is a no-show (null: no no-show). */
  arrive_by: Date | null;
  no_show_at: Date | null;
  no_show_missing: NoShowMissing | null;
  created_at: Date;
  updated_at: Date;
}

/** A match with the job title and the candidate's public profile joined in (what the lists and pages show). */
export type MatchWithJob = MatchRow & {
  job_title: string | null;
  /** Display name of `recruiter_user_id` (offered to, or the interviewer once accepted). */
  recruiter_name: string | null;
  seeker_name: string | null;
  seeker_headline: string | null;
  seeker_skills: string[] | null;
};

/** The projection the match workflow writes: times as ISO strings; the recruiter only once one accepted. */
export type MatchProjection = Omit<
  MatchRow,
  | 'recruiter_user_id'
  | 'expires_at'
  | 'seeker_accepted_at'
  | 'recruiter_accepted_at'
  | 'declined_at'
  | 'accepted_at'
  | 'interview_started_at'
  | 'interview_ends_at'
  | 'completed_at'
  | 'expired_at'
  | 'seeker_in_room_at'
  | 'recruiter_in_room_at'
  | 'arrive_by'
  | 'no_show_at'
  | 'created_at'
  | 'updated_at'
> & {
  expires_at: string | null;
  seeker_accepted_at: string | null;
  recruiter_accepted_at: string | null;
  declined_at: string | null;
  accepted_at: string | null;
  interview_started_at: string | null;
  interview_ends_at: string | null;
  completed_at: string | null;
  expired_at: string | null;
  seeker_in_room_at: string | null;
  recruiter_in_room_at: string | null;
  arrive_by: string | null;
  no_show_at: string | null;
  created_at: string;
  recruiter_user_id?: string;
};

export function createMatchesRepository(knex: Knex) {
  const withJob = (trx: Knex) =>
    trx('matches as m')
      .leftJoin('jobs as j', 'j.id', 'm.job_id')
      .leftJoin('profiles as p', 'p.user_id', 'm.seeker_user_id')
      .leftJoin('users as ru', 'ru.id', 'm.recruiter_user_id')
      .select(
        'm.*',
        'j.title as job_title',
        'ru.display_name as recruiter_name',
        'p.full_name as seeker_name',
        'p.title as seeker_headline',
        'p.skills as seeker_skills',
      );
  return {
    /**
     * The one writer is the match workflow's projection activity (idempotent upsert). Answers the
     * status the row had before (read in the same statement: the CTE sees the snapshot before the
     * write), so the projection counts each change of status once (the outcome metrics).
     */
    async upsert(row: MatchProjection, trx: Knex = knex): Promise<{ previousStatus: string | null }> {
      const [written] = (await trx
        .with('prev', (q) => q.select('status').from('matches').where({ id: row.id }))
        .insert({ ...row, score_breakdown: JSON.stringify(row.score_breakdown ?? null), updated_at: trx.fn.now() })
        .into('matches')
        .onConflict('id')
        .merge()
        .returning(trx.raw('(SELECT status FROM prev) AS previous_status'))) as Array<{
        previous_status: string | null;
      }>;
      return { previousStatus: written?.previous_status ?? null };
    },
    /**
     * The match row is born with its seeker's `matched` (decision 0120): in the transaction that
     * projects the queue entry as matched, the row is written from the matchmaker's offer — the
     * state the match workflow starts in (`matched`, expires_at = offer time + acceptance window,
     * the team's auto-accept)
     * — unless the workflow already wrote it. From then on the match workflow's projection is the
     * one writer. So no answer can name a match that `GET /matches`, decline or the room URL do
     * not find.
     */
    async seedFromOffer(matchId: string, acceptWindowMs: number, trx: Knex = knex): Promise<void> {
      await trx.raw(
        `INSERT INTO matches (id, status, seeker_user_id, queue_entry_id, job_id, team_id, live_event_id, live_event_slug,
                              match_score, score_breakdown, score_version, seeker_via_agent, seeker_agent_identity,
                              expires_at, recruiter_auto_accepted, recruiter_accepted_at, recruiter_user_id, created_at, updated_at)
         SELECT o.id, 'matched', o.seeker_user_id, o.queue_entry_id, o.job_id, o.team_id, o.live_event_id, e.slug,
                o.match_score, o.score_breakdown, o.score_version, coalesce(q.via_agent, false), q.agent_identity,
                o.created_at + make_interval(secs => ?), coalesce(ts.auto_accept_matches, false),
                CASE WHEN ts.auto_accept_matches THEN o.created_at END, o.recruiter_user_id, o.created_at, now()
           FROM match_offers o
           JOIN live_events e ON e.id = o.live_event_id
           LEFT JOIN queue_entries q ON q.id = o.queue_entry_id
           -- The team's auto-accept, as the workflow reads it at its start (loadMatchSettings).
           LEFT JOIN team_settings ts ON ts.team_id = o.team_id
          WHERE o.id = ?
         -- Written by the match workflow first (not expected): keep its state, add only the recruiter it does not project.
         ON CONFLICT (id) DO UPDATE SET recruiter_user_id = EXCLUDED.recruiter_user_id WHERE matches.recruiter_user_id IS NULL`,
        [acceptWindowMs / 1000, matchId],
      );
    },
    async findById(id: string, trx: Knex = knex): Promise<MatchWithJob | undefined> {
      return withJob(trx).where('m.id', id).first();
    },
    /** Most recent first; a seeker's own matches. */
    async listForSeeker(userId: string, limit: number, trx: Knex = knex): Promise<MatchWithJob[]> {
      return withJob(trx)
        .where('m.seeker_user_id', userId)
        .orderBy([
          { column: 'm.created_at', order: 'desc' },
          { column: 'm.id', order: 'desc' },
        ])
        .limit(limit);
    },
    /** Open matches still waiting for this side's acceptance (the pending count in titles and the console). */
    async countAwaiting(who: { seekerUserId: string } | { teamId: string }, trx: Knex = knex): Promise<number> {
      const q = trx('matches').where({ status: 'matched' });
      if ('seekerUserId' in who) q.where({ seeker_user_id: who.seekerUserId }).whereNull('seeker_accepted_at');
      else q.where({ team_id: who.teamId }).whereNull('recruiter_accepted_at');
      const [{ n }] = await q.count<{ n: string }[]>({ n: '*' });
      return Number(n);
    },
    /** Most recent first; matches for the team's jobs. */
    async listForTeam(teamId: string, limit: number, trx: Knex = knex): Promise<MatchWithJob[]> {
      return withJob(trx)
        .where('m.team_id', teamId)
        .orderBy([
          { column: 'm.created_at', order: 'desc' },
          { column: 'm.id', order: 'desc' },
        ])
        .limit(limit);
    },
  };
}
export type MatchesRepository = ReturnType<typeof createMatchesRepository>;
