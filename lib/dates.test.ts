import { iso } from './dates';

describe('iso', () => {
  it('gives the same ISO text for a Date and its epoch milliseconds', () => {
    const d = new Date('2026-03-01T12:34:56.789Z');
    expect(iso(d)).toBe('2026-03-01T12:34:56.789Z');
    expect(iso(d.getTime())).toBe('2026-03-01T12:34:56.789Z');
    expect(iso(0)).toBe('1970-01-01T00:00:00.000Z');
  });
  it('keeps null (and undefined) as null', () => {
    expect(iso(null)).toBeNull();
    expect(iso(undefined)).toBeNull();
  });
});
