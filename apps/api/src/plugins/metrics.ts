import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Histogram } from 'prom-client';
import type { Config } from '#lib/config';
import { registry, startMetricsServer, watchPool, type MetricsServer } from '#lib/metrics';
import { registerDomainGauges } from './metrics-state';
import type { ApiRouteConfig } from './route-config';

declare module 'fastify' {
  interface FastifyInstance {
    /** The metrics listener (METRICS_PORT), or null when it is off. */
    metricsServer: MetricsServer | null;
  }
}

/**
 * The API's RED metrics, one histogram per route pattern (never the URL: `/api/v1/matches/:id`),
 * method and status class; its `_count` is the request count. Read from each reply after it is
 * sent, so the plugins that decide (rate limits, idempotency, the discovery cache) need no hook of
 * their own: their answers say what they did (429, `Idempotent-Replayed`, `X-Cache`).
 */
const httpDuration = new Histogram({
  name: 'jobfair_http_request_duration_seconds',
  help: 'API requests by route pattern, method and status class (2xx…5xx): latency; _count is the request count',
  labelNames: ['route', 'method', 'status_class'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
const rateLimitRefusals = new Counter({
  name: 'jobfair_rate_limit_refusals_total',
  help: "Requests refused 429 by a rate limit, by the route's rate class (none: sign-in and sign-up limits)",
  labelNames: ['rate_class'] as const,
  registers: [registry],
});
const idempotencyReplays = new Counter({
  name: 'jobfair_idempotency_replays_total',
  help: 'Answers replayed for a repeated Idempotency-Key (the handler did not run), by route pattern',
  labelNames: ['route'] as const,
  registers: [registry],
});
const publicCache = new Counter({
  name: 'jobfair_public_cache_requests_total',
  help: 'Discovery answers served from the in-process cache (hit) or loaded (miss), by route pattern',
  labelNames: ['route', 'result'] as const,
  registers: [registry],
});

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route label: the pattern Fastify matched, or `unmatched` (a 404 for a path no route has). */
function routeOf(request: FastifyRequest): string {
  return request.routeOptions?.url ?? 'unmatched';
}

function observe(request: FastifyRequest, reply: FastifyReply): void {
  const route = routeOf(request);
  const status = reply.statusCode;
  httpDuration.observe(
    {
      route,
      method: METHODS.has(request.method) ? request.method : 'other',
      status_class: `${Math.floor(status / 100)}xx`,
    },
    reply.elapsedTime / 1000,
  );
  if (status === 429) {
    const cfg = request.routeOptions?.config as ApiRouteConfig | undefined;
    rateLimitRefusals.inc({ rate_class: cfg?.rateClass ?? 'none' });
  }
  if (reply.getHeader('idempotent-replayed') === 'true') idempotencyReplays.inc({ route });
  const cache = reply.getHeader('x-cache');
  if (cache === 'hit' || cache === 'miss') publicCache.inc({ route, result: cache });
}

/**
 * Metrics of the API process: the RED histogram above, the pool, the domain's state read from
 * PostgreSQL at scrape time (./metrics-state.ts), Node's own. Served by a listener of its own on
 * METRICS_PORT (decision 0258), never on the public port; off when METRICS_PORT is unset.
 */
export default fp<{ config: Config }>(
  async (app, opts) => {
    app.addHook('onResponse', async (request, reply) => observe(request, reply));
    watchPool('api', app.knex);
    registerDomainGauges(app.knex);
    let server: MetricsServer | null = null;
    if (opts.config.METRICS_PORT !== undefined) {
      server = await startMetricsServer({ host: opts.config.HOST, port: opts.config.METRICS_PORT });
      app.log.info({ port: server.port }, `metrics: http://${opts.config.HOST}:${server.port}/metrics`);
      const s = server;
      app.addHook('onClose', async () => s.close());
    }
    app.decorate('metricsServer', server);
  },
  { name: 'metrics', dependencies: ['knex'] },
);
