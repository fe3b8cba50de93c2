import { pollAfterSeconds, type WaitBlocker } from './wait-explanation';

const waiting = (blocker: WaitBlocker | null, seconds: number | null = null, minSeconds: number | null = null) =>
  pollAfterSeconds({ status: 'waiting', ended: false, explanation: { blocker }, estimate: { seconds, minSeconds } });

describe('poll_after_seconds: from the wait explanation and its estimate', () => {
  it('is short while an offer is due or being made, or a match awaits its answer', () => {
    expect(waiting(null, 4)).toBe(5);
    expect(waiting('offer_in_progress', 4)).toBe(5);
    expect(pollAfterSeconds({ status: 'matched', ended: false, explanation: null, estimate: null })).toBe(5);
    // Waiting, but matched between the reads (no explanation): look again soon.
    expect(pollAfterSeconds({ status: 'waiting', ended: false, explanation: null, estimate: null })).toBe(5);
  });

  it('grows with the estimate while capacity or the floor blocks: a tenth of it, 5 to 60 s', () => {
    expect(waiting('ahead_in_line', 30)).toBe(5);
    expect(waiting('no_free_slot', 240)).toBe(24);
    expect(waiting('recruiters_busy', 3600)).toBe(60);
    expect(waiting('below_floor', null, 300)).toBe(30);
    // Capacity blocks and too few matches to say when: between the two.
    expect(waiting('no_free_slot')).toBe(15);
  });

  it('is long while only something outside the queue can help', () => {
    expect(waiting('event_not_live')).toBe(60);
    expect(waiting('no_eligible_job')).toBe(60);
    expect(waiting('recruiters_unavailable')).toBe(60);
  });

  it('is null once the entry has ended', () => {
    for (const status of ['left', 'expired'] as const)
      expect(pollAfterSeconds({ status, ended: true, explanation: null, estimate: null })).toBeNull();
    // Matched and the match accepted: the entry's run finished with it.
    expect(pollAfterSeconds({ status: 'matched', ended: true, explanation: null, estimate: null })).toBeNull();
  });
});
