/** A helper the benchmarks and the tests share: bounded concurrency. */

/** Runs `fn` over `items` (with each item's index) with at most `concurrency` in flight. */
export async function pool<T>(
  items: T[],
  concurrency: number,
  fn: (item: T, i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}
