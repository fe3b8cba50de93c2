import type { MatchWithJob } from '#db/matches/matches-repository';
import { NotFoundError } from '#lib/errors';
import type { MatchPartyRole } from '#workflows/matches/contract';
import type { ServiceDeps } from '../../plugins/service-deps';
import type { VideoProvider } from '../../room/room-service';

export interface MatchView {
  match: MatchWithJob;
  /** The caller's role in the match. */
  role: MatchPartyRole;
}

/** What the matches use-cases share: the dependencies, the video provider, and the party check. */
export interface MatchesContext {
  deps: Pick<ServiceDeps, 'repos' | 'temporal' | 'config' | 'appSecret'>;
  video: VideoProvider;
  /** The match as the caller may see it (the seeker, or a recruiter of the job's team), or 404. */
  load(userId: string, matchId: string): Promise<MatchView>;
  /** The match as it is now, read again after a change, for a caller whose role is known. */
  reload(matchId: string, role: MatchPartyRole): Promise<MatchView>;
}

/**
 * Every call checks that the caller is a party — the seeker, or a recruiter of the job's team —
 * and answers 404 otherwise, so other tenants' matches are not revealed.
 */
export function createMatchesContext(deps: MatchesContext['deps'], video: VideoProvider): MatchesContext {
  const { accounts, matches } = deps.repos;
  const partyOf = async (userId: string, match: MatchWithJob): Promise<MatchPartyRole | null> => {
    if (match.seeker_user_id === userId) return 'seeker';
    const membership = await accounts.findMembership(userId);
    return membership && membership.team_id === match.team_id ? 'recruiter' : null;
  };
  return {
    deps,
    video,
    async load(userId, matchId) {
      const match = await matches.findById(matchId);
      const role = match ? await partyOf(userId, match) : null;
      if (!match || !role) throw new NotFoundError('match', matchId);
      return { match, role };
    },
    async reload(matchId, role) {
      const match = await matches.findById(matchId);
      if (!match) throw new NotFoundError('match', matchId);
      return { match, role };
    },
  };
}
