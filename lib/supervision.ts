import type { ChildProcess } from 'node:child_process';

/**
 * Processes started by `npm start` exit when their supervisor dies (even by SIGKILL), so a
 * crashed run leaves no API or worker behind holding ports. The callback shuts down cleanly.
 */
export function exitWithParent(onOrphaned: () => void): void {
  if (process.env.JOBFAIR_SUPERVISED !== '1') return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onOrphaned();
    }
  }, 1000);
  timer.unref();
}

/**
 * Stops a child server: `signal`, up to `graceMs` for it to exit, then SIGKILL and a wait for the
 * exit too (bounded), so its ports are free when this returns — a caller that exits right after
 * (npm start) or starts the next server on the same ports (tests) does not find them still held.
 * Timers are cleared, so a stopped server keeps nothing alive in this process.
 */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  if (gone()) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const within = async (ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  };
  child.kill(signal);
  await within(graceMs);
  if (gone()) return;
  child.kill('SIGKILL');
  await within(10_000);
}
