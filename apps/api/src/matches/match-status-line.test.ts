import { matchStatusLine, type MatchForStatusLine } from './match-status-line';

/**
 * The status line per viewer, before and after each acceptance: a match offered to Margaret
 * (the suggested recruiter), accepted by her teammate Grace, looked at by the seeker, Grace and Margaret.
 */
describe('match status line per viewer', () => {
  const margaret = { role: 'recruiter' as const, userId: 'margaret' };
  const grace = { role: 'recruiter' as const, userId: 'grace' };
  const seeker = { role: 'seeker' as const, userId: 'ada' };
  const offered: MatchForStatusLine = {
    status: 'matched',
    seeker_accepted_at: null,
    recruiter_accepted_at: null,
    recruiter_accepted_by: null,
    recruiter_auto_accepted: false,
    recruiter_user_id: 'margaret',
    recruiter_name: 'Margaret Hamilton',
  };
  const seekerAccepted = { ...offered, seeker_accepted_at: new Date() };
  const graceAccepted = {
    ...offered,
    recruiter_accepted_at: new Date(),
    recruiter_accepted_by: 'grace',
    recruiter_user_id: 'grace',
    recruiter_name: 'Grace Hopper',
  };
  const both = { ...graceAccepted, seeker_accepted_at: new Date(), status: 'accepted' as const };

  it('before anyone accepts: the seeker waits for a recruiter, the suggested one is asked, a teammate sees to whom it is offered', () => {
    expect(matchStatusLine(offered, seeker)).toBe('Waiting for you and a recruiter.');
    expect(matchStatusLine(offered, margaret)).toBe('Waiting for you and the candidate.');
    expect(matchStatusLine(offered, grace)).toBe(
      'Waiting for the candidate and a recruiter (offered to Margaret Hamilton).',
    );
  });
  it('after the seeker accepts', () => {
    expect(matchStatusLine(seekerAccepted, seeker)).toBe('You accepted. Waiting for a recruiter.');
    expect(matchStatusLine(seekerAccepted, margaret)).toBe('The candidate accepted. Waiting for you.');
    expect(matchStatusLine(seekerAccepted, grace)).toBe(
      'The candidate accepted. Waiting for a recruiter (offered to Margaret Hamilton).',
    );
  });
  it('after a teammate accepts first: the accepter is named, never "You accepted" for the one it was offered to', () => {
    expect(matchStatusLine(graceAccepted, seeker)).toBe('Grace Hopper accepted. Waiting for you.');
    expect(matchStatusLine(graceAccepted, grace)).toBe('You accepted. Waiting for the candidate.');
    expect(matchStatusLine(graceAccepted, margaret)).toBe('Grace Hopper accepted. Waiting for the candidate.');
  });
  it('once both accepted: the seeker learns whom they meet; the teammate who interviews is named to the others', () => {
    expect(matchStatusLine(both, seeker)).toBe('Both accepted: you meet Grace Hopper in the interview room.');
    expect(matchStatusLine(both, grace)).toBe('Both accepted: the interview room is open.');
    expect(matchStatusLine(both, margaret)).toBe('Both accepted: Grace Hopper interviews the candidate.');
  });
  it("the team's auto-accept and a match offered to nobody in particular", () => {
    const auto = { ...offered, recruiter_accepted_at: new Date(), recruiter_auto_accepted: true };
    expect(matchStatusLine(auto, margaret)).toBe('Accepted automatically for the team. Waiting for the candidate.');
    const nobody = { ...offered, recruiter_user_id: null, recruiter_name: null };
    expect(matchStatusLine(nobody, grace)).toBe('Waiting for the candidate and your team.');
    expect(matchStatusLine(nobody, seeker)).toBe('Waiting for you and a recruiter.');
  });
  it('after the interview: teammates and the seeker learn with whom; the interviewer reads it plainly', () => {
    const done = { ...both, status: 'completed' as const };
    expect(matchStatusLine(done, grace)).toBe('Interview completed.');
    expect(matchStatusLine(done, margaret)).toBe('Interview with Grace Hopper completed.');
    expect(matchStatusLine(done, seeker)).toBe('Interview with Grace Hopper completed.');
  });
});
