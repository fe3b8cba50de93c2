/**
 * Scale tests size their work to a deadline, not a count: a loaded machine does fewer rounds, and
 * the test asserts its property over what was done. `min` rounds always run (the property needs
 * them), then more while time is left, up to `max`. The environment can stretch or shrink the time
 * (`SCALE_SECONDS_FACTOR`, e.g. 0.25 for a quick local run, 4 for a soak).
 */
export async function roundsWithin<T>(
  o: { seconds: number; min: number; max?: number; signal?: AbortSignal },
  round: (i: number) => Promise<T>,
): Promise<T[]> {
  const factor = Number(process.env.SCALE_SECONDS_FACTOR ?? 1);
  const deadline = Date.now() + o.seconds * 1000 * (Number.isFinite(factor) && factor > 0 ? factor : 1);
  const done: T[] = [];
  while (done.length < o.min || (Date.now() < deadline && done.length < (o.max ?? Infinity) && !o.signal?.aborted))
    done.push(await round(done.length));
  return done;
}
