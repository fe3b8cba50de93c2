/**
 * API memory, as production runs it and as `npm start` runs it (the target: API RSS < 150 MB idle).
 *
 *   npx tsx bench/api-memory.ts [--dist <dir>] [--load] [--node-options '<flags>'] [--no-image-flags]
 *
 * Starts its own PostgreSQL and in-memory Temporal, builds the production output (`npm run
 * build:dist`, into a git-ignored dist/ folder, unless `--dist` names one already built), then
 * starts the API twice — `node <flags> dist/apps/api/src/server.js` (the Dockerfile's CMD, its Node
 * flags read from the Dockerfile: dev/image-command.ts; `--no-image-flags` leaves them
 * out, to weigh them) and `node
 * --import tsx apps/api/src/server.ts` (what `npm start` and `npm run api` run) — and reports each
 * one's RSS after start and a warm-up (readiness, public discovery, one authenticated call),
 * with the V8 heap / external / array-buffer split and the largest packages it has loaded
 * (bench/support/memory-probe.cjs). One process at a time, so the two do not share the CPU.
 * `--node-options` runs the API processes (only them) with those Node flags, e.g.
 * `--max-semi-space-size=8`; `--load` then also drives each for 5 s (autocannon, 10 connections)
 * on a cached public read and an authenticated read, to weigh a memory setting against throughput.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '#lib/config';
import { startThrowawayInfrastructure } from '#dev/stack';
import { freePort } from '#dev/ports';
import { load } from './support/load';
import { imageApiNodeFlags } from '#dev/image-command';
import {
  buildDist,
  distFromArgs,
  loadavg,
  migratedDatabase,
  ROOT,
  rssMiB,
  userWithToken,
  waitFor,
} from './support/infra';
import { runMain } from './support/runner';

const log = (l: string) => console.log(`[api-memory] ${l}`);

interface Probe {
  memoryUsage: NodeJS.MemoryUsage;
  packages: Record<string, { files: number; bytes: number }>;
}

async function measure(
  kind: 'compiled' | 'tsx',
  distDir: string,
  env: Record<string, string>,
  token: string,
): Promise<{ rss: number; probe: Probe | null }> {
  const port = await freePort();
  const probeFile = path.join(distDir, `probe-${kind}-${randomBytes(3).toString('hex')}.json`);
  const args =
    kind === 'compiled'
      ? [
          ...(process.argv.includes('--no-image-flags') ? [] : imageApiNodeFlags(ROOT)),
          '--require',
          path.join(__dirname, 'support/memory-probe.cjs'),
          path.join(distDir, 'apps/api/src/server.js'),
        ]
      : [
          '--require',
          path.join(__dirname, 'support/memory-probe.cjs'),
          '--import',
          'tsx',
          path.join(ROOT, 'apps/api/src/server.ts'),
        ];
  const optArg = process.argv.indexOf('--node-options');
  const nodeOptions = optArg > 0 ? { NODE_OPTIONS: process.argv[optArg + 1] } : {};
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, ...nodeOptions, PORT: String(port), MEMORY_PROBE_FILE: probeFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`API (${kind})`, async () => (await fetch(`${base}/readyz`)).ok);
    for (const p of [
      '/healthz',
      '/api/v1/live-events/live-now',
      '/api/v1/live-events?limit=25',
      '/api/v1/jobs/search?skills=typescript',
    ])
      await (await fetch(base + p)).arrayBuffer();
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200 && res.status !== 409) throw new Error(`GET /profile answered ${res.status}`);
    }
    const rss = rssMiB(child.pid);
    child.kill('SIGUSR2');
    let probe: Probe | null = null;
    await waitFor(
      'memory probe',
      async () => {
        if (!fs.existsSync(probeFile)) return false;
        probe = JSON.parse(fs.readFileSync(probeFile, 'utf8')) as Probe;
        return true;
      },
      { timeoutMs: 10_000 },
    ).catch(() => undefined);
    if (process.argv.includes('--load')) {
      for (const [name, p, headers] of [
        ['live-now (cached)', '/api/v1/live-events/live-now', {}],
        ['GET /profile (token)', '/api/v1/profile', { authorization: `Bearer ${token}` }],
      ] as const) {
        const r = await load({ url: base, paths: [p], connections: 10, durationS: 5, headers });
        log(
          `${kind} ${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} / p99 ${r.p99} ms${r.errors + r.non2xx ? `, ${r.errors + r.non2xx} failed` : ''}`,
        );
      }
      log(`${kind}: RSS after load ${rssMiB(child.pid).toFixed(1)} MiB`);
    }
    return { rss, probe };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
    fs.rmSync(probeFile, { force: true });
  }
}

function apiEnv(dbUrl: string, temporalAddress: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    DATABASE_URL: dbUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: 'memory',
    HOST: '127.0.0.1',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    PUBLIC_BASE_URL: 'http://jobfair.bench',
    // One client drives the --load run: lift the per-client limits (the limiter still runs).
    RATE_LIMIT_PUBLIC_PER_MIN: '100000000',
    RATE_LIMIT_READ_PER_MIN: '100000000',
  };
}

type Result = { kind: string; rss: number; probe: Probe | null };

function printResults(results: Result[], loadStart: string): void {
  const mib = (b: number) => (b / 2 ** 20).toFixed(1);
  console.log(`\nLoad average: start ${loadStart}, end ${loadavg()}\n`);
  console.log('| API run as | RSS MiB | heap used / total MiB | external MiB | array buffers MiB |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of results) {
    const u = r.probe?.memoryUsage;
    const flags = process.argv.includes('--no-image-flags')
      ? ''
      : imageApiNodeFlags(ROOT)
          .map((f) => `${f} `)
          .join('');
    console.log(
      `| ${r.kind === 'compiled' ? `\`node ${flags}dist/apps/api/src/server.js\` (production image)` : '`node --import tsx apps/api/src/server.ts` (npm start)'} ` +
        `| ${r.rss.toFixed(1)} | ${u ? `${mib(u.heapUsed)} / ${mib(u.heapTotal)}` : '—'} | ` +
        `${u ? mib(u.external) : '—'} | ${u ? mib(u.arrayBuffers) : '—'} |`,
    );
  }
  for (const r of results) {
    if (!r.probe) continue;
    const top = Object.entries(r.probe.packages)
      .sort((a, b) => b[1].bytes - a[1].bytes)
      .slice(0, 15)
      .map(([name, p]) => `${name} ${(p.bytes / 1024).toFixed(0)} KiB/${p.files}`);
    console.log(`\n${r.kind}: largest loaded CommonJS packages (source size/files): ${top.join(', ')}`);
  }
}

async function main() {
  const { distDir, builtHere } = distFromArgs(process.argv);
  const loadStart = loadavg();
  if (builtHere) {
    const t = Date.now();
    buildDist(distDir);
    log(`built ${path.relative(ROOT, distDir)} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const base = loadConfig({ ...process.env, NODE_ENV: 'test', TEMPORAL_ADDRESS: '', DATABASE_URL: '' });
  const infra = await startThrowawayInfrastructure({
    config: base,
    log: () => undefined,
    prefix: 'jobfair-api-memory',
  });
  try {
    const { url: dbUrl, knex } = await migratedDatabase(infra.adminDatabaseUrl ?? infra.databaseUrl, 'memory', 2);
    const token = await userWithToken(knex, {
      email: 'memory@bench.local',
      displayName: 'Memory',
      tokenName: 'memory bench',
      scopes: ['profile:read'],
    });
    await knex.destroy();
    const env = apiEnv(dbUrl, infra.temporalAddress);
    // One process at a time, so the two do not share the CPU.
    const results: Result[] = [];
    for (const kind of ['compiled', 'tsx'] as const) {
      const r = await measure(kind, distDir, env, token);
      results.push({ kind, ...r });
      log(`${kind}: RSS ${r.rss.toFixed(1)} MiB`);
    }
    printResults(results, loadStart);
  } finally {
    await infra.stop();
    if (builtHere) fs.rmSync(distDir, { recursive: true, force: true });
  }
}

runMain(main, module);
