/**
 * Verified bearer tokens, remembered in process for a short while (decision 0211): the token row,
 * its owner's role and team are read once and reused, so an authenticated request costs no token
 * lookup. What keeps it correct:
 *
 * - Keyed by the token's SHA-256 (never the token). Expiry is checked on every hit.
 * - Every change that could refuse or narrow a cached caller — a token revoked, its expiry or scopes
 *   changed, the token or user deleted, a role or team membership changed — is announced by a
 *   PostgreSQL trigger (`NOTIFY jobfair_auth_changed`, migration 20261123001801) and evicts the
 *   entries it concerns in every API replica; a revocation through this process evicts at once.
 * - A lookup that started before an eviction is not stored (the epoch), so an answer read just
 *   before a revocation cannot be cached after it.
 * - While the notification listener is not connected the cache is bypassed: every request reads
 *   the database, as without a cache.
 * - No entry is older than `ttlMs` (AUTH_CACHE_TTL_MS), the bound if a change reaches the database
 *   some way no trigger sees.
 */
export interface CachedCaller {
  tokenId: string;
  tokenName: string;
  userId: string;
  role: string;
  teamId: string | null;
  scopes: ReadonlySet<string>;
  /** Epoch ms, or null for a token without expiry. */
  expiresAtMs: number | null;
  /** When this process last knew last_used_at to be written (epoch ms; 0 = never). */
  lastUsedMs: number;
  /** An OAuth access token's resource (`/api/v1` or `/mcp`); null for a personal token (any resource). */
  resource?: string | null;
}

interface Entry {
  caller: CachedCaller;
  storedAt: number;
}

export interface VerifiedTokenCache {
  /** The cached caller of a token hash, or undefined (missing, too old, or the cache is off). */
  get(tokenHash: string, nowMs?: number): CachedCaller | undefined;
  /** The epoch to hand back to `set`: read it before the database lookup. */
  epoch(): number;
  /** Stores unless something was evicted since `epoch` was read, or the cache is off. */
  set(tokenHash: string, caller: CachedCaller, epoch: number, nowMs?: number): void;
  /** A notification payload: `t:<token hash>`, `k:<token id>`, `u:<user id>`, anything else clears all. */
  evict(payload: string): void;
  evictTokenId(tokenId: string): void;
  clear(): void;
  /** Listener state: off → every entry dropped and nothing cached until it is on again. */
  setActive(active: boolean): void;
  readonly active: boolean;
  size(): number;
}

export function createVerifiedTokenCache(opts: { ttlMs: number; maxEntries?: number }): VerifiedTokenCache {
  const maxEntries = opts.maxEntries ?? 10_000;
  const entries = new Map<string, Entry>();
  let epoch = 0;
  let active = false;
  const enabled = () => active && opts.ttlMs > 0;
  const dropWhere = (match: (hash: string, e: Entry) => boolean) => {
    epoch++;
    for (const [hash, e] of entries) if (match(hash, e)) entries.delete(hash);
  };
  return {
    get(tokenHash, nowMs = Date.now()) {
      if (!enabled()) return undefined;
      const e = entries.get(tokenHash);
      if (!e) return undefined;
      if (nowMs - e.storedAt >= opts.ttlMs) {
        entries.delete(tokenHash);
        return undefined;
      }
      return e.caller;
    },
    epoch: () => epoch,
    set(tokenHash, caller, seenEpoch, nowMs = Date.now()) {
      if (!enabled() || seenEpoch !== epoch) return;
      if (entries.size >= maxEntries && !entries.has(tokenHash)) {
        // Oldest first (Map keeps insertion order): drop a tenth, so a burst of new tokens does not
        // pay a sweep each.
        let n = Math.ceil(maxEntries / 10);
        for (const k of entries.keys()) {
          entries.delete(k);
          if (--n <= 0) break;
        }
      }
      entries.set(tokenHash, { caller, storedAt: nowMs });
    },
    evict(payload) {
      if (payload.startsWith('t:')) {
        const hash = payload.slice(2);
        dropWhere((h) => h === hash);
      } else if (payload.startsWith('k:')) {
        // An OAuth grant (its callers are keyed by their access token, unknown to the grant row).
        const tokenId = payload.slice(2);
        dropWhere((_, e) => e.caller.tokenId === tokenId);
      } else if (payload.startsWith('u:')) {
        const userId = payload.slice(2);
        dropWhere((_, e) => e.caller.userId === userId);
      } else {
        dropWhere(() => true);
      }
    },
    evictTokenId(tokenId) {
      dropWhere((_, e) => e.caller.tokenId === tokenId);
    },
    clear() {
      dropWhere(() => true);
    },
    setActive(on) {
      dropWhere(() => true);
      active = on;
    },
    get active() {
      return active;
    },
    size: () => entries.size,
  };
}
