import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of this process (prom-client; docs/operations.md#metrics lists every one,
 * decision 0258 says why). One registry per process: the API's and the worker's metrics are
 * defined by the process that owns them; the domain counters below are incremented where the
 * event happens (an activity, a projection), so they live here, beside the registry, for every
 * process to share without importing another capability.
 *
 * Labels take values from fixed vocabularies only (route patterns, status classes, outcome names):
 * never an id, a slug or a URL, so the number of series stays bounded.
 */
export const registry = new Registry();

let defaultsCollected = false;
/** Node's own metrics (event loop lag, heap, GC, CPU, open handles): once per process, when it serves metrics. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: registry });
}

/** Seconds: offers are made within seconds of a join on a busy fair, hours on a quiet one. */
const TIME_TO_MATCH_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

/** The outcomes of a match the projection counts (its status after the offer). */
export type MatchOutcome = 'accepted' | 'declined' | 'expired' | 'completed' | 'no_show';

/** Counters of domain events, incremented in the process where the event happens (the worker's activities). */
export const domainMetrics = {
  offersMade: new Counter({
    name: 'jobfair_offers_made_total',
    help: 'Offers made: queue entries that became matched (the match row is born with them)',
    registers: [registry],
  }),
  timeToMatch: new Histogram({
    name: 'jobfair_time_to_match_seconds',
    help: 'From a queue join to its offer (the entry projected as matched)',
    buckets: TIME_TO_MATCH_BUCKETS,
    registers: [registry],
  }),
  matchOutcomes: new Counter({
    name: 'jobfair_match_outcomes_total',
    help: 'Matches that reached a status after the offer: accepted, declined, expired, completed (an interview held), no_show',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
  webhookDeliveries: new Counter({
    name: 'jobfair_webhook_deliveries_total',
    help:
      'Webhook delivery steps by what they left the delivery as: delivered, retrying, dead_letter (an ' +
      'attempt was sent), or cancelled, not_accepted_paused, oversize (ended without a request)',
    labelNames: ['outcome', 'attempt'] as const,
    registers: [registry],
  }),
  retentionRowsDeleted: new Counter({
    name: 'jobfair_retention_rows_deleted_total',
    help: 'Rows the retention workflow deleted, by table (idempotency keys, finished webhook deliveries and their attempts, expired codes, tokens and sessions, sent e-mails)',
    labelNames: ['table'] as const,
    registers: [registry],
  }),
  retentionLastPass: new Gauge({
    name: 'jobfair_retention_last_pass_timestamp_seconds',
    help: 'When this worker last finished a retention pass with nothing left past its retention (Unix seconds)',
    registers: [registry],
  }),
  activityExecutions: new Counter({
    name: 'jobfair_activity_executions_total',
    help: 'Activity executions by activity type and outcome (completed, failed, cancelled)',
    labelNames: ['activity', 'outcome'] as const,
    registers: [registry],
  }),
  activityDuration: new Histogram({
    name: 'jobfair_activity_duration_seconds',
    help: 'Activity execution time (one attempt) by activity type',
    labelNames: ['activity'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  }),
};

export interface MetricsServer {
  port: number;
  close: () => Promise<void>;
}

/**
 * The metrics listener: `GET /metrics` in the Prometheus text format on its own port (METRICS_PORT),
 * apart from the public listener, so the load balancer and the ingress never route to it.
 * `extra` appends another exposition (the worker's Temporal SDK metrics) to the same scrape.
 */
export async function startMetricsServer(opts: {
  host: string;
  port: number;
  extra?: () => Promise<string>;
}): Promise<MetricsServer> {
  collectProcessMetrics();
  const server = http.createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || url !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    Promise.all([registry.metrics(), opts.extra ? opts.extra().catch(() => '') : ''])
      .then(([own, extra]) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(extra ? `${own}\n${extra}` : own);
      })
      .catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${(err as Error).message}\n`);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A free TCP port on loopback now (for a listener that cannot take port 0 and tell, like the Temporal SDK's exporter). */
export async function freeLoopbackPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** What the pool gauges read of a knex (tarn) pool. */
interface PoolLike {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}
const pools = new Map<string, () => PoolLike | undefined>();
new Gauge({
  name: 'jobfair_db_pool_connections',
  help: "The process's PostgreSQL pool: connections in use, idle, and acquires waiting for one (pending)",
  labelNames: ['pool', 'state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [name, get] of pools) {
      const p = get();
      if (!p) continue;
      this.set({ pool: name, state: 'used' }, p.numUsed());
      this.set({ pool: name, state: 'free' }, p.numFree());
      this.set({ pool: name, state: 'pending' }, p.numPendingAcquires());
    }
  },
});
new Gauge({
  name: 'jobfair_db_pool_max',
  help: 'Largest size of the PostgreSQL pool (DATABASE_POOL_MAX)',
  labelNames: ['pool'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [name, get] of pools) {
      const p = get();
      if (p) this.set({ pool: name }, p.max);
    }
  },
});

/** Reports a knex pool's use under `pool` (`api`, `worker`): the pool-saturation alert reads it. */
export function watchPool(name: 'api' | 'worker', knex: { client: unknown }): void {
  pools.set(name, () => (knex.client as { pool?: PoolLike }).pool);
}
