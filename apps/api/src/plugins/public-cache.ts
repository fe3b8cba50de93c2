import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The in-process cache of public discovery answers. Public routes have no caller to rate-limit and
 * are the hottest reads, so each API process answers a repeated question (keyed on the
 * *normalised* query: same filters in another order or spelling hit the same entry) from memory.
 * Answers are kept as the serialised body (a Buffer sent as it is: a hit costs no serialisation).
 * Concurrent misses of one key share one load (single flight). Bounded by bytes: least recently
 * used entries go first beyond `maxBytes`. TTL 0 turns it off.
 *
 * Invalidation (docs/decisions/0205-discovery-cache-data-version.md): with `version`, every entry
 * carries the data version read before it was built, and an entry is served only while the version
 * read for this request is the same. The version is a counter bumped in the transaction of every
 * write that changes a discovery answer, whichever process makes it, so a read that starts after a
 * write has committed never gets an answer from before it. Version reads are shared: one query at a
 * time, and a request waits for the first read that starts after it arrived (strict, yet one
 * round trip serves every request that arrived meanwhile). With `versionMaxStaleMs` > 0
 * (PUBLIC_CACHE_VERSION_STALE_MS, default 50 ms) a version read that started at most that long
 * before the request is used without waiting: a write made elsewhere is seen within that bound
 * (through this process: at once), and a hit asks PostgreSQL nothing most of the time.
 *
 * An answer wholly described by the data version (`complete`: jobs search) lives until the version
 * moves (at most VERSIONED_MAX_AGE_MS, a safety net); an answer with live counters the version
 * does not follow (an event's candidates_joined, matches_made) lives at most `ttlMs`.
 * Writes through this process also clear() it (no version read needed to see one's own write).
 */
export interface PublicCache {
  get(
    key: string,
    load: () => Promise<Buffer>,
    opts?: { complete?: boolean },
  ): Promise<{ value: Buffer; hit: boolean }>;
  clear(): void;
  readonly size: number;
  readonly bytes: number;
}

/** Longest life of an answer the data version wholly describes. */
export const VERSIONED_MAX_AGE_MS = 10 * 60_000;

/**
 * Coalesced reads of a value that changes on commit: at most one `read` in flight; a caller that
 * arrives while one is in flight waits for the next, which starts after it (so what it gets was
 * read after it asked).
 */
export function coalescedReader<T>(
  read: () => Promise<T>,
  opts: { maxStaleMs?: number; now?: () => number } = {},
): () => Promise<T> {
  const maxStale = opts.maxStaleMs ?? 0;
  const now = opts.now ?? Date.now;
  let inFlight: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  /** The latest completed read and when it started. */
  let last: { value: T; startedAt: number } | null = null;
  const start = (): Promise<T> => {
    const startedAt = now();
    const p: Promise<T> = read()
      .then((value) => {
        if (!last || startedAt >= last.startedAt) last = { value, startedAt };
        return value;
      })
      .finally(() => {
        if (inFlight === p) inFlight = null;
      });
    inFlight = p;
    return p;
  };
  return () => {
    // Bounded staleness (maxStaleMs > 0): a read that started at most maxStaleMs before this call will do.
    if (maxStale > 0 && last && now() - last.startedAt <= maxStale) return Promise.resolve(last.value);
    if (!inFlight) return start();
    if (!queued) {
      queued = inFlight
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => {
          queued = null;
          return start();
        });
    }
    return queued;
  };
}

interface Entry {
  value: Buffer;
  version: string | null;
  expiresAt: number;
}

export function createPublicCache(opts: {
  ttlMs: number;
  maxBytes?: number;
  version?: () => Promise<string>;
  versionMaxStaleMs?: number;
  now?: () => number;
}): PublicCache {
  const maxBytes = opts.maxBytes ?? 16 * 2 ** 20;
  const now = opts.now ?? Date.now;
  const readVersion = opts.version ? coalescedReader(opts.version, { maxStaleMs: opts.versionMaxStaleMs, now }) : null;
  const entries = new Map<string, Entry>();
  const inflight = new Map<string, Promise<Buffer>>();
  let generation = 0;
  let bytes = 0;
  const drop = (key: string, e: Entry) => {
    entries.delete(key);
    bytes -= e.value.length;
  };

  return {
    async get(key, load, o) {
      if (opts.ttlMs <= 0) return { value: await load(), hit: false };
      const version = readVersion ? await readVersion() : null;
      const t = now();
      const e = entries.get(key);
      if (e && e.version === version && e.expiresAt > t) {
        // Refresh recency: Map iteration order is insertion order.
        entries.delete(key);
        entries.set(key, e);
        return { value: e.value, hit: true };
      }
      if (e) drop(key, e);
      const flightKey = `${version}\u0000${key}`;
      const pending = inflight.get(flightKey);
      if (pending) return { value: await pending, hit: true };
      const gen = generation;
      const life = o?.complete && readVersion ? Math.max(opts.ttlMs, VERSIONED_MAX_AGE_MS) : opts.ttlMs;
      const p = load().then((value) => {
        // A clear() while loading means the answer may predate a write: do not keep it.
        if (gen === generation && value.length <= maxBytes) {
          const old = entries.get(key);
          if (old) drop(key, old);
          entries.set(key, { value, version, expiresAt: t + life });
          bytes += value.length;
          for (const [k, x] of entries) {
            if (bytes <= maxBytes) break;
            drop(k, x);
          }
        }
        return value;
      });
      inflight.set(flightKey, p);
      try {
        return { value: await p, hit: false };
      } finally {
        inflight.delete(flightKey);
      }
    },
    clear() {
      generation++;
      entries.clear();
      inflight.clear();
      bytes = 0;
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

/** Edge cache lifetimes of the spec: live-now about 15 s, jobs search about 30 s. */
export const EDGE_CACHE_SECONDS = { liveNow: 15, jobsSearch: 30, eventDetail: 15, eventList: 15 } as const;

export function setPublicCacheHeaders(reply: FastifyReply, maxAgeSeconds: number, hit: boolean): void {
  reply.header('cache-control', `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${maxAgeSeconds}`);
  reply.header('x-cache', hit ? 'hit' : 'miss');
}
