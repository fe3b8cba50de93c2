import type { Knex } from 'knex';
import { type CandidateMatchRow, type CandidateNoteRow, type CandidateRow } from '#db/events/candidates-repository';
import { NotFoundError } from '#lib/errors';
import type { Page, Paginator } from '../plugins/pagination';
import type { ServiceDeps } from '../plugins/service-deps';

/** How many matches the candidate detail lists (newest first). */
export const CANDIDATE_MATCH_HISTORY_LIMIT = 50;

/**
 * The team's view of seekers: everyone who joined one of its events' queues or was matched with
 * one of its jobs. A seeker with no such contact is not a candidate of the team (404).
 */
export function createCandidatesService(deps: Pick<ServiceDeps, 'repos' | 'paginator'>) {
  const candidates = deps.repos.candidates;
  const mustFind = async (teamId: string, userId: string): Promise<CandidateRow> => {
    const row = await candidates.findForTeam(teamId, userId);
    if (!row) throw new NotFoundError('candidate', userId);
    return row;
  };
  return {
    async list(teamId: string, q: { limit: number; cursor?: string }): Promise<Page<CandidateRow>> {
      return deps.paginator.page<CandidateRow>(candidates.teamCandidatesQuery(teamId), {
        limit: q.limit,
        cursor: q.cursor,
        filter: { team: teamId },
        table: 'c',
      });
    },
    async get(teamId: string, userId: string): Promise<{ candidate: CandidateRow; matches: CandidateMatchRow[] }> {
      const candidate = await mustFind(teamId, userId);
      return { candidate, matches: await candidates.listMatches(teamId, userId, CANDIDATE_MATCH_HISTORY_LIMIT) };
    },
    /** The team's note and rating (1–5) on a candidate; PUT replaces both. */
    async putNote(
      teamId: string,
      recruiterId: string,
      userId: string,
      input: { note: string; rating: number | null },
    ): Promise<CandidateNoteRow> {
      await mustFind(teamId, userId);
      return candidates.upsertNote({
        team_id: teamId,
        seeker_user_id: userId,
        note: input.note,
        rating: input.rating,
        updated_by: recruiterId,
      });
    },
  };
}
export type CandidatesService = ReturnType<typeof createCandidatesService>;
