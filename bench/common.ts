/** Helpers the benchmarks share (not a benchmark itself: `bench/run.ts` skips this file). */

type KeysOf<O, V> = { [K in keyof O]-?: O[K] extends V ? K : never }[keyof O];

/**
 * Command-line options of a benchmark over its defaults: `numbers` maps `--name` to an option
 * that takes a positive integer, `flags` maps `--name` to a boolean option set by its presence.
 * The benchmark's own name (`npm run bench -- <name> …` passes it on) is skipped; anything else
 * is refused with the list of numeric options.
 */
export function parseBenchArgs<O extends object>(
  argv: string[],
  bench: string,
  defaults: O,
  numbers: Record<string, KeysOf<O, number>>,
  flags: Record<string, KeysOf<O, boolean>> = {},
): O {
  const o = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (Object.hasOwn(numbers, k)) {
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`${k} needs a positive integer`);
      i++;
      o[numbers[k]] = n as O[KeysOf<O, number>];
    } else if (Object.hasOwn(flags, k)) {
      o[flags[k]] = true as O[KeysOf<O, boolean>];
    } else if (k !== bench) {
      throw new Error(`unknown argument ${k}; use ${Object.keys(numbers).join(', ')}`);
    }
  }
  return o;
}

/** Runs `fn` over `items` (with each item's index) with at most `concurrency` in flight. */
export async function pool<T>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
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
