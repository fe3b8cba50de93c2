import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The in-process short cache of public discovery answers. Public routes have no caller to
 * rate-limit and are the hottest reads, so each API process answers a repeated question (keyed
 * on the *normalised* query: same filters in another order or spelling hit the same entry) from
 * memory for PUBLIC_CACHE_TTL_MS. Concurrent misses of one key share one load (single flight).
 * Bounded: least recently used entries go first beyond `maxEntries`. TTL 0 turns it off.
 *
 * Writes made through this process (an event going live, a job edited) clear it, so a recruiter
 * sees their change at once; other replicas converge within the TTL.
 */
export interface PublicCache {
  get<T>(key: string, load: () => Promise<T>): Promise<{ value: T; hit: boolean }>;
  clear(): void;
  readonly size: number;
}

export function createPublicCache(opts: { ttlMs: number; maxEntries?: number; now?: () => number }): PublicCache {
  const max = opts.maxEntries ?? 1000;
  const now = opts.now ?? Date.now;
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  const inflight = new Map<string, Promise<unknown>>();
  let generation = 0;

  return {
    async get<T>(key: string, load: () => Promise<T>) {
      if (opts.ttlMs <= 0) return { value: await load(), hit: false };
      const e = entries.get(key);
      if (e && e.expiresAt > now()) {
        // Refresh recency: Map iteration order is insertion order.
        entries.delete(key);
        entries.set(key, e);
        return { value: e.value as T, hit: true };
      }
      if (e) entries.delete(key);
      const pending = inflight.get(key);
      if (pending) return { value: (await pending) as T, hit: true };
      const gen = generation;
      const p = load().then(
        (value) => {
          // A clear() while loading means the answer may predate a write: do not keep it.
          if (gen === generation) {
            entries.set(key, { value, expiresAt: now() + opts.ttlMs });
            while (entries.size > max) entries.delete(entries.keys().next().value as string);
          }
          return value;
        },
      );
      inflight.set(key, p);
      try {
        return { value: await p, hit: false };
      } finally {
        inflight.delete(key);
      }
    },
    clear() {
      generation++;
      entries.clear();
      inflight.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

/** Edge cache lifetimes of the spec: live-now about 15 s, jobs search about 30 s. */
export const EDGE_CACHE_SECONDS = { liveNow: 15, jobsSearch: 30, eventDetail: 15, eventList: 15 } as const;

export function setPublicCacheHeaders(reply: FastifyReply, maxAgeSeconds: number, hit: boolean): void {
  reply.header('cache-control', `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${maxAgeSeconds}`);
  reply.header('x-cache', hit ? 'hit' : 'miss');
}
