import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config';
import { startThrowawayInfrastructure } from '../dev/stack';
import { ensureDatabase } from '../dev/postgres-server';
import { createKnex, migrateLatest } from '../db/knex';
import { exitOf, runProcess } from '../test/helpers/processes';
import { buildDist, loadavg } from './support/infra';
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
const ROOT = path.join(__dirname, '..');
const log = (l: string) => console.log(`[worker-restart] ${l}`);

async function main() {
  log(`load average at start: ${loadavg()}`);
  const base = loadConfig({}, { NODE_ENV: 'test', APP_SECRET: 'worker-restart-secret-worker-restart-01' });
  const infra = await startThrowawayInfrastructure({ config: base, log: () => undefined, prefix: 'jobfair-worker-restart' });
  const dist = path.join(ROOT, 'dist', `worker-restart-${randomUUID().slice(0, 8)}`);
  let running: ReturnType<typeof runProcess> | null = null;
  try {
    const tb = Date.now();
    buildDist(dist);
    log(`build:dist in ${((Date.now() - tb) / 1000).toFixed(1)} s`);
    const adminUrl = infra.adminDatabaseUrl ?? infra.databaseUrl;
    await ensureDatabase(adminUrl, 'restart');
    const dbUrl = adminUrl.replace(/\/[^/?]+(\?|$)/, '/restart$1');
    const knex = createKnex(dbUrl, 2);
    await migrateLatest(knex);
    await knex.destroy();
    const env = {
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      DATABASE_URL: dbUrl,
      TEMPORAL_ADDRESS: infra.temporalAddress,
      TEMPORAL_TASK_QUEUE: 'worker-restart',
      APP_SECRET: 'worker-restart-secret-worker-restart-01',
      DATA_DIR: path.join(dist, 'data'),
    };
    const start = async (mode: 'tsx' | 'compiled', t0: number): Promise<number> => {
      const w = runProcess('apps/worker/src/main.ts', env, mode === 'compiled' ? { dist } : {});
      running = w;
      const deadline = Date.now() + 180_000;
      while (!/worker running/.test(w.output())) {
        if (w.exitCode !== null || Date.now() > deadline) throw new Error(`worker (${mode}) did not start:\n${w.output().slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return performance.now() - t0;
    };
    await start('compiled', performance.now());
    const times: Record<'tsx' | 'compiled', number[]> = { tsx: [], compiled: [] };
    for (let i = 0; i < RUNS; i++) {
      for (const mode of ['tsx', 'compiled'] as const) {
        const prev = running!;
        const t0 = performance.now();
        prev.kill('SIGKILL');
        await exitOf(prev);
        const ms = await start(mode, t0);
        times[mode].push(ms);
        log(`${mode}: kill -9 → worker running ${(ms / 1000).toFixed(2)} s (load ${loadavg()})`);
      }
    }
    for (const mode of ['tsx', 'compiled'] as const) log(`${mode}: median ${(median(times[mode]) / 1000).toFixed(2)} s of ${times[mode].map((x) => (x / 1000).toFixed(2)).join(', ')}`);
    log(`load average at end: ${loadavg()}`);
  } finally {
    const r = running as ReturnType<typeof runProcess> | null;
    if (r && r.exitCode === null) {
      r.kill('SIGKILL');
      await exitOf(r);
    }
    await infra.stop();
    fs.rmSync(dist, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
