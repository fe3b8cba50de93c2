import { decide, gcraParams } from './rate-limit';

describe('GCRA header arithmetic', () => {
  it('interval and horizon keep the burst equal to the limit', () => {
    expect(gcraParams(60)).toEqual({ intervalMs: 1000, horizonMs: 60_000 });
    expect(gcraParams(3)).toEqual({ intervalMs: 20_000, horizonMs: 60_000 });
    expect(gcraParams(7)).toEqual({ intervalMs: 8572, horizonMs: 60_004 });
  });

  it('remaining, reset (Unix seconds) and retry-after from the theoretical arrival time', () => {
    const now = 1_800_000_000_000;
    // First request of a fresh bucket of 3/min: TAT = now + 20 s.
    expect(decide(3, true, now + 20_000, now)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetUnix: 1_800_000_020,
      retryAfterSeconds: 1,
    });
    // Burst spent: TAT = now + 60 s; a denied request may retry once TAT − 40 s has passed → 20 s.
    expect(decide(3, false, now + 60_000, now)).toMatchObject({
      allowed: false,
      remaining: 0,
      resetUnix: 1_800_000_060,
      retryAfterSeconds: 20,
    });
    expect(decide(3, false, now + 60_000, now + 5_500)).toMatchObject({ retryAfterSeconds: 15 });
    // A bucket idle for longer than its horizon is full.
    expect(decide(3, true, now - 1_000_000, now)).toMatchObject({ remaining: 3, resetUnix: 1_800_000_000 });
  });
});
