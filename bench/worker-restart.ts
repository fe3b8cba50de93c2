import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '#lib/config';
import { startThrowawayInfrastructure } from '#dev/stack';
import { exitOf, runProcess } from '#test/helpers/processes';
import { buildDist, loadavg, migratedDatabase, ROOT } from './support/infra';
import { runCases, runMain } from './support/runner';
import { median } from './support/stats';

/**
 * Worker kill -9 → polling again, the two ways a worker can start (decision 0225: the image starts the worker from a prebuilt workflow bundle):
 *
 *   npx tsx bench/worker-restart.ts [--runs 3]
 *
 * Starts its own PostgreSQL and in-memory Temporal, builds the production output once (`npm run
 * build:dist` into a git-ignored dist/ folder), starts a worker, then `--runs` times per mode,
 * alternating: kill -9 the running worker and start a new one at once, timing from the kill to its
 * `worker running` line (logged right after `Worker.create` resolved and `worker.run()` began
 * polling). Modes: `tsx` — `node --import tsx apps/worker/src/main.ts` (npm start; no prebuilt
 * bundle, so the SDK bundles the workflow code with webpack on every start) — and `compiled` —
 * `node dist/apps/worker/src/main.js` (the image: plain node, `dist/workflow-bundle.js`). Prints each
 * time, the medians and the load average.
 */
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(values.runs);
const log = (l: string) => console.log(`[worker-restart] ${l}`);

type Mode = 'tsx' | 'compiled';
type Running = ReturnType<typeof runProcess>;

/** The worker's database, migrated, and the environment a worker of either mode runs with. */
async function workerEnv(
  infra: { adminDatabaseUrl?: string | null; databaseUrl: string; temporalAddress: string },
  dist: string,
): Promise<Record<string, string>> {
  const { url: dbUrl, knex } = await migratedDatabase(infra.adminDatabaseUrl ?? infra.databaseUrl, 'restart', 2);
  await knex.destroy();
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    DATABASE_URL: dbUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    TEMPORAL_TASK_QUEUE: 'worker-restart',
    APP_SECRET: 'worker-restart-secret-worker-restart-01',
    DATA_DIR: path.join(dist, 'data'),
  };
}

/** Waits for a started worker's `worker running` line; the milliseconds from `t0` to it. */
async function untilRunning(w: Running, mode: Mode, t0: number): Promise<number> {
  const deadline = Date.now() + 180_000;
  while (!/worker running/.test(w.output())) {
    if (w.exitCode !== null || Date.now() > deadline)
      throw new Error(`worker (${mode}) did not start:\n${w.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return performance.now() - t0;
}

async function main() {
  log(`load average at start: ${loadavg()}`);
  const base = loadConfig({}, { NODE_ENV: 'test', APP_SECRET: 'worker-restart-secret-worker-restart-01' });
  const infra = await startThrowawayInfrastructure({
    config: base,
    log: () => undefined,
    prefix: 'jobfair-worker-restart',
  });
  const dist = path.join(ROOT, 'dist', `worker-restart-${randomUUID().slice(0, 8)}`);
  let running: Running | null = null;
  try {
    const tb = Date.now();
    buildDist(dist);
    log(`build:dist in ${((Date.now() - tb) / 1000).toFixed(1)} s`);
    const env = await workerEnv(infra, dist);
    const start = (mode: Mode, t0: number) =>
      untilRunning(
        (running = runProcess('apps/worker/src/main.ts', env, mode === 'compiled' ? { dist } : {})),
        mode,
        t0,
      );
    await start('compiled', performance.now());
    // Each measured run kills the running worker (kill -9) and starts one of its mode at once, the modes alternating.
    const restart = (mode: Mode) => async () => {
      const prev = running!;
      const t0 = performance.now();
      prev.kill('SIGKILL');
      await exitOf(prev);
      return start(mode, t0);
    };
    const times = await runCases<number>(
      (['tsx', 'compiled'] as const).map((mode) => ({ name: mode, run: restart(mode) })),
      {
        rounds: RUNS,
        onResult: (c, ms) => log(`${c.name}: kill -9 → worker running ${(ms / 1000).toFixed(2)} s (load ${loadavg()})`),
      },
    );
    for (const [mode, xs] of times)
      log(`${mode}: median ${(median(xs) / 1000).toFixed(2)} s of ${xs.map((x) => (x / 1000).toFixed(2)).join(', ')}`);
    log(`load average at end: ${loadavg()}`);
  } finally {
    const r = running as Running | null;
    if (r && r.exitCode === null) {
      r.kill('SIGKILL');
      await exitOf(r);
    }
    await infra.stop();
    fs.rmSync(dist, { recursive: true, force: true });
  }
}

runMain(main);
