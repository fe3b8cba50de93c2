/**
 * A start-up as an ordered list of named steps over one context (npm start, the cluster): each step
 * a small function, run in turn until one fails or the run is stopped.
 */
export interface Step<C> {
  name: string;
  run: (ctx: C) => Promise<void> | void;
}

/** Runs the steps in order; stops before the next step once `halted()` says so (false: not all ran). */
export async function runSteps<C>(steps: ReadonlyArray<Step<C>>, ctx: C, halted: () => boolean): Promise<boolean> {
  for (const step of steps) {
    if (halted()) return false;
    await step.run(ctx);
  }
  return !halted();
}
