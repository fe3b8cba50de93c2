import { eventually } from './harness';

/**
 * An automatic cost bucket is a wall-clock interval (`Math.floor(now / bucketMs)`): two calls that
 * straddle its boundary land in two buckets. A test that expects the second call to be replayed
 * first waits, if needed, for a bucket with at least `marginMs` left, so a slow machine does not
 * turn the boundary into a flake.
 */
export async function withinOneCostBucket(bucketMs: number, marginMs = 20_000): Promise<void> {
  await eventually(async () => bucketMs - (Date.now() % bucketMs) >= marginMs, marginMs + 5_000, 250);
}
