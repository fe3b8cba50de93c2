import { NotFoundError } from '#lib/errors';
import type { MatchesContext, MatchView } from './match-access';

export const MATCH_LIST_MAX = 50;

/** Up to 50 recent matches of the caller: a seeker's own, or those of the recruiter's team. */
export async function listMatches(
  { deps }: MatchesContext,
  input: { userId: string; limit?: number },
): Promise<MatchView[]> {
  const { accounts, matches } = deps.repos;
  const limit = Math.min(MATCH_LIST_MAX, Math.max(1, input.limit ?? MATCH_LIST_MAX));
  const user = await accounts.findUserById(input.userId);
  if (!user) throw new NotFoundError('user', input.userId);
  if (user.role === 'seeker')
    return (await matches.listForSeeker(user.id, limit)).map((match) => ({ match, role: 'seeker' as const }));
  const membership = await accounts.findMembership(user.id);
  if (!membership) return [];
  return (await matches.listForTeam(membership.team_id, limit)).map((match) => ({
    match,
    role: 'recruiter' as const,
  }));
}
