import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimitedError } from '../../../../lib/errors';
import type { Config } from '../../../../lib/config';
import type { RateClass } from '../lib/route-config';

const PERIOD_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the bucket is full again. */
  resetUnix: number;
  retryAfterSeconds: number;
}

/**
 * Per-token GCRA (generic cell rate algorithm): a burst of `limit`, then one request every
 * period/limit — no 2× burst at a window edge. State lives in PostgreSQL (`rate_limit_take`),
 * shared by every API replica. Written here because @fastify/rate-limit has fixed windows and
 * cannot emit the spec's headers (see docs/decisions/0003-rate-limiting.md).
 */
export function limitFor(config: Config, rateClass: RateClass): number {
  return rateClass === 'read' ? config.RATE_LIMIT_READ_PER_MIN : rateClass === 'write' ? config.RATE_LIMIT_WRITE_PER_MIN : config.RATE_LIMIT_COST_PER_MIN;
}

export function setRateLimitHeaders(reply: FastifyReply, d: RateDecision): void {
  reply.header('x-ratelimit-limit', String(d.limit));
  reply.header('x-ratelimit-remaining', String(d.remaining));
  reply.header('x-ratelimit-reset', String(d.resetUnix));
}

declare module 'fastify' {
  interface FastifyRequest {
    rateDecision: RateDecision | null;
  }
}

export default fp<{ config: Config }>(
  async (app, opts) => {
    app.decorateRequest('rateDecision', null);
    const take = async (request: FastifyRequest, rateClass: RateClass): Promise<RateDecision> => {
      const limit = limitFor(opts.config, rateClass);
      const interval = Math.ceil(PERIOD_MS / limit);
      const bucket = `${request.auth!.tokenId}:${rateClass}`;
      const { rows } = await app.knex.raw<{ rows: Array<{ allowed: boolean; tat_ms: number; now_ms: number }> }>('SELECT * FROM rate_limit_take(?, ?, ?)', [bucket, interval, PERIOD_MS]);
      const { allowed, tat_ms: tat, now_ms: now } = rows[0];
      const tat_ = Number(tat);
      const now_ = Number(now);
      const remaining = Math.max(0, Math.floor((now_ + PERIOD_MS - tat_) / interval));
      const retryAfterMs = allowed ? 0 : tat_ + interval - PERIOD_MS - now_;
      return { allowed, limit, remaining, resetUnix: Math.ceil(Math.max(tat_, now_) / 1000), retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    };
    /** Headers without consuming: for answers that cost no quota (a cost-bucket replay). */
    const peek = async (request: FastifyRequest, rateClass: RateClass): Promise<RateDecision> => {
      const limit = limitFor(opts.config, rateClass);
      const interval = Math.ceil(PERIOD_MS / limit);
      const { rows } = await app.knex.raw<{ rows: Array<{ tat_ms: number | null; now_ms: number }> }>(
        "SELECT (SELECT tat_ms FROM rate_limit_buckets WHERE bucket = ?) AS tat_ms, (extract(epoch from clock_timestamp()) * 1000)::bigint AS now_ms",
        [`${request.auth!.tokenId}:${rateClass}`],
      );
      const now = Number(rows[0].now_ms);
      const tat = Math.max(Number(rows[0].tat_ms ?? now), now);
      return { allowed: true, limit, remaining: Math.max(0, Math.floor((now + PERIOD_MS - tat) / interval)), resetUnix: Math.ceil(tat / 1000), retryAfterSeconds: 0 };
    };
    app.decorate('takeRateLimit', take);
    app.decorate('peekRateLimit', peek);
    app.addHook('onRequest', async (request, reply) => {
      const rateClass = request.routeOptions.config?.rateClass;
      if (!rateClass || !request.auth) return;
      const d = request.skipRateLimit ? await peek(request, rateClass) : await take(request, rateClass);
      request.rateDecision = d;
      setRateLimitHeaders(reply, d);
      if (!d.allowed) throw new RateLimitedError(d.retryAfterSeconds, d.limit);
    });
  },
  { name: 'rate-limit', dependencies: ['knex', 'auth'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    takeRateLimit: (request: FastifyRequest, rateClass: RateClass) => Promise<RateDecision>;
    peekRateLimit: (request: FastifyRequest, rateClass: RateClass) => Promise<RateDecision>;
  }
  interface FastifyRequest {
    /** Set by the cost-bucket replay check: a replay consumes no quota. */
    skipRateLimit?: boolean;
  }
}
