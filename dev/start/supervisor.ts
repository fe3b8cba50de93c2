import type { ChildProcess } from 'node:child_process';
import { log, type Supervisor } from './context';

/** Ends a child: SIGTERM, SIGKILL after 35 s; resolves when it has exited. */
function ended(c: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill('SIGTERM');
    setTimeout(() => c.kill('SIGKILL'), 35_000).unref();
  });
}

/**
 * The supervisor of one `npm start`: stop() ends, in order, what the steps registered, then exits.
 * A stop while the servers are still starting waits for them, so that they are stopped too.
 */
export function createSupervisor(): Supervisor {
  let stopping = false;
  const s: Supervisor = {
    get stopping() {
      return stopping;
    },
    children: [],
    beforeStop: [],
    infra: undefined,
    infraStarting: undefined,
    stop: async (code) => {
      if (stopping) return;
      stopping = true;
      log('stopping…');
      for (const f of s.beforeStop) await f().catch(() => undefined);
      await Promise.all(s.children.map(ended));
      const infra = s.infra ?? (await s.infraStarting?.catch(() => undefined));
      await infra?.stop().catch((err: Error) => console.error(`[start] stopping the servers: ${err.message}`));
      log('stopped');
      process.exit(code);
    },
  };
  return s;
}
