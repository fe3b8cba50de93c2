/**
 * The statistics every bench reports with. Two medians and two percentiles exist on purpose: each
 * bench keeps the definition its published figures were computed with, so a restructured bench
 * prints what it printed before.
 */

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

/** The upper middle value (the middle one for an odd count): what the interleaved-round benches report. */
export function median(xs: readonly number[]): number {
  return sorted(xs)[Math.floor(xs.length / 2)];
}

/** The textbook median: the mean of the two middle values for an even count (start-time, temporal-pragmas). */
export function midpointMedian(xs: readonly number[]): number {
  const s = sorted(xs);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Nearest-rank percentile: the smallest value with at least p % of the samples at or below it. */
export function percentile(xs: readonly number[], p: number): number {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** The value at index ⌊p % · n⌋ (NaN without samples): the webhooks bench's latency percentiles. */
export function percentileFloor(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export function sum(xs: readonly number[]): number {
  return xs.reduce((a, x) => a + x, 0);
}

/** Rounded to one decimal, as the JSON rows carry it. */
export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
