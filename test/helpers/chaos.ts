import { setTimeout as sleep } from 'node:timers/promises';
import http from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { startLifecycle, type LifecycleOptions, type LifecycleResult, type RecoveryByKind } from './chaos-lifecycle';
import type { DeployScan } from './chaos-deploy';

/**
 * The chaos engine (decision 0164): keyed writes and webhook deliveries under load while one fault
 * strikes, then reconciliation of what clients were told against PostgreSQL and the receiver's log.
 * Used by `npm run chaos` (the whole fault matrix, bench/chaos.ts) and by the short run in
 * `npm test` (test/platform/chaos.test.ts, one fault).
 *
 * Load: `jobs` keyed `POST /jobs` and `tests` keyed `POST /webhooks/:id/test` (each a real signed
 * delivery to a local receiver that fails 10 % of first attempts), at `concurrency`. A client retries
 * with the same key until it gets an answer (2xx or a refusal) or gives up after `giveUpMs`.
 */
export interface ChaosTarget {
  /** Kill (or stop) the part under test; resolves when it is down. */
  fault: () => Promise<void>;
  /** Bring it back; resolves when it is serving again. */
  recover: () => Promise<void>;
}

export interface ChaosOptions {
  base: () => string;
  knex: Knex;
  token: string;
  eventId: string;
  webhookId: string;
  receiver: Receiver;
  jobs: number;
  tests: number;
  concurrency: number;
  /** When the fault strikes, after the load starts. */
  faultAfterMs: number;
  /** How long the part stays down. */
  downMs: number;
  target: ChaosTarget | null;
  giveUpMs?: number;
  /** Op starts are spread over this span, so the load runs before, during and after the fault
   * (default: faultAfterMs + downMs + 3 s). */
  spanMs?: number;
  /** How long deliveries may take to settle after the load (retries included). */
  settleMs?: number;
  log?: (l: string) => void;
  /** Seekers' whole lifecycle under the same fault: joins, accepts, declines, expiries (chaos-lifecycle.ts). */
  lifecycle?: LifecycleOptions;
}

export interface ChaosResult {
  fault: string;
  ops: number;
  acknowledged: number;
  lost: number;
  duplicated: number;
  gaveUp: number;
  deliveriesReceived: number;
  deliveriesDuplicatedBeyondAtLeastOnce: number;
  /** From the part being back to the first keyed answer of every op in flight over the fault (max, ms). */
  recoveryMs: number | null;
  /** The same per kind: keyed writes (jobs, declines, leaves), queue joins, webhook test sends. */
  recoveryByKind: RecoveryByKind;
  wallMs: number;
  lifecycle: LifecycleResult | null;
  /** Attempts (keyed writes, joins, test sends) answered 5xx or failed on the network, each then retried with its key. */
  failedAttempts: number;
  /** The rolling deploy row's history scan (chaos-deploy.ts); absent in the other rows. */
  deploy?: DeployScan;
}

export interface Receiver {
  url: string;
  /** Every request: event id and the status answered. */
  log: Array<{ eventId: string; deliveryId: string; status: number }>;
  close: () => Promise<void>;
}

/** A receiver failing (503) 10 % of first attempts, chosen by a hash of the event id (reproducible). */
export async function startChaosReceiver(): Promise<Receiver> {
  const log: Receiver['log'] = [];
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let eventId = '';
      try {
        eventId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id;
      } catch {
        /* not ours */
      }
      const first = !seen.has(eventId);
      seen.add(eventId);
      const failFirst = createHash('sha256').update(eventId).digest()[0] < 26; // ≈ 10 %
      const status = first && failFirst ? 503 : 200;
      log.push({ eventId, deliveryId: String(req.headers['svc-delivery-id'] ?? ''), status });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 200 ? 'ok' : 'try again');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/chaos`,
    log,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

interface Op {
  kind: 'job' | 'test';
  n: number;
  key: string;
  ack?: { status: number; body: any; at: number };
  attempts: number;
  inFlightOverFault: boolean;
  /** What each attempt got (status, or the network error), with its time since the start. */
  trail: string[];
}

export async function runChaos(name: string, o: ChaosOptions): Promise<ChaosResult> {
  const t0 = Date.now();
  const log = o.log ?? (() => undefined);
  const giveUpMs = o.giveUpMs ?? 90_000;
  const marker = `chaos-${name}-${randomUUID().slice(0, 8)}`;
  const ops: Op[] = [
    ...Array.from({ length: o.jobs }, (_, n) => ({
      kind: 'job' as const,
      n,
      key: randomUUID(),
      attempts: 0,
      inFlightOverFault: false,
      trail: [] as string[],
    })),
    ...Array.from({ length: o.tests }, (_, n) => ({
      kind: 'test' as const,
      n,
      key: randomUUID(),
      attempts: 0,
      inFlightOverFault: false,
      trail: [] as string[],
    })),
  ];
  // Interleave the kinds so the fault meets both.
  ops.sort((a, b) => a.n - b.n || a.kind.localeCompare(b.kind));

  let faultAt: number | null = null;
  let backAt: number | null = null;
  const faultDone = (async () => {
    if (!o.target) return;
    await sleep(o.faultAfterMs);
    faultAt = Date.now();
    log(`[${name}] fault at +${faultAt - t0} ms`);
    await o.target.fault();
    await sleep(o.downMs);
    await o.target.recover();
    backAt = Date.now();
    log(`[${name}] back at +${backAt - t0} ms`);
  })();

  const runOp = async (op: Op) => {
    const started = Date.now();
    const req =
      op.kind === 'job'
        ? {
            path: '/api/v1/jobs',
            body: JSON.stringify({
              live_event_id: o.eventId,
              title: `${marker} job ${op.n}`,
              essential_skills: ['TypeScript'],
            }),
          }
        : { path: `/api/v1/webhooks/${o.webhookId}/test`, body: undefined };
    for (;;) {
      op.attempts++;
      const inFault = faultAt !== null && backAt === null;
      if (inFault) op.inFlightOverFault = true;
      try {
        const res = await fetch(`${o.base()}${req.path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${o.token}`,
            'idempotency-key': op.key,
            ...(req.body ? { 'content-type': 'application/json' } : {}),
          },
          body: req.body,
          signal: AbortSignal.timeout(20_000),
        });
        // 5xx, 409 IN_USE and 429 are "try again with the same key"; anything else is the answer.
        if (res.status < 500 && res.status !== 409 && res.status !== 429) {
          op.ack = { status: res.status, body: await res.json(), at: Date.now() };
          return;
        }
        if (res.status >= 500 || res.status === 409) op.inFlightOverFault ||= faultAt !== null;
        op.trail.push(`${res.status}@${Date.now() - t0}`);
        await res.arrayBuffer();
      } catch (err) {
        op.inFlightOverFault ||= faultAt !== null;
        op.trail.push(`${(err as Error).name}@${Date.now() - t0}`);
      }
      if (Date.now() - started > giveUpMs) return;
      await sleep(200);
    }
  };

  const span = o.spanMs ?? o.faultAfterMs + o.downMs + 3_000;
  const lifecycle = o.lifecycle
    ? startLifecycle({
        ...o.lifecycle,
        base: o.base,
        knex: o.knex,
        spanMs: span,
        log: (l) => log(`[${name}] ${l}`),
        fault: () => ({ at: faultAt, back: backAt }),
      })
    : null;
  let next = 0;
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (next < ops.length) {
        const i = next++;
        const startAt = t0 + Math.floor((i * span) / ops.length);
        if (startAt > Date.now()) await sleep(startAt - Date.now());
        await runOp(ops[i]);
      }
    }),
  );
  await faultDone;
  const life = lifecycle ? await lifecycle : null;

  // ---- reconciliation ----
  const acked = ops.filter((x) => x.ack && x.ack.status < 300);
  const jobRows: Array<{ id: string; title: string }> = await o
    .knex('jobs')
    .whereLike('title', `${marker} job %`)
    .select('id', 'title');
  const jobsByTitle = new Map<string, string[]>();
  for (const r of jobRows) jobsByTitle.set(r.title, [...(jobsByTitle.get(r.title) ?? []), r.id]);
  let lost = 0;
  let duplicated = 0;
  for (const op of ops.filter((x) => x.kind === 'job')) {
    const rows = jobsByTitle.get(`${marker} job ${op.n}`) ?? [];
    if (rows.length > 1) duplicated += rows.length - 1;
    if (op.ack && op.ack.status < 300 && !rows.includes(op.ack.body.job.id)) lost++;
  }
  // Every acknowledged test event: one domain event, and the receiver eventually answered 200 to it.
  const testOps = acked.filter((x) => x.kind === 'test');
  const eventIds = testOps.map((x) => String(x.ack!.body.event.id));
  const deadline = Date.now() + (o.settleMs ?? 120_000);
  const delivered = () => new Set(o.receiver.log.filter((r) => r.status === 200).map((r) => r.eventId));
  while (Date.now() < deadline && !eventIds.every((id) => delivered().has(id))) await sleep(250);
  const got = delivered();
  lost += eventIds.filter((id) => !got.has(id)).length;
  const testEvents: Array<{ n: number }> = await o
    .knex('domain_events')
    .where({ type: 'webhook.test' })
    .whereRaw("data->>'webhook_id' = ?", [o.webhookId])
    .whereIn('id', eventIds)
    .count({ n: '*' });
  lost += eventIds.length - Number(testEvents[0].n);
  // At-least-once allows a repeat only after a failure or timeout; two 200s to one event are a duplicate.
  const okCounts = new Map<string, number>();
  for (const r of o.receiver.log)
    if (r.status === 200 && eventIds.includes(r.eventId)) okCounts.set(r.eventId, (okCounts.get(r.eventId) ?? 0) + 1);
  const dupDeliveries = [...okCounts.values()].filter((c) => c > 1).length;
  // More test events than keyed operations would be a duplicated effect.
  const allTestEvents: Array<{ n: number }> = await o
    .knex('domain_events')
    .where({ type: 'webhook.test' })
    .whereRaw("data->>'webhook_id' = ?", [o.webhookId])
    .andWhere('created_at', '>=', new Date(t0 - 1000))
    .count({ n: '*' });
  duplicated += Math.max(
    0,
    Number(allTestEvents[0].n) - testOps.length - ops.filter((x) => x.kind === 'test' && !x.ack).length,
  );

  const slowest = ops.filter((x) => x.inFlightOverFault && x.ack).sort((a, b) => b.ack!.at - a.ack!.at)[0];
  if (slowest)
    log(
      `[${name}] slowest in-flight op: ${slowest.kind} ${slowest.n}, answered ` +
        `${slowest.ack!.status} at +${slowest.ack!.at - t0} ms after ` +
        `${slowest.trail.slice(-8).join(' ')}`,
    );
  const recoveryOf = (kind: Op['kind']) => {
    const xs = ops.filter((x) => x.kind === kind && x.inFlightOverFault && x.ack);
    return backAt === null || !xs.length ? null : Math.max(0, ...xs.map((x) => x.ack!.at - backAt!));
  };
  const maxOf = (...xs: Array<number | null | undefined>) =>
    xs.some((x) => x !== null && x !== undefined)
      ? Math.max(...xs.filter((x): x is number => x !== null && x !== undefined))
      : null;
  const recoveryByKind: RecoveryByKind = {
    writes: maxOf(recoveryOf('job'), life?.recoveryWritesMs),
    joins: life?.recoveryJoinsMs ?? null,
    tests: recoveryOf('test'),
  };
  const recoveryMs =
    backAt === null ? null : (maxOf(recoveryByKind.writes, recoveryByKind.joins, recoveryByKind.tests) ?? 0);
  return {
    fault: name,
    ops: ops.length + (life?.joins ?? 0),
    acknowledged: acked.length + (life?.joinsAcknowledged ?? 0),
    lost: lost + (life?.lost ?? 0),
    duplicated: duplicated + (life?.duplicated ?? 0),
    gaveUp: ops.filter((x) => !x.ack).length + (life?.gaveUp ?? 0),
    deliveriesReceived: eventIds.filter((id) => got.has(id)).length,
    deliveriesDuplicatedBeyondAtLeastOnce: dupDeliveries,
    recoveryMs,
    recoveryByKind,
    wallMs: Date.now() - t0,
    lifecycle: life,
    failedAttempts:
      ops.reduce((n, x) => n + x.trail.filter((t) => !/^(409|429)@/.test(t)).length, 0) + (life?.failedAttempts ?? 0),
  };
}

export function chaosTable(rows: ChaosResult[]): string {
  const head = [
    'fault',
    'ops (keyed writes + joins)',
    'acked',
    'lost',
    'duplicated',
    'gave up',
    'accepts / late refused / declines / expiries',
    'over-capacity',
    'matched twice (Temporal) / PG-only samples',
    'PG ≠ Temporal',
    'accepted after expiry',
    'longest matching gap',
    'deliveries received',
    'dup. deliveries (beyond at-least-once)',
    'keyed-retry recovery: writes / joins / test sends',
    'wall',
    'WFT failures / non-determinism (histories)',
  ];
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    line(head),
    line(head.map(() => '---')),
    ...rows.map((r) => {
      const l = r.lifecycle;
      return line([
        r.fault,
        r.ops,
        r.acknowledged,
        r.lost,
        r.duplicated,
        r.gaveUp,
        l ? `${l.accepted} / ${l.lateAcceptsRefused} / ${l.declined} / ${l.expired}` : '—',
        l ? Math.max(0, l.overCapacity) : '—',
        l ? `${l.matchedTwice} / ${l.pgDoublesUnconfirmed}` : '—',
        l ? l.disagreements : '—',
        l ? l.acceptedAfterExpiry : '—',
        l ? secs(l.longestGapMs) : '—',
        r.deliveriesReceived,
        r.deliveriesDuplicatedBeyondAtLeastOnce,
        r.recoveryMs === null
          ? '—'
          : [r.recoveryByKind.writes, r.recoveryByKind.joins, r.recoveryByKind.tests]
              .map((x) => (x === null ? '—' : secs(x)))
              .join(' / '),
        secs(r.wallMs),
        r.deploy ? `${r.deploy.taskFailures} / ${r.deploy.nonDeterminism} (${r.deploy.workflows})` : '—',
      ]);
    }),
  ].join('\n');
}
