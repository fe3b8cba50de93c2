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
      `Match for "Compiler Engineer" at acme: matched. Waiting for the recruiter's acceptance; expires 14:05 UTC.`,
    );
    expect(matchDetails({ ...match, seekerAcceptedAtMs: null }, 'X')).toContain(
      "Waiting for the seeker's acceptance and the recruiter's acceptance",
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
