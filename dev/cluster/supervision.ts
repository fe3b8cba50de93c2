import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { exited } from './children';

/**
 * What the cluster has started and how it stops. What starts registers how it stops (`addStop`);
 * `stopAll()` ends them in reverse order of registration (a `first` one last), once. An abort of
 * `signal` stops the cluster, also during start-up. A supervisor that dies without stopping leaves
 * nothing behind: every child is killed on exit.
 */
export interface ClusterSupervisor {
  readonly stopped: boolean;
  /** Every process the cluster runs, killed if the supervisor exits without stopping. */
  readonly children: Set<ChildProcess>;
  /**
   * Registers how a started piece stops. Once stopping (an abort during start-up), a server that
   * finishes starting afterwards is stopped at once and start-up goes no further (this throws).
   */
  addStop: (what: string, stop: () => Promise<void>, first?: boolean) => void;
  stopAll: () => Promise<void>;
  /** After a failed start-up: stops everything, the pieces that finished starting late too. */
  abandon: () => Promise<void>;
}

export function superviseCluster(opts: {
  log: (line: string) => void;
  dir: string;
  /** Remove `dir` once stopped (a temporary run folder). */
  removeDir: boolean;
  signal?: AbortSignal;
}): ClusterSupervisor {
  const { log } = opts;
  const stops: Array<{ what: string; stop: () => Promise<void> }> = [];
  const children = new Set<ChildProcess>();
  const onExit = () => {
    for (const c of children) if (!exited(c)) c.kill('SIGKILL');
  };
  process.on('exit', onExit);
  let stopped = false;
  let stopping: Promise<void> | null = null;
  const stopAll = () =>
    (stopping ??= (async () => {
      stopped = true;
      for (const s of stops.reverse()) {
        const t = Date.now();
        await s.stop().catch((e: Error) => log(`stopping ${s.what}: ${e.message}`));
        log(`stopped ${s.what} (${Date.now() - t} ms)`);
      }
      process.off('exit', onExit);
      opts.signal?.removeEventListener('abort', onAbort);
      if (opts.removeDir) fs.rmSync(opts.dir, { recursive: true, force: true });
    })());
  const late: Array<Promise<void>> = [];
  const addStop = (what: string, stop: () => Promise<void>, first = false) => {
    if (stopped) {
      late.push(stop().catch(() => undefined));
      throw new Error(`the cluster was stopped during start-up (${what} stopped again)`);
    }
    if (first) stops.splice(0, 0, { what, stop });
    else stops.push({ what, stop });
  };
  const onAbort = () => void stopAll();
  if (opts.signal?.aborted) throw new Error('the cluster was stopped before it started');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    get stopped() {
      return stopped;
    },
    children,
    addStop,
    stopAll,
    abandon: async () => {
      await stopAll();
      await Promise.all(late);
    },
  };
}
