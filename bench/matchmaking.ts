/**
 * Matchmaking benchmark (issue 5), on a throw-away PostgreSQL and Temporal dev server:
 *
 * 1. Join latency, one at a time, as a ratio to a bare workflow start (`client.workflow.start` of a
 *    workflow on a task queue no worker polls: only the server's start path) on the same server in
 *    the same run, p50 / p99: the queue entry's update-with-start alone (answers once the entry's
 *    projection is written), and POST /queue/join through the real app (auth, rate limit, profile
 *    and event checks, the update-with-start, the matchmaker kick, position and wait estimate).
 * 2. Join → match under load: N seekers join concurrently while one event has S interview slots;
 *    a simulated pair of humans accepts every match at once and ends the interview at once (the
 *    same service calls the web pages make), freeing the slot. Reports join→match p50 / p99 / max
 *    (match created_at − the moment the join was sent), total time and matches per second.
 *
 *   npm run bench -- matchmaking [--seekers 1000] [--slots 50] [--samples 200] [--interval 2000] [--concurrency 50]
 *   (or: npx tsx bench/matchmaking.ts …)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../lib/config';
import { startInfrastructure } from '../lib/stack';
import { ensureDatabase } from '../lib/postgres-server';
import { createKnex, migrateLatest } from '../db/knex';
import { freePort } from '../test/helpers/ports';
import { buildApp } from '../apps/api/src/app';
import { startWorker } from '../apps/worker/src/worker';
import { createAccountsRepository } from '../db/repositories/accounts-repository';
import { createProfileService } from '../apps/api/src/services/profile-service';
import { createTokensService } from '../apps/api/src/services/tokens-service';
import { createMatchesService } from '../apps/api/src/services/matches-service';
import { matchmakerWorkflowId } from '../workflows/matchmaking/contract';
import { matchmakerStatsQuery } from '../workflows/matchmaking/matchmaker';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { queueEntryWorkflowId } from '../workflows/queue/contract';
import { joinQueueUpdate, queueEntryWorkflow } from '../workflows/queue/queue-entry';

interface Options {
  seekers: number;
  slots: number;
  samples: number;
  intervalMs: number;
  concurrency: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { seekers: 1000, slots: 50, samples: 200, intervalMs: 2000, concurrency: 50 };
  for (let i = 0; i < argv.length; i++) {
    const [k, v] = [argv[i], argv[i + 1]];
    const num = () => {
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`${k} needs a positive integer`);
      i++;
      return n;
    };
    if (k === '--seekers') o.seekers = num();
    else if (k === '--slots') o.slots = num();
    else if (k === '--samples') o.samples = num();
    else if (k === '--interval') o.intervalMs = num();
    else if (k === '--concurrency') o.concurrency = num();
    else if (k === 'matchmaking') continue;
    else throw new Error(`unknown argument ${k}; use --seekers, --slots, --samples, --interval, --concurrency`);
  }
  return o;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function pool<T>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  const log = (l: string) => console.log(`[bench] ${l}`);
  const base = loadConfig({ ...process.env, NODE_ENV: 'test', TEMPORAL_ADDRESS: process.env.BENCH_TEMPORAL_ADDRESS ?? '', DATABASE_URL: '' });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-bench-'));
  fs.chmodSync(tmp, 0o755);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const infra = await startInfrastructure({
    config: base,
    log: () => undefined,
    persistent: false,
    pgDataDir: path.join(tmp, 'pg'),
    pgPort: await freePort(),
    temporalPort: await freePort(),
    temporalUiPort: null,
    databaseName: 'postgres',
  });
  try {
    const adminUrl = infra.adminDatabaseUrl ?? infra.databaseUrl;
    await ensureDatabase(adminUrl, 'bench');
    const dbUrl = adminUrl.replace(/\/[^/?]+(\?|$)/, '/bench$1');
    const config = loadConfig(
      {},
      {
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: dbUrl,
        TEMPORAL_ADDRESS: infra.temporalAddress,
        TEMPORAL_TASK_QUEUE: 'bench',
        PUBLIC_BASE_URL: 'http://jobfair.bench',
        APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
        DATABASE_POOL_MAX: '20',
        MATCHMAKER_INTERVAL_MS: String(o.intervalMs),
        QUEUE_ENTRY_TTL_MS: String(6 * 60 * 60 * 1000),
        RATE_LIMIT_WRITE_PER_MIN: '100000',
        RATE_LIMIT_READ_PER_MIN: '100000',
      },
    );
    const knex = createKnex(dbUrl, config.DATABASE_POOL_MAX);
    await migrateLatest(knex);
    const connection = await Connection.connect({ address: infra.temporalAddress });
    const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
    log('bundling workflows and starting the worker…');
    const worker = await startWorker({ config, knex, address: infra.temporalAddress, shutdownGraceTime: '2 seconds' });
    const app = await buildApp({ config, knex, temporal, logger: false });
    log(`infrastructure up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    // Seed: one team, a private event with 0 slots (latency phase: nobody is matched), an
    // open-invite event with S slots and 10 jobs (load phase), seekers with tokens.
    const accounts = createAccountsRepository(knex);
    const profiles = createProfileService(knex);
    const tokens = createTokensService(knex);
    const team = await accounts.insertTeam('Bench team');
    const recruiter = await accounts.insertUser({ email: 'recruiter@bench.local', display_name: 'Recruiter', role: 'recruiter' });
    await accounts.addMember(team.id, recruiter.id, 'owner');
    const [holdEvent] = await knex('live_events').insert({ team_id: team.id, slug: 'bench-hold', company_name: 'Hold', visibility: 'private', status: 'live', interview_slots: 0 }).returning(['id', 'slug']);
    await knex('jobs').insert({ team_id: team.id, live_event_id: holdEvent.id, title: 'Hold', essential_skills: ['TypeScript'] });
    const [loadEvent] = await knex('live_events').insert({ team_id: team.id, slug: 'bench-load', company_name: 'Load', visibility: 'open_invite', status: 'draft', interview_slots: o.slots }).returning(['id', 'slug']);
    const skills = ['TypeScript', 'PostgreSQL', 'Go', 'Python', 'React', 'Kubernetes', 'Temporal', 'Rust'];
    for (let j = 0; j < 10; j++) {
      await knex('jobs').insert({ team_id: team.id, live_event_id: loadEvent.id, title: `Job ${j}`, essential_skills: [skills[j % 8], skills[(j + 1) % 8]], bonus_skills: [skills[(j + 3) % 8]], experience_min: j % 6, remote_preference: 'remote' });
    }
    // Latency phase: `samples` seekers join through the app, `samples` more by a bare update-with-start.
    const total = 2 * o.samples + o.seekers;
    const seekers: Array<{ id: string; token: string }> = [];
    const tSeed = Date.now();
    await pool(
      Array.from({ length: total }, (_, i) => i),
      10,
      async (i) => {
        const u = await accounts.insertUser({ email: `seeker-${i}@bench.local`, display_name: `Seeker ${i}`, role: 'seeker' });
        await profiles.completeOnboarding(u.id, { full_name: `Seeker ${i}`, title: 'Engineer', skills: [skills[i % 8], skills[(i * 3) % 8], skills[(i * 5) % 8]], experience_years: i % 10 });
        const t = await tokens.mint(u.id, { name: `bench ${i}`, scopes: ['queue:read', 'queue:write', 'matches:read'] });
        seekers[i] = { id: u.id, token: t.token };
      },
    );
    log(`seeded ${total} seekers in ${((Date.now() - tSeed) / 1000).toFixed(1)} s`);

    const joinOnce = async (token: string, slug?: string) => {
      const res = await app.inject({ method: 'POST', url: '/api/v1/queue/join', headers: { authorization: `Bearer ${token}` }, payload: slug ? { live_event_slug: slug } : undefined });
      if (res.statusCode !== 200) throw new Error(`join failed ${res.statusCode}: ${res.body}`);
    };

    // Warm-up (connections, the matchmaker's first start, JIT), not measured.
    for (let i = 0; i < 5; i++) {
      await temporal.workflow.start('benchBareStart', { taskQueue: 'bench-no-worker', workflowId: `bare-warm-${i}-${randomUUID()}` });
    }
    await joinOnce(seekers[0].token, holdEvent.slug);

    // Phase 1: latency, sequential, interleaved so drift affects both the same way.
    const bare: number[] = [];
    const uws: number[] = [];
    const join: number[] = [];
    for (let i = 1; i < o.samples; i++) {
      let t = process.hrtime.bigint();
      await temporal.workflow.start('benchBareStart', { taskQueue: 'bench-no-worker', workflowId: `bare-${i}-${randomUUID()}` });
      bare.push(Number(process.hrtime.bigint() - t) / 1e6);
      // The queue entry's update-with-start alone (what the join use-case sends), answered once projected.
      const u = seekers[o.samples + i];
      t = process.hrtime.bigint();
      await temporal.workflow.executeUpdateWithStart(joinQueueUpdate, {
        args: [{ agentIdentity: 'bench', viaAgent: true }],
        startWorkflowOperation: new WithStartWorkflowOperation(queueEntryWorkflow, {
          workflowId: queueEntryWorkflowId(u.id),
          taskQueue: config.TEMPORAL_TASK_QUEUE,
          workflowIdConflictPolicy: 'USE_EXISTING',
          args: [{ queueId: randomUUID(), userId: u.id, liveEventId: holdEvent.id, liveEventSlug: holdEvent.slug, agentIdentity: 'bench', viaAgent: true, enteredAtMs: Date.now(), ttlMs: config.QUEUE_ENTRY_TTL_MS }],
        }),
      });
      uws.push(Number(process.hrtime.bigint() - t) / 1e6);
      t = process.hrtime.bigint();
      await joinOnce(seekers[i].token, holdEvent.slug);
      join.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const [b50, b99] = [pct(bare, 50), pct(bare, 99)];
    console.log(`\nJoin latency (${join.length} sequential samples of each, interleaved)`);
    console.log(`  bare workflow start                     p50 ${ms(b50)}   p99 ${ms(b99)}`);
    console.log(`  update-with-start (join, projected)     p50 ${ms(pct(uws, 50))}   p99 ${ms(pct(uws, 99))}   ratio p50 ${(pct(uws, 50) / b50).toFixed(2)}×  p99 ${(pct(uws, 99) / b99).toFixed(2)}×`);
    console.log(`  POST /queue/join (whole request)        p50 ${ms(pct(join, 50))}   p99 ${ms(pct(join, 99))}   ratio p50 ${(pct(join, 50) / b50).toFixed(2)}×  p99 ${(pct(join, 99) / b99).toFixed(2)}×`);

    // Phase 2: load. The event goes live, then N seekers join concurrently; the humans accept and finish at once.
    const matchesService = createMatchesService({ knex, temporal, config, appSecret: config.APP_SECRET });
    await knex('live_events').where({ id: loadEvent.id }).update({ status: 'live', started_at: knex.fn.now() });
    const loadSeekers = seekers.slice(2 * o.samples);
    const joinSentAt = new Map<string, number>();
    const handled = new Set<string>();
    let humanErrors = 0;
    let joining = true;
    const humans = (async () => {
      for (;;) {
        const open = await knex('matches').where({ status: 'matched', live_event_id: loadEvent.id }).select('id', 'seeker_user_id').limit(200);
        const fresh = open.filter((m: { id: string }) => !handled.has(m.id));
        await pool(fresh, 25, async (m: { id: string; seeker_user_id: string }) => {
          handled.add(m.id);
          try {
            await matchesService.accept({ userId: m.seeker_user_id, matchId: m.id });
            await matchesService.accept({ userId: recruiter.id, matchId: m.id });
            await matchesService.completeInterview({ userId: recruiter.id, matchId: m.id });
          } catch (err) {
            humanErrors++;
            handled.delete(m.id);
            if (humanErrors < 5) console.error('human step failed', err);
          }
        });
        const [{ n }] = await knex('matches').where({ live_event_id: loadEvent.id }).count<{ n: string }[]>({ n: '*' });
        if (!joining && Number(n) >= loadSeekers.length) break;
        if (!fresh.length) await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const tLoad = Date.now();
    await pool(loadSeekers, o.concurrency, async (s) => {
      joinSentAt.set(s.id, Date.now());
      await joinOnce(s.token);
    });
    joining = false;
    const joinsDone = Date.now();
    await humans;
    const tDone = Date.now();
    const rows = await knex('matches').where({ live_event_id: loadEvent.id }).select('seeker_user_id', 'created_at');
    const waits = rows.map((r: { seeker_user_id: string; created_at: Date }) => r.created_at.getTime() - (joinSentAt.get(r.seeker_user_id) ?? NaN)).filter((x) => Number.isFinite(x));
    const over = await knex.raw(`SELECT count(*)::int AS n FROM (SELECT seeker_user_id FROM matches GROUP BY 1 HAVING count(*) > 1) x`);
    const stats = await temporal.workflow.getHandle(matchmakerWorkflowId(config.TEMPORAL_TASK_QUEUE)).query(matchmakerStatsQuery);
    console.log(`\nJoin → match under load (${loadSeekers.length} seekers joining ${o.concurrency} at a time, ${o.slots} slots, MATCHMAKER_INTERVAL_MS=${o.intervalMs}, humans accept and finish at once)`);
    console.log(`  all joins answered in ${((joinsDone - tLoad) / 1000).toFixed(1)} s (${(loadSeekers.length / ((joinsDone - tLoad) / 1000)).toFixed(0)} joins/s)`);
    console.log(`  matches made          ${rows.length} in ${((tDone - tLoad) / 1000).toFixed(1)} s → ${(rows.length / ((tDone - tLoad) / 1000)).toFixed(1)} matches/s`);
    console.log(`  join → match          p50 ${(pct(waits, 50) / 1000).toFixed(2)} s   p99 ${(pct(waits, 99) / 1000).toFixed(2)} s   max ${(Math.max(...waits) / 1000).toFixed(2)} s`);
    console.log(`  matchmaker rounds     ${stats.rounds} (kicks ${stats.kicks}, runs ${stats.runs}); seekers in two matches: ${over.rows[0].n}; human-step retries: ${humanErrors}`);

    await app.close();
    await worker.shutdown();
    await connection.close();
    await knex.destroy();
  } finally {
    await infra.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  log(`finished in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
