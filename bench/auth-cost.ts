/**
 * CPU per authenticated request, API + PostgreSQL, with the limiter's budget leases off and on
 * (decision 0230: the limiter's budget leases) — a figure a loaded, shared machine disturbs far less than req/s.
 *
 *   npx tsx bench/auth-cost.ts [--dist <dir>] [--rounds 3] [--seconds 5]
 *
 * Starts its own PostgreSQL and in-memory Temporal, builds the production output (unless `--dist`
 * names one), and starts the compiled API as the image does (the Dockerfile CMD's Node flags)
 * twice: `RATE_LIMIT_LEASE_MAX_CELLS=1` (one `rate_limit_take` per request, as before 0230) and
 * the default (leases). Alternately, round by round, each is driven for `--seconds` (autocannon,
 * 10 connections, one token, GET /api/v1/profile: auth + limiter + one small read); the CPU
 * ticks of the API process and of every PostgreSQL process of the cluster are read from /proc
 * before and after. Prints req/s, CPU ms per request (API, PostgreSQL, both) and the number of
 * limiter statements per request (from pg_stat_user_functions).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { loadConfig } from '#lib/config';
import { startThrowawayInfrastructure } from '#dev/stack';
import { freePort } from '#dev/ports';
import { buildDist, distFromArgs, loadavg, migratedDatabase, ROOT, userWithToken, waitFor } from './support/infra';
import { runCases, runMain, type BenchCase } from './support/runner';
import { median, sum } from './support/stats';
import { imageApiNodeFlags } from '#dev/image-command';
import { load } from './support/load';
import { TICK_MS, postgresPids, ticks } from './support/cpu';

const log = (l: string) => console.log(`[auth-cost] ${l}`);
const arg = (name: string, dflt: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt;

type Run = { rps: number; apiMs: number; pgMs: number; calls: number };
type Api = { name: string; env: Record<string, string>; port: number; child: ChildProcess };

const MODES = [
  { name: 'one statement per request (RATE_LIMIT_LEASE_MAX_CELLS=1)', env: { RATE_LIMIT_LEASE_MAX_CELLS: '1' } },
  { name: 'budget leases (default)', env: {} as Record<string, string> },
];

/** The bench's database with function statistics on (the limiter's statement count) and a token. */
async function prepareDatabase(adminUrl: string): Promise<{ dbUrl: string; knex: Knex; token: string }> {
  const { url: dbUrl, knex } = await migratedDatabase(adminUrl, 'authcost', 2);
  await knex.raw("ALTER SYSTEM SET track_functions = 'pl'");
  await knex.raw('SELECT pg_reload_conf()');
  const token = await userWithToken(knex, {
    email: 'auth-cost@bench.local',
    displayName: 'Auth cost',
    tokenName: 'auth cost',
    scopes: ['profile:read'],
  });
  return { dbUrl, knex, token };
}

function apiEnv(dbUrl: string, temporalAddress: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    DATABASE_URL: dbUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: 'auth-cost',
    HOST: '127.0.0.1',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    PUBLIC_BASE_URL: 'http://jobfair.bench',
    // One client drives the load: lift the limit (the limiter still runs on every request).
    RATE_LIMIT_READ_PER_MIN: '100000000',
  };
}

/** The compiled API once per limiter mode, as the image starts it. */
async function startApis(distDir: string, env: Record<string, string>, children: ChildProcess[]): Promise<Api[]> {
  const apis: Api[] = [];
  for (const m of MODES) {
    const port = await freePort();
    const child = spawn(process.execPath, [...imageApiNodeFlags(ROOT), path.join(distDir, 'apps/api/src/server.js')], {
      cwd: ROOT,
      env: { ...process.env, ...env, ...m.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    apis.push({ ...m, port, child });
  }
  for (const a of apis) await waitFor(a.name, async () => (await fetch(`http://127.0.0.1:${a.port}/readyz`)).ok);
  return apis;
}

/** One API as a case: a warm-up run, then each round's req/s, CPU per request (API, every PostgreSQL process) and limiter statements per request. */
function apiCase(a: Api, knex: Knex, pgDir: string, headers: Record<string, string>, seconds: number): BenchCase<Run> {
  const calls = async () => {
    const { rows } = await knex.raw<{ rows: Array<{ n: string | null }> }>(
      "SELECT sum(calls) AS n FROM pg_stat_user_functions WHERE funcname IN ('rate_limit_take', " +
        "'rate_limit_lease', 'rate_limit_return')",
    );
    return Number(rows[0].n ?? 0);
  };
  const profile = (durationS: number) =>
    load({ url: `http://127.0.0.1:${a.port}`, paths: ['/api/v1/profile'], connections: 10, durationS, headers });
  return {
    name: a.name,
    warmUp: () => profile(2),
    run: async (r) => {
      const pg = postgresPids(pgDir);
      const before = { api: ticks(a.child.pid!), pg: sum(pg.map((p) => ticks(p))), calls: await calls() };
      const res = await profile(seconds);
      const after = { api: ticks(a.child.pid!), pg: sum(pg.map((p) => ticks(p))), calls: 0 };
      // A backend flushes its function statistics at most once a second while busy and the rest
      // after 10 s idle (PostgreSQL ≥ 15): read the count once the pool's backends have flushed.
      await new Promise((x) => setTimeout(x, 11_000));
      after.calls = await calls();
      const n = res.requests || 1;
      const run = {
        rps: res.rps,
        apiMs: ((after.api - before.api) * TICK_MS) / n,
        pgMs: ((after.pg - before.pg) * TICK_MS) / n,
        calls: (after.calls - before.calls) / n,
      };
      log(
        `round ${r + 1} ${a.name}: ${res.rps.toFixed(0)} req/s, CPU/request API ` +
          `${run.apiMs.toFixed(2)} ms + PostgreSQL ${run.pgMs.toFixed(2)} ms, limiter ` +
          `statements/request ${run.calls.toFixed(3)}${res.errors + res.non2xx ? `, ${res.errors + res.non2xx} failed` : ''}`,
      );
      return run;
    },
  };
}

function printTable(runs: Map<string, Run[]>, o: { loadStart: string; rounds: number; seconds: number }): void {
  console.log(
    `\nLoad average: start ${o.loadStart}, end ${loadavg()} · ${o.rounds} alternating rounds ` +
      `of ${o.seconds} s, medians · GET /api/v1/profile, 10 connections, one token\n`,
  );
  console.log('| limiter | req/s | CPU ms/request: API | PostgreSQL | both | limiter statements/request |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, r] of runs) {
    const m = (k: keyof Run) => median(r.map((x) => x[k]));
    const both = median(r.map((x) => x.apiMs + x.pgMs));
    console.log(
      `| ${name} | ${m('rps').toFixed(0)} | ${m('apiMs').toFixed(2)} | ${m('pgMs').toFixed(2)} | ` +
        `${both.toFixed(2)} | ${m('calls').toFixed(3)} |`,
    );
  }
}

async function main() {
  const rounds = Number(arg('--rounds', '3'));
  const seconds = Number(arg('--seconds', '5'));
  const { distDir, builtHere } = distFromArgs(process.argv);
  const loadStart = loadavg();
  if (builtHere) buildDist(distDir);
  const base = loadConfig({ ...process.env, NODE_ENV: 'test', TEMPORAL_ADDRESS: '', DATABASE_URL: '' });
  const infra = await startThrowawayInfrastructure({ config: base, log: () => undefined, prefix: 'jobfair-auth-cost' });
  const children: ChildProcess[] = [];
  try {
    const { dbUrl, knex, token } = await prepareDatabase(infra.adminDatabaseUrl ?? infra.databaseUrl);
    const apis = await startApis(distDir, apiEnv(dbUrl, infra.temporalAddress), children);
    const headers = { authorization: `Bearer ${token}` };
    // Alternately, round by round, after a warm-up of each.
    const runs = await runCases(
      apis.map((a) => apiCase(a, knex, path.join(infra.dir, 'pg'), headers, seconds)),
      { rounds, warmUpFirst: true },
    );
    await knex.destroy();
    printTable(runs, { loadStart, rounds, seconds });
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await infra.stop();
    if (builtHere) fs.rmSync(distDir, { recursive: true, force: true });
  }
}

runMain(main, module);
