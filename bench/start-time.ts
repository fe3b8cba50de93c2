import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '#dev/ports';
import { cachedCliPath, defaultCacheDir } from '#dev/temporal-server';
import { loadavg } from './support/infra';
import { runCases, runMain } from './support/runner';
import { midpointMedian } from './support/stats';

/**
 * How long `npm start` takes to its banner ("Job fair is up"), as the README states it:
 *
 *   npx tsx bench/start-time.ts [--runs 3]
 *
 * Per run: a first start on an empty DATA_DIR (initdb, migrations, Temporal's SQLite schema, the
 * demo fair seeded), Ctrl-C, then a warm start on the same DATA_DIR, Ctrl-C. Free ports, a
 * temporary DATA_DIR, the demo simulator on, as a newcomer runs it. The Temporal CLI must already
 * be built and cached (the one-time build is not measured here: README, "First run"). Prints each
 * time from spawn to the banner (and the banner's own "ready in"), the medians and the load average.
 */
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(values.runs);
const ROOT = path.resolve(__dirname, '..');

async function startOnce(env: Record<string, string>): Promise<{ toBannerS: number; readyInS: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'dev', 'start.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const banner = await new Promise<{ toBannerS: number; readyInS: number }>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      const m = /Job fair is up \(ready in ([\d.]+) s\)/.exec(out);
      if (m) resolve({ toBannerS: (performance.now() - t0) / 1000, readyInS: Number(m[1]) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`npm start exited ${code} before its banner:\n${out.slice(-3000)}`)));
  });
  child.kill('SIGINT');
  await exited;
  return banner;
}

/** One run: a first start on an empty DATA_DIR, then a warm start on the same DATA_DIR. */
async function coldThenWarm(i: number): Promise<{ cold: number; warm: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-measure-start-'));
  const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env = {
    DATA_DIR: dataDir,
    PORT: String(ports[0]),
    EMBEDDED_PG_PORT: String(ports[1]),
    TEMPORAL_PORT: String(ports[2]),
    TEMPORAL_UI_PORT: String(ports[3]),
    DATABASE_URL: '',
    TEMPORAL_ADDRESS: '',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
  };
  try {
    const c = await startOnce(env);
    console.log(
      `run ${i + 1}: empty DATA_DIR ${c.toBannerS.toFixed(1)} s to the banner (banner: ready in ` +
        `${c.readyInS} s; load ${loadavg()})`,
    );
    const w = await startOnce(env);
    console.log(
      `run ${i + 1}: warm         ${w.toBannerS.toFixed(1)} s to the banner (banner: ready in ` +
        `${w.readyInS} s; load ${loadavg()})`,
    );
    return { cold: c.toBannerS, warm: w.toBannerS };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

runMain(async () => {
  if (!fs.existsSync(cachedCliPath(defaultCacheDir(process.env.CACHE_DIR))) && !process.env.TEMPORAL_CLI) {
    console.error(
      'The Temporal CLI is not built and cached yet: run npm start once first (the one-time ' +
        'build is measured separately).',
    );
    process.exit(2);
  }
  console.log(`load average before: ${loadavg()} (${os.cpus().length} cores)`);
  const runs = (await runCases([{ name: 'start', run: coldThenWarm }], { rounds: RUNS })).get('start')!;
  console.log(
    `median: empty DATA_DIR ${midpointMedian(runs.map((r) => r.cold)).toFixed(1)} s, warm ` +
      `${midpointMedian(runs.map((r) => r.warm)).toFixed(1)} s (${RUNS} run(s) each)`,
  );
  console.log(`load average after: ${loadavg()}`);
});
