import type { MatchState } from '../matches/contract';
import type { QueueEntryState } from '../queue/contract';
import type { LiveEventState } from '../events/contract';

/**
 * "Current details" of the long-running workflows in words, for operators in the Temporal UI
 * (`setCurrentDetails`, written with each projection: it adds no command, so no patch). Pure; times
 * in UTC (the UI shows no time zone of ours). Names only: no e-mail address enters Temporal.
 */
const utc = (ms: number | null) => (ms === null ? '?' : `${new Date(ms).toISOString().slice(11, 16)} UTC`);

/** Who accepted for the team, by name (decision 0244: the accepter interviews); null when unknown. */
const interviewer = (s: MatchState): string | null =>
  s.recruiterAutoAccepted ? 'The team (auto-accept)' : s.recruiterAcceptedAtMs ? (s.interviewerName ?? null) : null;

export function matchDetails(s: MatchState, jobTitle: string): string {
  const head = `Match for "${jobTitle}" at ${s.liveEventSlug}: ${s.status}.`;
  switch (s.status) {
    case 'matched': {
      const waiting = [
        !s.seekerAcceptedAtMs && "the seeker's acceptance",
        !s.recruiterAcceptedAtMs && "a recruiter's acceptance (any of the team)",
      ]
        .filter(Boolean)
        .join(' and ');
      return `${head}${interviewer(s) ? ` ${interviewer(s)} accepted and interviews.` : ''} Waiting for ${waiting}; expires ${utc(s.expiresAtMs)}.`;
    }
    case 'accepted':
      return `${head} Both accepted${interviewer(s) ? `; ${interviewer(s)} interviews` : ''}; the interview ends ${utc(s.interviewEndsAtMs)} at the latest.`;
    case 'declined':
      return `${head} Declined by the ${s.declinedByRole ?? 'a party'} at ${utc(s.declinedAtMs)}.`;
    case 'expired':
      return `${head} Nobody waits: the acceptance window closed at ${utc(s.expiredAtMs)}.`;
    case 'completed':
      return `${head} Interview completed at ${utc(s.completedAtMs)}${s.interviewerName ? ` (interviewer ${s.interviewerName})` : ''}.`;
    case 'no_show':
      return `${head} No-show: the ${s.noShowMissing === 'both' ? 'seeker and the recruiter' : (s.noShowMissing ?? 'other side')} did not come to the room by ${utc(s.noShowAtMs ?? null)}.`;
  }
}

export function queueEntryDetails(s: QueueEntryState): string {
  const where = s.liveEventSlug ? `event ${s.liveEventSlug}` : 'any event';
  if (s.status === 'waiting')
    return `Waiting for a match at ${where} since ${utc(s.enteredAtMs)}${s.viaAgent && s.agentIdentity ? ` (agent ${s.agentIdentity})` : ''}; expires ${utc(s.expiresAtMs)}.`;
  if (s.status === 'matched')
    return s.finished
      ? `Matched and accepted (match ${s.matchId}); done.`
      : `Matched (match ${s.matchId}): waiting for both sides to accept; back to waiting if it is declined or expires.`;
  return `Ended: ${s.status}${s.endReason ? ` (${s.endReason})` : ''}.`;
}

export function liveEventDetails(s: LiveEventState): string {
  if (s.status === 'live')
    return `Live since ${utc(s.startedAtMs)}${s.endsAtMs ? `; planned end ${utc(s.endsAtMs)}` : ''}: the matchmaker offers its jobs.`;
  if (s.status === 'paused') return 'Paused: waiting seekers keep their places; no new matches until it resumes.';
  if (s.status === 'ended')
    return `Ended at ${utc(s.endedAtMs)}${s.drained ? `; ${s.drainedEntries} waiting entries told` : '; telling waiting entries'}.`;
  return 'Draft: not live yet.';
}
