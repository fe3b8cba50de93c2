import type { Knex } from 'knex';
import { UUID_RE } from '#lib/ids';

/** A seeker as one team sees them: who joined the team's events or matched its jobs. */
export interface CandidateRow {
  /** The seeker's user id. */
  id: string;
  display_name: string;
  full_name: string | null;
  title: string | null;
  summary: string | null;
  skills: string[] | null;
  experience_years: number | null;
  location: string | null;
  remote_preference: string | null;
  /** First contact with the team (first queue entry for one of its events, or first match). */
  created_at: Date;
  last_seen_at: Date;
  event_slugs: string[];
  matches_count: number;
  note: string | null;
  rating: number | null;
  note_updated_at: Date | null;
  /** The agent identity of the candidate's latest queue entry for the team's events made through an agent (null: none). */
  agent_identity: string | null;
}

export interface CandidateMatchRow {
  id: string;
  status: string;
  match_score: number | null;
  job_id: string;
  job_title: string;
  event_slug: string;
  created_at: Date;
  expires_at: Date | null;
  accepted_at: Date | null;
  declined_at: Date | null;
  completed_at: Date | null;
}

export interface CandidateNoteRow {
  team_id: string;
  seeker_user_id: string;
  note: string;
  rating: number | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export function createCandidatesRepository(knex: Knex) {
  /** Every contact of a seeker with the team, one row per seeker (alias `c`). */
  const contacts = (trx: Knex, teamId: string) =>
    trx
      .select('s.user_id as id')
      .min('s.at as created_at')
      .max('s.at as last_seen_at')
      .from(
        trx
          .select('q.user_id', 'q.entered_at as at')
          .from('queue_entries as q')
          .join('live_events as e', 'e.id', 'q.live_event_id')
          .where('e.team_id', teamId)
          .unionAll((u) =>
            u
              .select('m.seeker_user_id as user_id', 'm.created_at as at')
              .from('matches as m')
              .where('m.team_id', teamId),
          )
          .as('s'),
      )
      .groupBy('s.user_id')
      .as('c');

  const candidates = (trx: Knex, teamId: string) =>
    trx
      .from(contacts(trx, teamId))
      .join('users as u', 'u.id', 'c.id')
      .leftJoin('profiles as p', 'p.user_id', 'c.id')
      .leftJoin('candidate_notes as n', (j) =>
        j.on('n.seeker_user_id', '=', 'c.id').andOn('n.team_id', '=', trx.raw('?', [teamId])),
      )
      .select(
        'c.id',
        'c.created_at',
        'c.last_seen_at',
        'u.display_name',
        'p.full_name',
        'p.title',
        'p.summary',
        'p.skills',
        'p.experience_years',
        'p.location',
        'p.remote_preference',
        'n.note',
        'n.rating',
        'n.updated_at as note_updated_at',
        trx.raw(
          `ARRAY(SELECT DISTINCT e2.slug FROM queue_entries q2 JOIN live_events e2 ON e2.id = ` +
            `q2.live_event_id WHERE q2.user_id = c.id AND e2.team_id = ? ORDER BY e2.slug) AS ` +
            `event_slugs`,
          [teamId],
        ),
        trx.raw(
          '(SELECT count(*) FROM matches m2 WHERE m2.seeker_user_id = c.id AND m2.team_id = ?)::int AS matches_count',
          [teamId],
        ),
        trx.raw(
          `(SELECT q3.agent_identity FROM queue_entries q3 JOIN live_events e3 ON e3.id = ` +
            `q3.live_event_id WHERE q3.user_id = c.id AND e3.team_id = ? AND q3.via_agent ORDER BY ` +
            `q3.entered_at DESC LIMIT 1) AS agent_identity`,
          [teamId],
        ),
      );

  return {
    /** Query for the pagination helper (alias `c`): newest first contact first. */
    teamCandidatesQuery(teamId: string, trx: Knex = knex): Knex.QueryBuilder {
      return candidates(trx, teamId);
    },
    async findForTeam(teamId: string, userId: string, trx: Knex = knex): Promise<CandidateRow | undefined> {
      if (!UUID_RE.test(userId)) return undefined;
      return candidates(trx, teamId).where('c.id', userId).first();
    },
    async listMatches(teamId: string, userId: string, limit: number, trx: Knex = knex): Promise<CandidateMatchRow[]> {
      return trx('matches as m')
        .join('jobs as j', 'j.id', 'm.job_id')
        .join('live_events as e', 'e.id', 'm.live_event_id')
        .where('m.team_id', teamId)
        .andWhere('m.seeker_user_id', userId)
        .select(
          'm.id',
          'm.status',
          'm.match_score',
          'm.job_id',
          'j.title as job_title',
          'e.slug as event_slug',
          'm.created_at',
          'm.expires_at',
          'm.accepted_at',
          'm.declined_at',
          'm.completed_at',
        )
        .orderBy([
          { column: 'm.created_at', order: 'desc' },
          { column: 'm.id', order: 'desc' },
        ])
        .limit(limit);
    },
    async upsertNote(
      input: { team_id: string; seeker_user_id: string; note: string; rating: number | null; updated_by: string },
      trx: Knex = knex,
    ): Promise<CandidateNoteRow> {
      const [row] = await trx('candidate_notes')
        .insert({ ...input, updated_at: trx.fn.now() })
        .onConflict(['team_id', 'seeker_user_id'])
        .merge(['note', 'rating', 'updated_by', 'updated_at'])
        .returning('*');
      return row;
    },
  };
}
export type CandidatesRepository = ReturnType<typeof createCandidatesRepository>;
