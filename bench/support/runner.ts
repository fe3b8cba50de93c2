/**
 * How a bench runs: its flags (`parseBenchArgs`), its cases run in rounds (`runCases`), its
 * teardown (`Teardown`) and its process shell (`runMain`). A bench declares what it measures as
 * cases; the order the runner gives them (ours and its ceiling alternately, round by round) is
 * what lets both see the same machine load.
 */

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

/** One thing a bench measures. */
export interface BenchCase<R> {
  name: string;
  /** Untimed runs before the first measured one (JIT, pools, plans, caches). */
  warmUp?: () => Promise<unknown>;
  /** One measured run; `round` counts from 0. */
  run: (round: number) => Promise<R>;
}

export interface RunCasesOptions<R> {
  rounds: number;
  /** Every case's warm-up before round 1 (default: each right before its own first run). */
  warmUpFirst?: boolean;
  /** Called after each measured run (the benches log each round as it ends). */
  onResult?: (c: BenchCase<R>, result: R, round: number) => void;
}

/** Runs the cases alternately, `rounds` times; each case's results in round order, by name. */
export async function runCases<R>(
  cases: ReadonlyArray<BenchCase<R>>,
  o: RunCasesOptions<R>,
): Promise<Map<string, R[]>> {
  const results = new Map<string, R[]>(cases.map((c) => [c.name, []]));
  if (o.warmUpFirst) for (const c of cases) await c.warmUp?.();
  for (let round = 0; round < o.rounds; round++) {
    for (const c of cases) {
      if (round === 0 && !o.warmUpFirst) await c.warmUp?.();
      const r = await c.run(round);
      results.get(c.name)!.push(r);
      o.onResult?.(c, r, round);
    }
  }
  return results;
}

/**
 * What a bench opened, closed in reverse order. Every step runs even when one fails: with
 * `onError` each failure goes there, without it the first one is thrown once all have run.
 */
export class Teardown {
  private readonly steps: Array<() => Promise<unknown>> = [];

  add(step: () => Promise<unknown>): void {
    this.steps.push(step);
  }

  async run(onError?: (err: unknown) => void): Promise<void> {
    let first: { err: unknown } | null = null;
    while (this.steps.length) {
      try {
        await this.steps.pop()!();
      } catch (err) {
        if (onError) onError(err);
        else first ??= { err };
      }
    }
    if (first) throw first.err;
  }
}

/** The process shell: runs `main`, prints a failure and exits 1. With `mod`, only when that module is the entry point (others import from it). */
export function runMain(main: () => Promise<void>, mod?: NodeModule): void {
  if (mod && require.main !== mod) return;
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
