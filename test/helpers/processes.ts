import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Harness } from './harness';
import { eventually } from './harness';
import { freePort } from '#dev/ports';
import { testEnv } from './env';

const ROOT = path.resolve(__dirname, '..', '..');

export type RunningProcess = ChildProcess & { output: () => string };

/**
 * `node --import tsx` (as npm start does), or with `dist` (a folder `buildDist` of bench/support/infra.ts
 * built) plain `node` on the compiled entry, as the production image runs it — the worker then starts
 * from the prebuilt workflow bundle instead of running webpack. Either way the child is the process
 * itself, so a kill -9 reaches it.
 */
export function runProcess(entry: string, env: Record<string, string>, opts: { dist?: string } = {}): RunningProcess {
  const args = opts.dist
    ? [path.join(opts.dist, entry.replace(/\.ts$/, '.js'))]
    : ['--import', 'tsx', path.join(ROOT, entry)];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return Object.assign(child, { output: () => out });
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** The environment of an API (or worker) process on the harness's database and task queue. */
export async function processEnv(
  h: Harness,
  extra: Record<string, string> = {},
): Promise<{ env: Record<string, string>; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      DATABASE_URL: h.dbUrl,
      TEMPORAL_ADDRESS: testEnv().temporalAddress,
      TEMPORAL_TASK_QUEUE: h.config.TEMPORAL_TASK_QUEUE,
      APP_SECRET: h.config.APP_SECRET!,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      // Tests read the first attempt's outcome from the test send's answer; a loaded machine must not
      // turn it into `pending` (decision 0202). Tests of the bounded wait set it low.
      WEBHOOK_TEST_WAIT_MS: '60000',
      ...extra,
    },
  };
}

/** Starts an API process and waits (with a deadline) until it is ready. */
export async function startApi(
  env: Record<string, string>,
  base: string,
  timeoutMs = 60_000,
  opts: { dist?: string } = {},
): Promise<RunningProcess> {
  const api = runProcess('apps/api/src/server.ts', env, opts);
  try {
    await eventually(
      async () => api.exitCode === null && (await fetch(`${base}/readyz`)).status === 200,
      timeoutMs,
      100,
    );
  } catch (err) {
    api.kill('SIGKILL');
    throw new Error(`API did not become ready: ${(err as Error).message}\n${api.output()}`);
  }
  return api;
}
