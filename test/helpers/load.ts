/**
 * The load a test harness drives (requests in flight, pollers, loops), so that closing stops it
 * before the app, worker and connections go: the signal is aborted first (loops and retry waits
 * end), then every tracked task is awaited, within a bound.
 */
export interface Load {
  signal: AbortSignal;
  /** Runs `task` and counts it as in flight until it settles. */
  track: <T>(task: () => Promise<T>) => Promise<T>;
  /**
   * Aborts the signal and waits (at most `timeoutMs`, well inside jest's hook timeout) for every
   * tracked task to settle. A task still running after that meets the closed app and pools.
   */
  stop: (timeoutMs?: number) => Promise<void>;
}

export function createLoad(): Load {
  const controller = new AbortController();
  const running = new Set<Promise<unknown>>();
  return {
    signal: controller.signal,
    track: (task) => {
      const p = task();
      running.add(p);
      const forget = () => running.delete(p);
      p.then(forget, forget);
      return p;
    },
    stop: async (timeoutMs = 20_000) => {
      controller.abort();
      const deadline = Date.now() + timeoutMs;
      // Tasks a stopping loop starts on its way out are waited for too.
      while (running.size && Date.now() < deadline) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...running]),
          new Promise((r) => {
            timer = setTimeout(r, deadline - Date.now());
          }),
        ]);
        clearTimeout(timer);
      }
    },
  };
}
