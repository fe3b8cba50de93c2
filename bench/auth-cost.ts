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
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../lib/config';
import { startThrowawayInfrastructure } from '../dev/stack';
import { ensureDatabase } from '../dev/postgres-server';
import { freePort } from '../dev/ports';
import { createKnex, migrateLatest } from '../db/knex';
import { createRepositories } from '../db/repositories';
import { displayPrefix, generateToken, hashToken } from '../lib/tokens';
import { buildDist, loadavg, waitFor } from './support/infra';
import { median } from './support/stats';
import { imageApiNodeFlags } from './support/image-command';
import { load } from './support/load';
import { TICK_MS, postgresPids, ticks } from './support/cpu';

const ROOT = path.join(__dirname, '..');
const log = (l: string) => console.log(`[auth-cost] ${l}`);
const arg = (name: string, dflt: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);

async function main() {
  const rounds = Number(arg('--rounds', '3'));
  const seconds = Number(arg('--seconds', '5'));
  const distArg = process.argv.indexOf('--dist');
  const builtHere = distArg < 0;
  const distDir = builtHere ? path.join(ROOT, 'dist', `bench-${randomBytes(4).toString('hex')}`) : path.resolve(process.argv[distArg + 1]);
  const loadStart = loadavg();
  if (builtHere) buildDist(distDir);
  const base = loadConfig({ ...process.env, NODE_ENV: 'test', TEMPORAL_ADDRESS: '', DATABASE_URL: '' });
  const infra = await startThrowawayInfrastructure({ config: base, log: () => undefined, prefix: 'jobfair-auth-cost' });
  const children: ChildProcess[] = [];
  try {
    const adminUrl = infra.adminDatabaseUrl ?? infra.databaseUrl;
    await ensureDatabase(adminUrl, 'authcost');
    const dbUrl = adminUrl.replace(/\/[^/?]+(\?|$)/, '/authcost$1');
    const knex = createKnex(dbUrl, 2);
    await migrateLatest(knex);
    await knex.raw("ALTER SYSTEM SET track_functions = 'pl'");
    await knex.raw('SELECT pg_reload_conf()');
    const repos = createRepositories(knex);
    const user = await repos.accounts.insertUser({ email: 'auth-cost@bench.local', display_name: 'Auth cost', role: 'seeker' });
    const token = generateToken();
    await repos.tokens.insert({ user_id: user.id, name: 'auth cost', token_hash: hashToken(token), display_prefix: displayPrefix(token), scopes: ['profile:read'], expires_at: null });
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      DATABASE_URL: dbUrl,
      TEMPORAL_ADDRESS: infra.temporalAddress,
      TEMPORAL_TASK_QUEUE: 'auth-cost',
      HOST: '127.0.0.1',
      APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
      PUBLIC_BASE_URL: 'http://jobfair.bench',
      // One client drives the load: lift the limit (the limiter still runs on every request).
      RATE_LIMIT_READ_PER_MIN: '100000000',
    };
    const modes = [
      { name: 'one statement per request (RATE_LIMIT_LEASE_MAX_CELLS=1)', env: { RATE_LIMIT_LEASE_MAX_CELLS: '1' } },
      { name: 'budget leases (default)', env: {} as Record<string, string> },
    ];
    const apis = [];
    for (const m of modes) {
      const port = await freePort();
      const child = spawn(process.execPath, [...imageApiNodeFlags(ROOT), path.join(distDir, 'apps/api/src/server.js')], { cwd: ROOT, env: { ...process.env, ...env, ...m.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
      children.push(child);
      apis.push({ ...m, port, child, runs: [] as Array<{ rps: number; apiMs: number; pgMs: number; calls: number }> });
    }
    for (const a of apis) await waitFor(a.name, async () => (await fetch(`http://127.0.0.1:${a.port}/readyz`)).ok);
    const pgDir = path.join(infra.dir, 'pg');
    const headers = { authorization: `Bearer ${token}` };
    const calls = async () => {
      const { rows } = await knex.raw<{ rows: Array<{ n: string | null }> }>("SELECT sum(calls) AS n FROM pg_stat_user_functions WHERE funcname IN ('rate_limit_take', 'rate_limit_lease', 'rate_limit_return')");
      return Number(rows[0].n ?? 0);
    };
    for (const a of apis) await load({ url: `http://127.0.0.1:${a.port}`, paths: ['/api/v1/profile'], connections: 10, durationS: 2, headers }); // warm-up
    for (let r = 0; r < rounds; r++) {
      for (const a of apis) {
        const pg = postgresPids(pgDir);
        const before = { api: ticks(a.child.pid!), pg: pg.reduce((s, p) => s + ticks(p), 0), calls: await calls() };
        const res = await load({ url: `http://127.0.0.1:${a.port}`, paths: ['/api/v1/profile'], connections: 10, durationS: seconds, headers });
        const after = { api: ticks(a.child.pid!), pg: pg.reduce((s, p) => s + ticks(p), 0), calls: 0 };
        // A backend flushes its function statistics at most once a second while busy and the rest
        // after 10 s idle (PostgreSQL ≥ 15): read the count once the pool's backends have flushed.
        await new Promise((x) => setTimeout(x, 11_000));
        after.calls = await calls();
        const n = res.requests || 1;
        const run = { rps: res.rps, apiMs: ((after.api - before.api) * TICK_MS) / n, pgMs: ((after.pg - before.pg) * TICK_MS) / n, calls: (after.calls - before.calls) / n };
        a.runs.push(run);
        log(`round ${r + 1} ${a.name}: ${res.rps.toFixed(0)} req/s, CPU/request API ${run.apiMs.toFixed(2)} ms + PostgreSQL ${run.pgMs.toFixed(2)} ms, limiter statements/request ${run.calls.toFixed(3)}${res.errors + res.non2xx ? `, ${res.errors + res.non2xx} failed` : ''}`);
      }
    }
    await knex.destroy();
    console.log(`\nLoad average: start ${loadStart}, end ${loadavg()} · ${rounds} alternating rounds of ${seconds} s, medians · GET /api/v1/profile, 10 connections, one token\n`);
    console.log('| limiter | req/s | CPU ms/request: API | PostgreSQL | both | limiter statements/request |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const a of apis) {
      const m = (k: 'rps' | 'apiMs' | 'pgMs' | 'calls') => median(a.runs.map((x) => x[k]));
      const both = median(a.runs.map((x) => x.apiMs + x.pgMs));
      console.log(`| ${a.name} | ${m('rps').toFixed(0)} | ${m('apiMs').toFixed(2)} | ${m('pgMs').toFixed(2)} | ${both.toFixed(2)} | ${m('calls').toFixed(3)} |`);
    }
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await infra.stop();
    if (builtHere) fs.rmSync(distDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
