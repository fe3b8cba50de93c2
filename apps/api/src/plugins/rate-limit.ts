import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimitedError } from '../../../../lib/errors';
import type { Config } from '../../../../lib/config';
import type { RateClass } from '../lib/route-config';

const PERIOD_MS = 60_000;
const HOUSEKEEPING_MS = 10 * 60_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the bucket is full again. */
  resetUnix: number;
  retryAfterSeconds: number;
}

export function limitFor(config: Config, rateClass: RateClass): number {
  switch (rateClass) {
    case 'read':
      return config.RATE_LIMIT_READ_PER_MIN;
    case 'write':
      return config.RATE_LIMIT_WRITE_PER_MIN;
    case 'cost':
      return config.RATE_LIMIT_COST_PER_MIN;
    case 'public':
      return config.RATE_LIMIT_PUBLIC_PER_MIN;
  }
}

/**
 * GCRA for public routes, per client IP, in process memory: a database round trip per call
 * would defeat the in-process cache that makes a burst of discovery calls cost one query. The
 * budget is therefore per API replica (documented); token budgets are shared through PostgreSQL.
 */
export function createLocalGcra(maxKeys = 100_000) {
  const tats = new Map<string, number>();
  return {
    take(key: string, limit: number, nowMs = Date.now()): RateDecision {
      const { intervalMs, horizonMs } = gcraParams(limit);
      const tat = Math.max(tats.get(key) ?? nowMs, nowMs);
      const next = tat + intervalMs;
      const allowed = next - nowMs <= horizonMs;
      if (allowed) {
        if (!tats.has(key) && tats.size >= maxKeys) this.prune(nowMs);
        tats.set(key, next);
      }
      return decide(limit, allowed, allowed ? next : tat, nowMs);
    },
    /** Drops keys whose TAT has passed (a full bucket is the same as no entry). */
    prune(nowMs = Date.now()): void {
      for (const [k, t] of tats) if (t <= nowMs) tats.delete(k);
    },
    size: () => tats.size,
  };
}

/**
 * GCRA parameters of a limit per minute: the emission interval T (one request every T ms once
 * the burst is spent) and the horizon `limit × T` — how far the theoretical arrival time (TAT)
 * may run ahead of now. Using `limit × T` rather than 60 000 keeps the burst equal to `limit`
 * when T is rounded up (7/min: T = 8 572 ms; 60 000 would allow only 6 in a burst).
 */
export function gcraParams(limit: number, periodMs = PERIOD_MS): { intervalMs: number; horizonMs: number } {
  const intervalMs = Math.ceil(periodMs / limit);
  return { intervalMs, horizonMs: intervalMs * limit };
}

/** Header values from a TAT (epoch ms) on the database clock. */
export function decide(limit: number, allowed: boolean, tatMs: number, nowMs: number): RateDecision {
  const { intervalMs, horizonMs } = gcraParams(limit);
  const tat = Math.max(tatMs, nowMs);
  const remaining = Math.max(0, Math.min(limit, Math.floor((nowMs + horizonMs - tat) / intervalMs)));
  // Denied: the next request fits once TAT + T − horizon has passed.
  const retryAfterMs = allowed ? 0 : tat + intervalMs - horizonMs - nowMs;
  return { allowed, limit, remaining, resetUnix: Math.ceil(tat / 1000), retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
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

/**
 * Per-token, per-class GCRA (generic cell rate algorithm): a burst of `limit`, then one request
 * every 60 s / limit — never the 2× burst a fixed window lets through at its edge. The state (one
 * TAT per token and class) lives in PostgreSQL and is updated by `rate_limit_take` in one
 * statement on the database clock, so every API replica shares one budget and one clock.
 * Written here because @fastify/rate-limit has fixed windows and cannot emit the spec's headers
 * (see docs/decisions/0003-rate-limiting.md).
 *
 * Runs in `preValidation` (after the body is parsed) so a cost-bucket replay, which needs the
 * body to be recognised, is answered without consuming quota. Answers that fail before that stage
 * (bad JSON, body too large, idempotency conflicts) still carry the headers: `onSend` peeks at the
 * bucket without consuming. 401s carry none: there is no bucket for a caller we cannot identify.
 */
export default fp<{ config: Config }>(
  async (app, opts) => {
    app.decorateRequest('rateDecision', null);
    const bucketOf = (request: FastifyRequest, rateClass: RateClass) => `${request.auth!.tokenId}:${rateClass}`;

    const take = async (request: FastifyRequest, rateClass: RateClass): Promise<RateDecision> => {
      const limit = limitFor(opts.config, rateClass);
      const { intervalMs, horizonMs } = gcraParams(limit);
      // The take commits asynchronously (`set_config(…, true)` is SET LOCAL for this statement's
      // transaction): no WAL flush waited for on every authenticated request. A PostgreSQL crash
      // may forget the last ~0.6 s of takes, i.e. give those callers their quota back once — the
      // budget errs generous, never stricter (issue 17, decision 0188).
      const { rows } = await app.knex.raw<{ rows: Array<{ allowed: boolean; tat_ms: string; now_ms: string }> }>("SELECT r.*, set_config('synchronous_commit', 'off', true) AS sc FROM rate_limit_take(?, ?, ?) r", [
        bucketOf(request, rateClass),
        intervalMs,
        horizonMs,
      ]);
      return decide(limit, rows[0].allowed, Number(rows[0].tat_ms), Number(rows[0].now_ms));
    };

    /** Headers without consuming: for answers that cost no quota (a replay) or failed before the limiter ran. */
    const peek = async (request: FastifyRequest, rateClass: RateClass): Promise<RateDecision> => {
      const limit = limitFor(opts.config, rateClass);
      const { rows } = await app.knex.raw<{ rows: Array<{ tat_ms: string | null; now_ms: string }> }>(
        'SELECT (SELECT tat_ms FROM rate_limit_buckets WHERE bucket = ?) AS tat_ms, (extract(epoch from clock_timestamp()) * 1000)::bigint AS now_ms',
        [bucketOf(request, rateClass)],
      );
      const now = Number(rows[0].now_ms);
      return decide(limit, true, Number(rows[0].tat_ms ?? now), now);
    };

    app.decorate('takeRateLimit', take);
    app.decorate('peekRateLimit', peek);

    const local = createLocalGcra();
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config?.rateClass !== 'public') return;
      const d = local.take(`ip:${request.ip}`, limitFor(opts.config, 'public'));
      request.rateDecision = d;
      setRateLimitHeaders(reply, d);
      if (!d.allowed) throw new RateLimitedError(d.retryAfterSeconds, d.limit);
    });

    app.addHook('preValidation', async (request, reply) => {
      const rateClass = request.routeOptions.config?.rateClass;
      if (!rateClass || rateClass === 'public' || !request.auth) return;
      const d = request.skipRateLimit ? await peek(request, rateClass) : await take(request, rateClass);
      request.rateDecision = d;
      setRateLimitHeaders(reply, d);
      if (!d.allowed) throw new RateLimitedError(d.retryAfterSeconds, d.limit);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const rateClass = request.routeOptions.config?.rateClass;
      if (!rateClass || !request.auth || request.rateDecision || reply.hasHeader('x-ratelimit-limit')) return payload;
      try {
        const d = await peek(request, rateClass);
        request.rateDecision = d;
        setRateLimitHeaders(reply, d);
      } catch (err) {
        request.log.warn({ err }, 'could not read the rate-limit bucket');
      }
      return payload;
    });

    // A bucket whose TAT has passed is the same as no bucket: drop them now and then.
    const housekeeping = setInterval(() => {
      app.knex
        .raw('DELETE FROM rate_limit_buckets WHERE tat_ms < (extract(epoch from clock_timestamp()) * 1000)::bigint')
        .catch((err: unknown) => app.log.warn({ err }, 'rate-limit housekeeping failed'));
    }, HOUSEKEEPING_MS);
    housekeeping.unref();
    const localPrune = setInterval(() => local.prune(), 60_000);
    localPrune.unref();
    app.addHook('onClose', async () => clearInterval(localPrune));
    app.addHook('onClose', async () => clearInterval(housekeeping));
  },
  { name: 'rate-limit', dependencies: ['knex', 'auth'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    takeRateLimit: (request: FastifyRequest, rateClass: RateClass) => Promise<RateDecision>;
    peekRateLimit: (request: FastifyRequest, rateClass: RateClass) => Promise<RateDecision>;
  }
  interface FastifyRequest {
    /** Set by the idempotency plugin on a replay: a replay consumes no quota. */
    skipRateLimit?: boolean;
  }
}
