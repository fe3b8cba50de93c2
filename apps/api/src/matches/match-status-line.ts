import type { MatchWithJob } from '#db/matches/matches-repository';
import type { MatchPartyRole } from '#workflows/matches/contract';
import { MATCH_PEOPLE_WORDS as W } from '../web/messages';

/** The match fields a status line reads. */
export type MatchForStatusLine = Pick<
  MatchWithJob,
  | 'status'
  | 'seeker_accepted_at'
  | 'recruiter_accepted_at'
  | 'recruiter_accepted_by'
  | 'recruiter_auto_accepted'
  | 'recruiter_user_id'
  | 'recruiter_name'
>;

/** Who looks: the seeker, or a recruiter of the team (the accepter, the one it is offered to, or a teammate). */
export interface MatchViewer {
  role: MatchPartyRole;
  userId: string;
}

/**
 * Who accepted for the team, in words for this viewer: "You accepted", "Grace Hopper accepted",
 * "Accepted automatically for the team"; null while no recruiter has. Once a recruiter accepts,
 * `recruiter_user_id` names them (decision 0244), so `recruiter_name` is the accepter's.
 */
export function recruiterAcceptance(m: MatchForStatusLine, viewer: MatchViewer): string | null {
  if (!m.recruiter_accepted_at) return null;
  if (m.recruiter_auto_accepted) return W.teamAutoAccepted;
  if (viewer.role === 'recruiter' && m.recruiter_accepted_by === viewer.userId) return W.youAccepted;
  return m.recruiter_name ? W.accepted(m.recruiter_name) : W.aRecruiterAccepted;
}

/**
 * Who interviews for the team (decision 0244): the recruiter who accepted, or with the team's
 * auto-accept the one it was offered to; null when the match names nobody (anyone of the team).
 * `recruiter_accepted_by` first: a match finished before the accepter became its recruiter still
 * names the one it was offered to in `recruiter_user_id`.
 */
export function interviewerId(
  m: Pick<MatchForStatusLine, 'recruiter_accepted_by' | 'recruiter_auto_accepted' | 'recruiter_user_id'>,
): string | null {
  return m.recruiter_accepted_by && !m.recruiter_auto_accepted ? m.recruiter_accepted_by : m.recruiter_user_id;
}

/** Whom a `matched` match waits for, for this viewer ("Waiting for you and a recruiter"); null when nobody. */
export function waitingFor(m: MatchForStatusLine, viewer: MatchViewer): string | null {
  if (m.status !== 'matched') return null;
  const seeker = viewer.role === 'seeker';
  const waiting: string[] = [];
  if (!m.seeker_accepted_at) waiting.push(seeker ? W.you : W.theCandidate);
  if (!m.recruiter_accepted_at)
    waiting.push(
      seeker
        ? W.aRecruiter
        : m.recruiter_user_id === viewer.userId
          ? W.you
          : m.recruiter_name
            ? `${W.aRecruiter} (${W.offeredToName(m.recruiter_name)})`
            : W.yourTeam,
    );
  // The viewer first among those waited for.
  waiting.sort((a, b) => Number(b === W.you) - Number(a === W.you));
  return waiting.length ? W.waitingFor(waiting) : null;
}

/**
 * The one status line of a match, computed from its state for the viewer: who accepted and whom it
 * waits for ("The candidate accepted. Waiting for you."), or the outcome. Every page that shows a
 * match's status uses it (the match page, the match lists, the console).
 */
export function matchStatusLine(m: MatchForStatusLine, viewer: MatchViewer): string {
  const seeker = viewer.role === 'seeker';
  switch (m.status) {
    case 'matched': {
      const done: string[] = [];
      if (m.seeker_accepted_at) done.push(seeker ? W.youAccepted : W.candidateAccepted);
      const recruiter = recruiterAcceptance(m, viewer);
      if (recruiter) done.push(recruiter);
      const waiting = waitingFor(m, viewer);
      return [...done, ...(waiting ? [waiting] : [])].join('. ') + '.';
    }
    case 'accepted': {
      const name = m.recruiter_name;
      if (seeker) return `${name ? W.bothAcceptedMeet(name) : W.bothAccepted}.`;
      if (m.recruiter_user_id && m.recruiter_user_id !== viewer.userId && name)
        return `${W.bothAcceptedTeammate(name)}.`;
      return `${W.bothAccepted}.`;
    }
    case 'declined':
      return `${W.declined}.`;
    case 'expired':
      return `${W.expired}.`;
    case 'completed': {
      // The interviewer reads "Interview completed"; the seeker and teammates learn with whom.
      const named = m.recruiter_name && (seeker || (m.recruiter_user_id && m.recruiter_user_id !== viewer.userId));
      return `${named ? W.completedWith(m.recruiter_name!) : W.completed}.`;
    }
    case 'no_show':
      return `${W.noShow}.`;
    default:
      // A status this function does not know yet reads as itself rather than as nothing.
      return `${String(m.status)}.`;
  }
}
