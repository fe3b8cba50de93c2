import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimitedError } from '#lib/errors';
import type { Config } from '#lib/config';
import type { RateClass } from './route-config';

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
  return {
    allowed,
    limit,
    remaining,
    resetUnix: Math.ceil(tat / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
  };
}

interface LeaseBackend {
  maxCells: number;
  ttlMs: number;
  /** `rate_limit_lease`: gives `giveBack` unused cells back, then takes up to `maxCells` (0 granted = refused). */
  lease: (
    bucket: string,
    intervalMs: number,
    horizonMs: number,
    maxCells: number,
    giveBack: number,
  ) => Promise<{ granted: number; tatMs: number; nowMs: number }>;
  /** `rate_limit_return`: unused cells of expired leases, many buckets in one statement. */
  giveBack: (items: Array<{ bucket: string; cells: number; intervalMs: number }>) => Promise<void>;
  onError: (err: unknown) => void;
  now?: () => number;
}

interface Lease {
  limit: number;
  /** Cells taken from the shared bucket and not yet served. */
  cells: number;
  /** The bucket's TAT right after the grant (every leased cell counted as used). */
  tatMs: number;
  /** Database clock minus this process's clock, from the grant's answer. */
  clockOffsetMs: number;
  /** Local time after which the unused cells are given back instead of served. */
  expiresAt: number;
  /** The statement in flight for this bucket; concurrent requests wait for it instead of sending their own. */
  inflight: Promise<RateDecision | null> | null;
}

/**
 * Budget leases (decision 0230): a process takes several cells of a shared GCRA bucket in one
 * statement and serves the next requests of that token and class from them, without a round
 * trip, for at most `ttlMs`; then (or at shutdown) the unused cells go back to the bucket.
 * Across replicas the budget is never exceeded (every served cell was granted by the row-locked
 * statement); a request can be refused while another replica holds unused cells, for at most
 * `ttlMs` (plus one sweep); a crash keeps its lease's cells taken (strict).
 *
 * Headers from a lease are those a single process would see: the grant's TAT less the cells this
 * process still holds, at the database time estimated from the grant's clock offset.
 */
export function createLeases(backend: LeaseBackend) {
  const now = backend.now ?? Date.now;
  const leases = new Map<string, Lease>();
  let closed = false;

  const serve = (l: Lease): RateDecision => {
    l.cells -= 1;
    const { intervalMs } = gcraParams(l.limit);
    return decide(l.limit, true, l.tatMs - l.cells * intervalMs, now() + l.clockOffsetMs);
  };

  const acquire = async (bucket: string, l: Lease): Promise<RateDecision | null> => {
    // An expired lease's unused cells go back in the same statement that takes the next ones.
    const giveBack = l.cells;
    l.cells = 0;
    const { intervalMs, horizonMs } = gcraParams(l.limit);
    const sent = now();
    const r = await backend.lease(bucket, intervalMs, horizonMs, backend.maxCells, giveBack);
    const received = now();
    l.clockOffsetMs = r.nowMs - received;
    if (r.granted < 1) return decide(l.limit, false, r.tatMs, r.nowMs);
    l.cells = r.granted;
    l.tatMs = r.tatMs;
    // The lease's life counts from when the statement was sent: never longer than ttlMs after the grant.
    l.expiresAt = sent + backend.ttlMs;
    return null;
  };

  const sweep = async (all: boolean): Promise<void> => {
    const t = now();
    const items: Array<{ bucket: string; cells: number; intervalMs: number }> = [];
    for (const [bucket, l] of leases) {
      if (l.inflight || (!all && t < l.expiresAt)) continue;
      if (l.cells > 0) items.push({ bucket, cells: l.cells, intervalMs: gcraParams(l.limit).intervalMs });
      l.cells = 0;
      leases.delete(bucket);
    }
    if (items.length === 0) return;
    try {
      await backend.giveBack(items);
    } catch (err) {
      backend.onError(err); // those cells stay taken until the bucket refills: strict, never generous
    }
  };
  const sweeper = setInterval(() => void sweep(false), Math.max(10, Math.floor(backend.ttlMs / 2)));
  sweeper.unref();

  return {
    /** Leases are worth their unfairness only when a grant can hold more than one cell. */
    enabled: (limit: number) => !closed && backend.maxCells > 1 && limit >= 8,
    async take(bucket: string, limit: number): Promise<RateDecision> {
      for (;;) {
        let l = leases.get(bucket);
        if (!l || l.limit !== limit) {
          l = { limit, cells: 0, tatMs: 0, clockOffsetMs: 0, expiresAt: 0, inflight: null };
          leases.set(bucket, l);
        }
        if (l.cells > 0 && !l.inflight && now() < l.expiresAt) return serve(l);
        const lease = l;
        // Wait for the statement in flight, or send one; a fresh grant serves its waiters even if
        // the statement took longer than the TTL (so an overloaded process still makes progress).
        lease.inflight ??= acquire(bucket, lease).finally(() => {
          lease.inflight = null;
        });
        const refused = await lease.inflight;
        if (refused) return refused;
        if (lease.cells > 0) return serve(lease);
      }
    },
    /** Cells this process holds for the bucket (for a peek's headers). */
    unused(bucket: string): number {
      const l = leases.get(bucket);
      return l && now() < l.expiresAt ? l.cells : 0;
    },
    /** Gives every unused cell back and stops leasing (requests after this take one cell each). */
    async close(): Promise<void> {
      closed = true;
      clearInterval(sweeper);
      await Promise.allSettled([...leases.values()].flatMap((l) => (l.inflight ? [l.inflight] : [])));
      await sweep(true);
    },
    size: () => leases.size,
  };
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

    /** One statement per request: the limit is too small to lease, or leases are off (RATE_LIMIT_LEASE_MAX_CELLS=1). */
    const takeOne = async (bucket: string, limit: number): Promise<RateDecision> => {
      const { intervalMs, horizonMs } = gcraParams(limit);
      // The take commits asynchronously (`set_config(…, true)` is SET LOCAL for this statement's
      // transaction): no WAL flush waited for on every authenticated request. A PostgreSQL crash
      // may forget the last ~0.6 s of takes, i.e. give those callers their quota back once — the
      // budget errs generous, never stricter (decision 0188).
      const { rows } = await app.knex.raw<{ rows: Array<{ allowed: boolean; tat_ms: string; now_ms: string }> }>(
        "SELECT r.*, set_config('synchronous_commit', 'off', true) AS sc FROM rate_limit_take(?, ?, ?) r",
        [bucket, intervalMs, horizonMs],
      );
      return decide(limit, rows[0].allowed, Number(rows[0].tat_ms), Number(rows[0].now_ms));
    };

    const leases = createLeases({
      maxCells: opts.config.RATE_LIMIT_LEASE_MAX_CELLS,
      ttlMs: opts.config.RATE_LIMIT_LEASE_TTL_MS,
      lease: async (bucket, intervalMs, horizonMs, maxCells, giveBack) => {
        // Asynchronous commit as takeOne (0188).
        const { rows } = await app.knex.raw<{ rows: Array<{ granted: string; tat_ms: string; now_ms: string }> }>(
          "SELECT r.*, set_config('synchronous_commit', 'off', true) AS sc FROM rate_limit_lease(?, ?, ?, ?, ?) r",
          [bucket, intervalMs, horizonMs, maxCells, giveBack],
        );
        return { granted: Number(rows[0].granted), tatMs: Number(rows[0].tat_ms), nowMs: Number(rows[0].now_ms) };
      },
      giveBack: async (items) => {
        await app.knex.raw('SELECT rate_limit_return(?::text[], ?::bigint[], ?::bigint[])', [
          items.map((i) => i.bucket),
          items.map((i) => i.cells),
          items.map((i) => i.intervalMs),
        ]);
      },
      onError: (err) => app.log.warn({ err }, 'could not give leased rate-limit cells back'),
    });

    const take = async (request: FastifyRequest, rateClass: RateClass): Promise<RateDecision> => {
      const limit = limitFor(opts.config, rateClass);
      const bucket = bucketOf(request, rateClass);
      return leases.enabled(limit) ? leases.take(bucket, limit) : takeOne(bucket, limit);
    };

    /** Headers without consuming: for answers that cost no quota (a replay) or failed before the limiter ran. */
    const peek = async (request: FastifyRequest, rateClass: RateClass): Promise<RateDecision> => {
      const limit = limitFor(opts.config, rateClass);
      const bucket = bucketOf(request, rateClass);
      const { rows } = await app.knex.raw<{ rows: Array<{ tat_ms: string | null; now_ms: string }> }>(
        'SELECT (SELECT tat_ms FROM rate_limit_buckets WHERE bucket = ?) AS tat_ms, (extract(epoch ' +
          'from clock_timestamp()) * 1000)::bigint AS now_ms',
        [bucket],
      );
      const now = Number(rows[0].now_ms);
      // This process's own unused leased cells are still the caller's.
      const tat = Number(rows[0].tat_ms ?? now) - leases.unused(bucket) * gcraParams(limit).intervalMs;
      return decide(limit, true, tat, now);
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
    // Unused leased cells go back when the process stops (a crash keeps them taken: errs strict).
    app.addHook('preClose', async () => leases.close());
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
