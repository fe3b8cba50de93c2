/**
 * Webhooks benchmark (a row of the performance table, bench/suite.ts): N events × M subscriptions emitted through the real emitter
 * (domain_events + fan-out → delivery → signed POST) to a local receiver that verifies every
 * signature. Reports deliveries/s (emitting as fast as possible), commit → first-attempt latency
 * p50/p99 (events paced below capacity), lost / duplicated /
 * badly signed deliveries, and two ceilings measured in the same run: a bare one-activity workflow
 * per delivery doing the same POST (bench/webhooks-bare/), and raw signed POSTs from one process.
 * Exits 1 on any lost, duplicated, badly signed or unrecorded delivery.
 *
 *   npx tsx bench/webhooks.ts [--quick] [--json <file>] [--events 500] [--subscriptions 4] [--bare 300] [--paced-events 200] [--paced-rate 10] [--concurrency 32] [--profile] [--temporal-postgres]
 *   (or: npm run bench -- webhooks …)
 *
 * Everything is throw-away and local: embedded PostgreSQL and a Temporal dev server in memory
 * (temp dir, free ports), one in-process worker, the receiver on 127.0.0.1. Kept out of `npm test`.
 * `--temporal-postgres`: instead of the dev server (SQLite), a Temporal server of the same version
 * persisting to its own PostgreSQL (bench/support/temporal-postgres.ts, decision 0220; the first
 * run builds the server with `go install`, later runs reuse the build).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { loadConfig, type Config } from '#lib/config';
import type { Knex } from 'knex';
import { startInfrastructure } from '#dev/stack';
import { createKnex, migrateLatest } from '#db/knex';
import { freePort } from '#dev/ports';
import { startWorker, WORKFLOWS_PATH } from '#apps/worker/src/worker';
import { createDomainEventsActivities, type DomainEvent } from '#activities/webhooks/domain-events';
import { createWebhooksFanOut } from '#activities/webhooks/fan-out';
import { createOutboundHttpClient as createWebhookHttpClient } from '#lib/outbound-http/http-client';
import { buildEnvelope, signatureHeader } from '#domain/webhooks/signing';
import { verifyWebhookSignature } from '#domain/webhooks/index';
import { createServices } from '#apps/api/src/services';
import { defaultCacheDir } from '#dev/temporal-server';
import { pool } from './support/pool';
import { parseBenchArgs, runMain, Teardown } from './support/runner';
import { median, percentileFloor } from './support/stats';
import { startTemporalOnPostgres } from './support/temporal-postgres';

export interface Options {
  events: number;
  subscriptions: number;
  concurrency: number;
  /** Deliveries the bare-workflow ceiling runs (it is slow; a sample is enough for a rate). */
  bare: number;
  /** The latency phase: this many events, paced at pacedRate per second. */
  pacedEvents: number;
  pacedRate: number;
  quick: boolean;
  json: string | null;
  /** Print where the time of a sample of delivery workflows went (from their histories). */
  profile: boolean;
  /** Temporal server on PostgreSQL instead of the dev server's in-memory SQLite. */
  temporalPostgres: boolean;
}

export function parseArgs(argv: string[]): Options {
  // --json takes a path (not a number), so it is taken out before the shared parser sees the rest.
  let json: string | null = null;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') {
      json = argv[++i] ?? null;
      if (!json) throw new Error('--json needs a file path');
    } else rest.push(argv[i]);
  }
  const quick = rest.includes('--quick');
  const o = parseBenchArgs<Omit<Options, 'json'>>(
    rest,
    'webhooks',
    quick
      ? {
          events: 150,
          subscriptions: 2,
          concurrency: 32,
          bare: 120,
          pacedEvents: 60,
          pacedRate: 10,
          quick,
          profile: false,
          temporalPostgres: false,
        }
      : {
          events: 500,
          subscriptions: 4,
          concurrency: 32,
          bare: 300,
          pacedEvents: 200,
          pacedRate: 10,
          quick,
          profile: false,
          temporalPostgres: false,
        },
    {
      '--events': 'events',
      '--subscriptions': 'subscriptions',
      '--concurrency': 'concurrency',
      '--bare': 'bare',
      '--paced-events': 'pacedEvents',
      '--paced-rate': 'pacedRate',
    },
    { '--profile': 'profile', '--quick': 'quick', '--temporal-postgres': 'temporalPostgres' },
  );
  return { ...o, json };
}

/** The receiver: verifies every signature with the subscription's secret, records each (subscription, event) arrival. */
export async function startReceiver(secrets: Map<string, string>) {
  const counts = new Map<string, number>();
  const firstAt = new Map<string, number>();
  let badSignatures = 0;
  let waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const raw = Buffer.concat(chunks);
      const sub = String(req.headers['svc-subscription-id'] ?? '');
      const secret = secrets.get(sub);
      if (!secret || !verifyWebhookSignature({ payload: raw, header: req.headers['svc-signature'], secret }))
        badSignatures++;
      const key = `${sub}/${(JSON.parse(raw.toString('utf8')) as { id: string }).id}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (!firstAt.has(key)) firstAt.set(key, at);
      res.writeHead(204).end();
      for (const w of waiters) w();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench`,
    counts,
    firstAt,
    badSignatures: () => badSignatures,
    reset: () => {
      counts.clear();
      firstAt.clear();
    },
    /** Resolves when every key has arrived (or rejects after timeoutMs). */
    waitFor: (keys: string[], timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        const check = () => keys.every((k) => counts.has(k));
        if (check()) return resolve();
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `only ${keys.filter((k) => counts.has(k)).length}/${keys.length} deliveries arrived within ` +
                  `${timeoutMs} ms`,
              ),
            ),
          timeoutMs,
        );
        const w = () => {
          if (check()) {
            clearTimeout(timer);
            waiters = waiters.filter((x) => x !== w);
            resolve();
          }
        };
        waiters.push(w);
      }),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Median milliseconds from each sampled delivery workflow's start to each kind of history event. */
async function profile(temporal: Client, webhookId: string, eventIds: string[]) {
  const offsets = new Map<string, number[]>();
  for (const id of eventIds) {
    const history = await temporal.workflow.getHandle(`webhook-delivery:${webhookId}:${id}`).fetchHistory();
    const events = history.events ?? [];
    const t0 = Number(events[0]?.eventTime?.seconds ?? 0) * 1000 + Math.floor((events[0]?.eventTime?.nanos ?? 0) / 1e6);
    const seen = new Map<string, number>();
    for (const e of events) {
      const name = String(e.eventType ?? '?');
      const n = (seen.get(name) ?? 0) + 1;
      seen.set(name, n);
      const t = Number(e.eventTime?.seconds ?? 0) * 1000 + Math.floor((e.eventTime?.nanos ?? 0) / 1e6);
      const key = `${String(e.eventId).padStart(2, '0')} ${name}#${n}`;
      offsets.set(key, [...(offsets.get(key) ?? []), t - t0]);
    }
  }
  console.log(`history of ${eventIds.length} sampled deliveries (median ms after start):`);
  for (const [k, xs] of [...offsets.entries()].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`  ${k.padEnd(60)} ${median(xs)}`);
}

export type Say = (l: string) => void;
type Sub = { id: string; secret: string };

/** The bench's stack once up: the app's database and worker(s), a Temporal client, the receiver, the services. */
export interface Stack {
  o: Options;
  say: Say;
  temporalServer: string;
  /** Which workers deliver (the notes say it): the in-process one here, the cluster's processes there. */
  workers: string;
  temporalAddress: string;
  config: Config;
  knex: Knex;
  temporal: Client;
  rx: Awaited<ReturnType<typeof startReceiver>>;
  secrets: Map<string, string>;
  services: ReturnType<typeof createServices>;
  /**
   * The in-process worker's dispatcher wake: the emitter nudges it, as the worker's own fan-out
   * does. None when the workers are other processes: the NOTIFY at commit wakes their dispatcher.
   */
  dispatchWake?: Awaited<ReturnType<typeof startWorker>>['dispatchWake'];
}

/** The Temporal the bench runs on: the dev server (SQLite, started with the infrastructure) or, with `--temporal-postgres`, a server on its own PostgreSQL. */
async function startTemporal(
  o: Options,
  base: Config,
  tmp: string,
  teardown: Teardown,
  say: Say,
  log: Say,
): Promise<{ temporalServer: string; infraConfig: Config }> {
  if (!o.temporalPostgres) return { temporalServer: 'Temporal dev server in memory (SQLite)', infraConfig: base };
  const t = await startTemporalOnPostgres({
    dir: tmp,
    cacheDir: defaultCacheDir(base.CACHE_DIR),
    namespace: base.TEMPORAL_NAMESPACE,
    log: say,
    debug: log,
  });
  teardown.add(() => t.stop());
  return {
    temporalServer: `Temporal ${t.version} (own embedded PostgreSQL, fsync on)`,
    infraConfig: loadConfig({}, { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: tmp, TEMPORAL_ADDRESS: t.address }),
  };
}

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };

async function startStack(o: Options, teardown: Teardown, say: Say): Promise<Stack> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-bench-webhooks-'));
  fs.chmodSync(tmp, 0o755);
  const base = loadConfig({}, { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: tmp });
  const log = (l: string) => {
    if (process.env.BENCH_VERBOSE) console.log(`[bench] ${l}`);
  };
  say(
    `webhooks benchmark: ${o.events} events × ${o.subscriptions} subscriptions, concurrency ` +
      `${o.concurrency}${o.quick ? ' (quick)' : ''}; starting PostgreSQL and Temporal${o.temporalPostgres ? ' on PostgreSQL' : ''}…`,
  );
  teardown.add(async () => fs.rmSync(tmp, { recursive: true, force: true }));
  const { temporalServer, infraConfig } = await startTemporal(o, base, tmp, teardown, say, log);
  const infra = await startInfrastructure({
    config: infraConfig,
    log,
    persistent: false,
    pgDataDir: path.join(tmp, 'pg'),
    pgPort: await freePort(),
    temporalPort: await freePort(),
    temporalUiPort: null,
    databaseName: 'webhooks_bench',
  });
  teardown.add(async () => infra.stop());
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: tmp,
      DATABASE_URL: infra.databaseUrl,
      TEMPORAL_ADDRESS: infra.temporalAddress,
      TEMPORAL_TASK_QUEUE: `bench-webhooks-${randomBytes(4).toString('hex')}`,
      APP_SECRET: randomBytes(32).toString('hex'),
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      DATABASE_POOL_MAX: '20',
    },
  );
  const knex = createKnex(infra.databaseUrl, config.DATABASE_POOL_MAX);
  teardown.add(() => knex.destroy());
  await migrateLatest(knex);
  const bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quiet });
  const worker = await startWorker({
    config,
    knex,
    address: infra.temporalAddress,
    workflowBundle: { code: bundle.code },
    shutdownGraceTime: '2 seconds',
  });
  teardown.add(() => worker.shutdown());
  const connection = await Connection.connect({ address: infra.temporalAddress });
  teardown.add(() => connection.close());
  const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const secrets = new Map<string, string>();
  const rx = await startReceiver(secrets);
  teardown.add(() => rx.close());
  const services = createServices({ knex, temporal, config });
  return {
    o,
    say,
    temporalServer,
    workers: 'one in-process worker',
    temporalAddress: infra.temporalAddress,
    config,
    knex,
    temporal,
    rx,
    secrets,
    services,
    dispatchWake: worker.dispatchWake,
  };
}

/** A seeker and `--subscriptions` subscriptions of theirs to match.matched, all pointing at the receiver. */
async function subscribe(s: Stack): Promise<{ userId: string; subs: Sub[] }> {
  const user = await s.services.deps.repos.accounts.insertUser({
    email: `bench-${randomBytes(4).toString('hex')}@bench.local`,
    display_name: 'Bench',
    role: 'seeker',
  });
  const subs: Sub[] = [];
  for (let i = 0; i < s.o.subscriptions; i++) {
    const { row, secret } = await s.services.webhooks.create({ kind: 'user', userId: user.id }, user.id, {
      target_url: s.rx.url,
      events: ['match.matched'],
    });
    s.secrets.set(row.id, secret);
    subs.push({ id: row.id, secret });
  }
  return { userId: user.id, subs };
}

/** The signed POST of one delivery, as the delivery activity sends it, with the same HTTP client. */
function signedPoster(s: Stack, teardown: Teardown): (sub: Sub, id: string) => Promise<void> {
  const client = createWebhookHttpClient({ policy: { allowLoopback: true }, timeoutMs: s.config.WEBHOOK_TIMEOUT_MS });
  teardown.add(async () => client.close());
  return async (sub, id) => {
    const body = buildEnvelope({ id, type: 'match.matched', createdAtMs: Date.now(), data: { match_id: id } });
    const r = await client.post(s.rx.url, body, {
      'content-type': 'application/json',
      'svc-signature': signatureHeader([sub.secret], Math.floor(Date.now() / 1000), body),
      'svc-event': 'match.matched',
      'svc-delivery-id': `dlv_${randomBytes(16).toString('hex')}`,
      'svc-subscription-id': sub.id,
    });
    if (!r.ok) throw new Error(`POST failed: ${r.errorKind} ${r.httpStatus}`);
  };
}

/** Ceiling 1: raw signed POSTs from this one process, same client, same concurrency. */
async function rawCeiling(s: Stack, subs: Sub[], signedPost: (sub: Sub, id: string) => Promise<void>): Promise<number> {
  const deliveries = s.o.events * s.o.subscriptions;
  const rawJobs = Array.from({ length: deliveries }, (_, i) => ({ sub: subs[i % subs.length], id: `evt_raw_${i}` }));
  const rawStart = process.hrtime.bigint();
  await pool(rawJobs, s.o.concurrency, async (j) => signedPost(j.sub, j.id));
  const rawRate = deliveries / (Number(process.hrtime.bigint() - rawStart) / 1e9);
  s.rx.reset();
  s.say(`raw signed POSTs: ${rawRate.toFixed(0)}/s`);
  return rawRate;
}

/** Ceiling 2: a bare one-activity workflow per delivery doing the same POST (its own task queue and worker). */
async function bareCeiling(
  s: Stack,
  subs: Sub[],
  signedPost: (sub: Sub, id: string) => Promise<void>,
  teardown: Teardown,
): Promise<number> {
  const bareQueue = `bench-webhooks-bare-${randomBytes(4).toString('hex')}`;
  const bareConnection = await NativeConnection.connect({ address: s.temporalAddress });
  const bareWorker = await Worker.create({
    connection: bareConnection,
    namespace: s.config.TEMPORAL_NAMESPACE,
    taskQueue: bareQueue,
    workflowBundle: {
      code: (await bundleWorkflowCode({ workflowsPath: require.resolve('./webhooks-bare/workflows'), logger: quiet }))
        .code,
    },
    activities: {
      barePost: async (i: { subscriptionIndex: number; eventId: string }) =>
        signedPost(subs[i.subscriptionIndex], i.eventId),
    },
  });
  const bareRun = bareWorker.run();
  teardown.add(async () => {
    bareWorker.shutdown();
    await bareRun.catch(() => undefined);
    await bareConnection.close();
  });
  const bareJobs = Array.from({ length: s.o.bare }, (_, i) => ({
    subscriptionIndex: i % subs.length,
    eventId: `evt_bare_${i}`,
  }));
  const bareStart = process.hrtime.bigint();
  await pool(bareJobs, s.o.concurrency, async (j) => {
    await s.temporal.workflow.execute('bareWebhookPostWorkflow', {
      taskQueue: bareQueue,
      workflowId: `bench-bare-${bareQueue}-${j.eventId}`,
      args: [j],
    });
  });
  const bareRate = s.o.bare / (Number(process.hrtime.bigint() - bareStart) / 1e9);
  s.rx.reset();
  s.say(`bare one-activity workflows: ${bareRate.toFixed(1)}/s`);
  return bareRate;
}

type Emit = (e: DomainEvent) => Promise<unknown>;
const keysOf = (events: DomainEvent[], subs: Sub[]) => events.flatMap((e) => subs.map((sub) => `${sub.id}/${e.id}`));
/** Commit → first arrival at the receiver, per (subscription, event) key. */
const latenciesOf = (s: Stack, keys: string[], committedAt: Map<string, number>) =>
  keys.map((k) => Math.max(0, s.rx.firstAt.get(k)! - committedAt.get(k.split('/')[1])!));

/** Ours, end to end, as fast as it can: the emitter as workflows call it (domain_events + fan-out), then Temporal, the worker, the HTTP attempt. */
async function throughput(s: Stack, events: DomainEvent[], subs: Sub[], emit: Emit, committedAt: Map<string, number>) {
  const keys = keysOf(events, subs);
  const e2eStart = process.hrtime.bigint();
  const arrived = s.rx.waitFor(keys, 15 * 60_000);
  await pool(events, s.o.concurrency, async (e) => {
    const ev = { ...e, createdAtMs: Date.now() };
    // "Commit" = the moment the emitter's call returned: the event row and whatever the fan-out records are committed.
    await emit(ev);
    committedAt.set(e.id, Date.now());
  });
  const emitSeconds = Number(process.hrtime.bigint() - e2eStart) / 1e9;
  await arrived;
  const e2eSeconds = Number(process.hrtime.bigint() - e2eStart) / 1e9;
  return { keys, emitSeconds, e2eSeconds, latencies: latenciesOf(s, keys, committedAt) };
}

/**
 * Latency at a sustainable rate: events paced at --paced-rate per second (each to every
 * subscription), commit → first attempt per delivery. (The throughput phase emits as fast as it
 * can, so its latency is the backlog's, reported in the notes.)
 */
async function pacedLatency(
  s: Stack,
  template: DomainEvent,
  subs: Sub[],
  emit: Emit,
  committedAt: Map<string, number>,
) {
  const paced: DomainEvent[] = Array.from({ length: s.o.pacedEvents }, (_, i) => ({
    ...template,
    id: `evt_${randomBytes(12).toString('hex')}`,
    data: { ...template.data, match_id: `p-${i}` },
  }));
  const pacedKeys = keysOf(paced, subs);
  const pacedArrived = s.rx.waitFor(pacedKeys, 5 * 60_000);
  const pacedStart = Date.now();
  await Promise.all(
    paced.map(async (e, i) => {
      const at = pacedStart + Math.round((i * 1000) / s.o.pacedRate);
      await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
      await emit({ ...e, createdAtMs: Date.now() });
      committedAt.set(e.id, Date.now());
    }),
  );
  await pacedArrived;
  return { pacedKeys, pacedLatencies: latenciesOf(s, pacedKeys, committedAt) };
}

/**
 * A second emission of some events must not deliver anything again (stragglers get time to show);
 * every attempt durable: one delivery row and one attempt row per delivery, all delivered.
 */
async function integrity(s: Stack, events: DomainEvent[], subs: Sub[], emit: Emit, keys: string[]) {
  await pool(events.slice(0, Math.min(100, events.length)), s.o.concurrency, async (e) => {
    await emit(e);
  });
  await new Promise((r) => setTimeout(r, 3000));
  const lost = keys.filter((k) => !s.rx.counts.has(k)).length;
  const duplicated = keys.filter((k) => (s.rx.counts.get(k) ?? 0) > 1).length;
  const subIds = subs.map((sub) => sub.id);
  const states = await s
    .knex('webhook_deliveries')
    .whereIn('subscription_id', subIds)
    .groupBy('state')
    .select('state')
    .count<{ state: string; count: string }[]>({ count: '*' });
  const [{ count: attemptRows }] = await s
    .knex('webhook_delivery_attempts')
    .whereIn('subscription_id', subIds)
    .count<{ count: string }[]>({ count: '*' });
  const deliveredRows = Number(states.find((x) => x.state === 'delivered')?.count ?? 0);
  return { lost, duplicated, states, attemptRows, deliveredRows };
}

function domainEvents(n: number, userId: string): DomainEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `evt_${randomBytes(12).toString('hex')}`,
    type: 'match.matched',
    ownerUserIds: [userId],
    ownerTeamId: null,
    data: { match_id: `m-${i}`, role_title: 'Engineer', seeker_headline: 'Bench seeker' },
    createdAtMs: 0,
  }));
}

type Measured = {
  deliveries: number;
  rawRate: number;
  bareRate: number;
  e2e: Awaited<ReturnType<typeof throughput>>;
  paced: Awaited<ReturnType<typeof pacedLatency>>;
  check: Awaited<ReturnType<typeof integrity>>;
  badSignatures: number;
};

/** The bench's JSON (the contract bench/suite.ts reads with `--json`). */
function resultOf(s: Stack, m: Measured) {
  const { o } = s;
  const e2eRate = m.deliveries / m.e2e.e2eSeconds;
  const saturated = { p50: percentileFloor(m.e2e.latencies, 50), p99: percentileFloor(m.e2e.latencies, 99) };
  const expectedRows = m.deliveries + m.paced.pacedKeys.length;
  const notes = [
    `load average ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}; ${os.cpus().length} CPU ` +
      `${os.cpus()[0]?.model ?? ''}, node ${process.version}`,
    `${s.temporalServer}; the app's own embedded PostgreSQL; ${s.workers}; receiver on 127.0.0.1`,
    `throughput phase: emit ${m.e2e.emitSeconds.toFixed(2)} s, end to end ` +
      `${m.e2e.e2eSeconds.toFixed(2)} s, commit → first attempt at saturation p50 ` +
      `${saturated.p50} ms / p99 ${saturated.p99} ms (the backlog of emitting as fast as ` +
      `possible)`,
    `firstAttemptMs: commit (the emitter's call returned) → arrival at the receiver, ` +
      `${o.pacedEvents} events × ${o.subscriptions} subscriptions paced at ${o.pacedRate} ` +
      `events/s (${o.pacedRate * o.subscriptions} deliveries/s)`,
    `recorded: ${m.check.deliveredRows}/${expectedRows} deliveries delivered, ` +
      `${m.check.attemptRows} attempt rows; states ` +
      `${JSON.stringify(Object.fromEntries(m.check.states.map((x) => [x.state, Number(x.count)])))}`,
    `ratios: ${(e2eRate / m.bareRate).toFixed(2)}× the bare workflow, ` +
      `${(e2eRate / m.rawRate).toFixed(4)}× raw signed POSTs`,
  ];
  return {
    temporal: s.temporalServer,
    events: o.events,
    subscriptions: o.subscriptions,
    deliveries: m.deliveries,
    deliveriesPerSec: Number(e2eRate.toFixed(1)),
    firstAttemptMs: {
      p50: percentileFloor(m.paced.pacedLatencies, 50),
      p99: percentileFloor(m.paced.pacedLatencies, 99),
    },
    lost: m.check.lost,
    duplicated: m.check.duplicated,
    badSignatures: m.badSignatures,
    bareWorkflowPerSec: Number(m.bareRate.toFixed(1)),
    rawSignedPostsPerSec: Number(m.rawRate.toFixed(1)),
    notes,
  };
}

export type WebhooksResult = ReturnType<typeof resultOf>;

/** Every phase in order: the result, and whether a delivery was lost, duplicated, badly signed or unrecorded. */
export async function measureWebhooks(
  s: Stack,
  teardown: Teardown,
): Promise<{ result: WebhooksResult; failed: boolean }> {
  const { o } = s;
  const { userId, subs } = await subscribe(s);
  const signedPost = signedPoster(s, teardown);
  const rawRate = await rawCeiling(s, subs, signedPost);
  const bareRate = await bareCeiling(s, subs, signedPost, teardown);
  const { emitDomainEvent } = createDomainEventsActivities({
    knex: s.knex,
    fanOut: createWebhooksFanOut({
      webhooksRepository: s.services.deps.repos.webhooks,
      client: s.temporal,
      config: s.config,
      dispatchWake: s.dispatchWake,
    }),
  });
  const events = domainEvents(o.events, userId);
  const committedAt = new Map<string, number>();
  const e2e = await throughput(s, events, subs, emitDomainEvent, committedAt);
  const paced = await pacedLatency(s, events[0], subs, emitDomainEvent, committedAt);
  const check = await integrity(s, events, subs, emitDomainEvent, [...e2e.keys, ...paced.pacedKeys]);
  const deliveries = o.events * o.subscriptions;
  const result = resultOf(s, { deliveries, rawRate, bareRate, e2e, paced, check, badSignatures: s.rx.badSignatures() });
  if (o.profile)
    await profile(
      s.temporal,
      subs[0].id,
      events.map((e) => e.id).filter((_, i) => i % Math.max(1, Math.floor(events.length / 20)) === 0),
    );
  const expectedRows = deliveries + paced.pacedKeys.length;
  const failed =
    check.lost > 0 ||
    check.duplicated > 0 ||
    s.rx.badSignatures() > 0 ||
    check.deliveredRows !== expectedRows ||
    Number(check.attemptRows) < expectedRows;
  if (failed) console.error('FAIL: lost, duplicated, badly signed or unrecorded deliveries');
  return { result, failed };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const say = (l: string) => console.log(o.json ? `[webhooks] ${l}` : l);
  const teardown = new Teardown();
  let failed = false;
  try {
    const measured = await measureWebhooks(await startStack(o, teardown, say), teardown);
    if (o.json) fs.writeFileSync(o.json, `${JSON.stringify(measured.result, null, 2)}\n`);
    console.log(JSON.stringify(measured.result, null, 2));
    failed = measured.failed;
  } finally {
    await teardown.run(() => undefined);
  }
  process.exit(failed ? 1 : 0);
}

runMain(main, module);
