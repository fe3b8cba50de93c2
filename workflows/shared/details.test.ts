import { liveEventDetails, matchDetails, queueEntryDetails } from './details';
import type { MatchState } from '../matches/contract';

describe('current details in words', () => {
  const match = {
    status: 'matched',
    liveEventSlug: 'acme',
    expiresAtMs: Date.UTC(2026, 10, 22, 14, 5),
    seekerAcceptedAtMs: 1,
    recruiterAcceptedAtMs: null,
  } as unknown as MatchState;
  it('says which side a match waits for and when it expires', () => {
    expect(matchDetails(match, 'Compiler Engineer')).toBe(
      `Match for "Compiler Engineer" at acme: matched. Waiting for a recruiter's acceptance (any of the team); expires 14:05 UTC.`,
    );
    expect(matchDetails({ ...match, seekerAcceptedAtMs: null }, 'X')).toContain(
      "Waiting for the seeker's acceptance and a recruiter's acceptance (any of the team)",
    );
  });
  it('names the recruiter who accepted for the team: the interviewer', () => {
    const accepted = { ...match, seekerAcceptedAtMs: null, recruiterAcceptedAtMs: 2, interviewerName: 'Grace Hopper' };
    expect(matchDetails(accepted, 'X')).toContain(
      "Grace Hopper accepted and interviews. Waiting for the seeker's acceptance;",
    );
    expect(
      matchDetails({ ...accepted, status: 'accepted', interviewEndsAtMs: Date.UTC(2026, 10, 22, 15, 0) }, 'X'),
    ).toBe(
      'Match for "X" at acme: accepted. Both accepted; Grace Hopper interviews; the interview ends 15:00 UTC at the latest.',
    );
  });
  it('describes queue entries and live events', () => {
    expect(
      queueEntryDetails({
        status: 'waiting',
        liveEventSlug: null,
        enteredAtMs: Date.UTC(2026, 10, 22, 13, 0),
        expiresAtMs: Date.UTC(2026, 10, 22, 15, 0),
        viaAgent: false,
      } as never),
    ).toBe('Waiting for a match at any event since 13:00 UTC; expires 15:00 UTC.');
    expect(liveEventDetails({ status: 'paused' } as never)).toMatch(/^Paused/);
  });
});
