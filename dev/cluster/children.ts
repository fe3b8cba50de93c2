import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/** A child in its own process group, its output appended to `logFile`. */
export function spawnLogged(cmd: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const fd = fs.openSync(logFile, 'a');
  try {
    return spawn(cmd, args, { env, stdio: ['ignore', fd, fd], detached: true });
  } finally {
    fs.closeSync(fd);
  }
}

/** The last 3000 characters of a log file (empty if there is none yet). */
export const tail = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8').slice(-3000);
  } catch {
    return '';
  }
};

/** Waits until `check` holds (every 200 ms, 120 s by default); `failed` names a failure that ends the wait at once. */
export async function until(
  what: string,
  check: () => Promise<boolean>,
  opts: { timeoutMs?: number; failed?: () => string | null } = {},
) {
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    const failure = opts.failed?.();
    if (failure) throw new Error(`${what}: ${failure}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${(opts.timeoutMs ?? 120_000) / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Whether `url` answers `status` within 2 s. */
export const answers = async (url: string, status = 200) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.arrayBuffer();
  return res.status === status;
};

/** Whether a child has exited (by code or signal). */
export const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;
