import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '#dev/ports';
import { defaultCacheDir, resolveTemporalCli, startDevServer, FILE_SQLITE_PRAGMAS } from '#dev/temporal-server';
import { loadavg } from './support/infra';
import { runCases, runMain } from './support/runner';
import { midpointMedian } from './support/stats';

/**
 * Workflow starts per second of the file-backed Temporal dev server (the one `npm start` runs),
 * with SQLite's defaults (rollback journal, synchronous=FULL) and with FILE_SQLITE_PRAGMAS
 * (WAL, synchronous=NORMAL) — decision 0175.
 *
 *   npx tsx bench/temporal-pragmas.ts [--starts 300] [--concurrency 8] [--rounds 3]
 *
 * Each round starts a fresh server per variant on a fresh SQLite file in a temporary directory
 * (WAL mode sticks to a file once set), makes `--starts` workflow starts (no worker: a start is
 * the server's write path — history, mutable state, transfer task, visibility), and the variants
 * alternate A/B/A/B so a change in the machine's load hits both. Prints each run, the medians and
 * the load average before and after.
 */
const { values } = parseArgs({
  options: {
    starts: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
  },
});
const STARTS = Number(values.starts);
const CONCURRENCY = Number(values.concurrency);
const ROUNDS = Number(values.rounds);

async function measure(name: string, pragmas: Readonly<Record<string, string>>): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-pragmas-'));
  const cli = resolveTemporalCli({ cacheDir: defaultCacheDir(process.env.CACHE_DIR), log: () => undefined });
  if (cli.build) throw new Error('the Temporal CLI is not built yet: run npm start once first');
  const server = await startDevServer({
    cli: cli.path,
    port: await freePort(),
    dbFile: path.join(dir, 'temporal.sqlite'),
    sqlitePragmas: pragmas,
    namespace: 'default',
    log: () => undefined,
  });
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection, namespace: 'default' });
  try {
    // Warm-up: connections, namespace cache, the first task queue.
    for (let i = 0; i < 10; i++) await client.workflow.start('noop', { taskQueue: 'measure', workflowId: `warm-${i}` });
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < STARTS; i = next++)
          await client.workflow.start('noop', { taskQueue: 'measure', workflowId: `start-${i}` });
      }),
    );
    const rate = STARTS / ((performance.now() - t0) / 1000);
    console.log(
      `${name.padEnd(8)} ${rate.toFixed(0).padStart(5)} starts/s   (${STARTS} starts, ` +
        `concurrency ${CONCURRENCY}; load ${loadavg()})`,
    );
    return rate;
  } finally {
    await connection.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runMain(async () => {
  console.log(`load average before: ${loadavg()} (${os.cpus().length} cores)`);
  // Alternately, round by round (A/B/A/B), so a change in the machine's load hits both.
  const runs = await runCases(
    [
      { name: 'default', run: () => measure('default', {}) },
      { name: 'wal', run: () => measure('wal', FILE_SQLITE_PRAGMAS) },
    ],
    { rounds: ROUNDS },
  );
  const [defaults, tuned] = [midpointMedian(runs.get('default')!), midpointMedian(runs.get('wal')!)];
  console.log(
    `median: default ${defaults.toFixed(0)} starts/s, ${Object.entries(FILE_SQLITE_PRAGMAS)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')} ${tuned.toFixed(0)} starts/s (×${(tuned / defaults).toFixed(1)})`,
  );
  console.log(`load average after: ${loadavg()}`);
});
