/**
 * Webhooks benchmark: end-to-end deliveries per second for N events (default 1 000) emitted through
 * the real emitter (domain_events + fan-out → one webhookDelivery workflow each → signed POST) to a
 * local receiver, as a ratio to raw signed POSTs sent from one process with the same HTTP client.
 * Fails (exit 1) on any lost event or any duplicate delivery by event id.
 *
 *   npm run bench -- webhooks [--events 1000] [--concurrency 32]
 *   (or: npx tsx bench/webhooks.ts …)
 *
 * Everything is throw-away and local: embedded PostgreSQL and a Temporal dev server in memory
 * (temp dir, free ports), one in-process worker, the receiver on 127.0.0.1. Kept out of `npm test`.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, Runtime, bundleWorkflowCode } from '@temporalio/worker';
import { loadConfig } from '../lib/config';
import { startInfrastructure } from '../lib/stack';
import { createKnex, migrateLatest } from '../db/knex';
import { freePort } from '../lib/ports';
import { startWorker, WORKFLOWS_PATH } from '../apps/worker/src/worker';
import { createDomainEventsActivities, type DomainEvent } from '../activities/webhooks/domain-events';
import { createWebhooksFanOut } from '../activities/webhooks/fan-out';
import { createWebhookHttpClient } from '../lib/webhooks/http-client';
import { buildEnvelope, signatureHeader } from '../lib/webhooks/signing';
import { verifyWebhookSignature } from '../lib/webhooks';
import { createServices } from '../apps/api/src/services';
import { parseBenchArgs, pool } from './common';

interface Options {
  events: number;
  concurrency: number;
  /** Print where the time of a sample of delivery workflows went (from their histories). */
  profile: boolean;
}

const parseArgs = (argv: string[]): Options =>
  parseBenchArgs<Options>(argv, 'webhooks', { events: 1000, concurrency: 32, profile: false }, { '--events': 'events', '--concurrency': 'concurrency' }, { '--profile': 'profile' });

/** The receiver: verifies every signature, counts deliveries per event id. */
async function startReceiver(secretRef: { secret: string }) {
  const counts = new Map<string, number>();
  let badSignatures = 0;
  let waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (!verifyWebhookSignature({ payload: raw, header: req.headers['svc-signature'], secret: secretRef.secret })) badSignatures++;
      const id = (JSON.parse(raw.toString('utf8')) as { id: string }).id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      res.writeHead(204).end();
      for (const w of waiters) w();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench`,
    counts,
    badSignatures: () => badSignatures,
    reset: () => counts.clear(),
    /** Resolves when `ids` have all arrived (or rejects after timeoutMs). */
    waitFor: (ids: string[], timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        const check = () => ids.every((id) => counts.has(id));
        if (check()) return resolve();
        const timer = setTimeout(() => reject(new Error(`only ${ids.filter((id) => counts.has(id)).length}/${ids.length} events arrived within ${timeoutMs} ms`)), timeoutMs);
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
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`history of ${eventIds.length} sampled deliveries (median ms after start):`);
  for (const [k, xs] of [...offsets.entries()].sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${k.padEnd(60)} ${median(xs)}`);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-bench-webhooks-'));
  fs.chmodSync(tmp, 0o755);
  const base = loadConfig({}, { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: tmp });
  const log = (l: string) => {
    if (process.env.BENCH_VERBOSE) console.log(`[bench] ${l}`);
  };
  console.log(`webhooks benchmark: ${o.events} events, concurrency ${o.concurrency}; starting PostgreSQL and Temporal…`);
  const infra = await startInfrastructure({ config: base, log, persistent: false, pgDataDir: path.join(tmp, 'pg'), pgPort: await freePort(), temporalPort: await freePort(), temporalUiPort: null, databaseName: 'webhooks_bench' });
  const cleanups: Array<() => Promise<unknown>> = [async () => infra.stop(), async () => fs.rmSync(tmp, { recursive: true, force: true })];
  let failed = false;
  try {
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
    cleanups.unshift(() => knex.destroy());
    await migrateLatest(knex);
    const bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error } });
    const worker = await startWorker({ config, knex, address: infra.temporalAddress, workflowBundle: { code: bundle.code }, shutdownGraceTime: '2 seconds' });
    cleanups.unshift(() => worker.shutdown());
    const connection = await Connection.connect({ address: infra.temporalAddress });
    cleanups.unshift(() => connection.close());
    const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });

    const secretRef = { secret: '' };
    const rx = await startReceiver(secretRef);
    cleanups.unshift(() => rx.close());

    const services = createServices({ knex, temporal, config });
    const accounts = services.deps.repos.accounts;
    const user = await accounts.insertUser({ email: `bench-${randomBytes(4).toString('hex')}@bench.local`, display_name: 'Bench', role: 'seeker' });
    const service = services.webhooks;
    const { row, secret } = await service.create({ kind: 'user', userId: user.id }, user.id, { target_url: rx.url, events: ['match.matched'] });
    secretRef.secret = secret;

    // 1) Baseline: raw signed POSTs from this one process, same client, same concurrency.
    const client = createWebhookHttpClient({ policy: { allowLoopback: true }, timeoutMs: config.WEBHOOK_TIMEOUT_MS });
    const rawIds = Array.from({ length: o.events }, (_, i) => `evt_raw_${i}`);
    const rawStart = process.hrtime.bigint();
    await pool(rawIds, o.concurrency, async (id) => {
      const body = buildEnvelope({ id, type: 'match.matched', createdAtMs: Date.now(), data: { match_id: id } });
      const r = await client.post(rx.url, body, {
        'content-type': 'application/json',
        'svc-signature': signatureHeader([secret], Math.floor(Date.now() / 1000), body),
        'svc-event': 'match.matched',
        'svc-delivery-id': `dlv_${randomBytes(16).toString('hex')}`,
        'svc-subscription-id': row.id,
      });
      if (!r.ok) throw new Error(`raw POST failed: ${r.errorKind} ${r.httpStatus}`);
    });
    const rawSeconds = Number(process.hrtime.bigint() - rawStart) / 1e9;
    client.close();
    rx.reset();

    // 2) End to end: the emitter as workflows call it, then Temporal, the worker, the HTTP attempt.
    const { emitDomainEvent } = createDomainEventsActivities({ knex, fanOut: createWebhooksFanOut({ webhooksRepository: services.deps.repos.webhooks, client: temporal, config }) });
    const events: DomainEvent[] = Array.from({ length: o.events }, (_, i) => ({
      id: `evt_${randomBytes(12).toString('hex')}`,
      type: 'match.matched',
      ownerUserIds: [user.id],
      ownerTeamId: null,
      data: { match_id: `m-${i}`, role_title: 'Engineer', seeker_headline: 'Bench seeker' },
      createdAtMs: Date.now(),
    }));
    const ids = events.map((e) => e.id);
    const e2eStart = process.hrtime.bigint();
    const arrived = rx.waitFor(ids, 10 * 60_000);
    await pool(events, o.concurrency, async (e) => {
      await emitDomainEvent(e);
    });
    const emitSeconds = Number(process.hrtime.bigint() - e2eStart) / 1e9;
    await arrived;
    const e2eSeconds = Number(process.hrtime.bigint() - e2eStart) / 1e9;

    // A second emission of every event must not deliver anything again; give stragglers time to show.
    await pool(events.slice(0, Math.min(100, events.length)), o.concurrency, async (e) => {
      await emitDomainEvent(e);
    });
    await new Promise((r) => setTimeout(r, 3000));
    const lost = ids.filter((id) => !rx.counts.has(id)).length;
    const duplicates = ids.filter((id) => (rx.counts.get(id) ?? 0) > 1).length;
    const states = await knex('webhook_deliveries').where({ subscription_id: row.id }).groupBy('state').select('state').count<{ state: string; count: string }[]>({ count: '*' });

    const rawRate = o.events / rawSeconds;
    const e2eRate = o.events / e2eSeconds;
    const result = {
      events: o.events,
      concurrency: o.concurrency,
      raw_signed_posts_per_s: Number(rawRate.toFixed(1)),
      end_to_end_deliveries_per_s: Number(e2eRate.toFixed(1)),
      ratio_end_to_end_to_raw: Number((e2eRate / rawRate).toFixed(4)),
      emit_seconds: Number(emitSeconds.toFixed(2)),
      end_to_end_seconds: Number(e2eSeconds.toFixed(2)),
      lost,
      duplicates_by_event_id: duplicates,
      bad_signatures: rx.badSignatures(),
      delivery_states: Object.fromEntries(states.map((s) => [s.state, Number(s.count)])),
      machine: `${os.cpus().length} CPU ${os.cpus()[0]?.model ?? ''}, node ${process.version}`,
    };
    console.log(JSON.stringify(result, null, 2));
    if (o.profile) await profile(temporal, row.id, ids.filter((_, i) => i % Math.max(1, Math.floor(ids.length / 20)) === 0));
    if (lost > 0 || duplicates > 0 || rx.badSignatures() > 0) {
      console.error('FAIL: lost, duplicated or badly signed deliveries');
      failed = true;
    }
  } finally {
    for (const c of cleanups) await c().catch(() => undefined);
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
