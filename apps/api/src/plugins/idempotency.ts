import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DependencyUnavailableError, ValidationError } from '#lib/errors';
import { seal, unseal } from '#lib/sealed';
import { operationKey, type OperationKey } from '#lib/operation-ids';
import { IDEMPOTENCY_WINDOW_MS } from '#lib/config';
import { ProcessLease } from './process-lease';
import { createIdempotencyClaims, keyInUse, keyReused } from './idempotency-claims';

const SEAL_PURPOSE = 'idempotent-answer';

/**
 * Upper bound of an in-progress claim held by a *live* process (a hung request). A claim of a dead
 * process, or one PostgreSQL lost, is free at once (its lease epoch is gone, decision 0161).
 */
const LOCK_MS = 60_000;
/** How long a claim waits for this process's lease session after a database outage before answering 503. */
const LEASE_WAIT_MS = 2_000;
/** A release that failed (database down) is retried this often until it succeeds. */
const RELEASE_RETRY_MS = 500;
/** Either case, spelled out (no /i flag) so the OpenAPI document can publish the same pattern. */
export const UUID_V4 = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;
const REPLAYED_HEADERS = ['content-type', 'location', 'deprecation', 'sunset', 'link'];

interface Claim {
  tokenId: string;
  key: string;
  done: boolean;
  /** An automatic cost bucket (not a client key): only successes are kept, so a refusal such as
   * 409 MATCH_NOT_ACCEPTED is not replayed after the state has changed. */
  automatic?: boolean;
}

interface StoredAnswer {
  response_status: number;
  response_body: unknown;
  response_headers: Record<string, string> | null;
  /** The body to send, decoded (and unsealed for `sensitiveResponse` routes) when the claim found it. */
  replayBody?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
    /**
     * Set when the caller sent an Idempotency-Key and this request holds it: routes that create
     * rows derive their ids from it (lib/operation-ids.ts), so a retry after a crash finds the row.
     */
    operationKey: OperationKey | null;
    /** A stored answer to send instead of running the handler (set in preValidation, sent in preHandler). */
    idempotentReplay?: StoredAnswer;
  }
}

/** Key order does not matter; arrays keep their order. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** Fingerprint of "the same request": method, route, path parameters, query and the parsed body. */
export function requestFingerprint(
  request: Pick<FastifyRequest, 'method' | 'params' | 'query' | 'body'> & { routeOptions: { url?: string } },
): string {
  return createHash('sha256')
    .update(
      JSON.stringify(
        canonical({
          m: request.method,
          r: request.routeOptions.url,
          p: request.params ?? null,
          q: request.query ?? null,
          b: request.body ?? null,
        }),
      ),
    )
    .digest('hex');
}

/**
 * Idempotency for every mutating route (`Idempotency-Key`, UUID v4, optional) and automatic
 * buckets for cost-bearing routes (`config.costBucketMs`: token + resource + interval).
 *
 * - Same key, same token, within 24 h: the stored status and body are replayed with
 *   `Idempotent-Replayed: true` and the handler does not run. A replay consumes no rate-limit quota.
 * - Same key, different request (route, path, query or body) → 422 IDEMPOTENCY_KEY_REUSED.
 * - Same key while the first request is still running → 409 IDEMPOTENCY_KEY_IN_USE.
 * - Not stored (the key is released): validation failures (400 VALIDATION), auth failures
 *   (401, 403 INSUFFICIENT_SCOPE — never claimed), 429, and every 5xx.
 * - Concurrency: the claim is one `INSERT … ON CONFLICT DO NOTHING` on (token, key); of two
 *   simultaneous requests exactly one inserts, the other sees the row (409 or replay).
 *
 * The claim happens in `preValidation`, before the rate limiter (hook order = registration order)
 * and after the body is parsed, so the fingerprint includes the body. Times are compared on the
 * database clock.
 */
export default fp(
  async (app) => {
    app.decorateRequest('idempotencyClaim', null);
    app.decorateRequest('operationKey', null);
    const lease = ProcessLease.fromKnex(app.knex, app.log);
    lease.start();
    app.addHook('onClose', async () => lease.close());
    const leaseEpoch = async (): Promise<number> => {
      const epoch = await lease.ready(LEASE_WAIT_MS);
      if (epoch === null) throw new DependencyUnavailableError('postgres', 1);
      return epoch;
    };

    const claims = createIdempotencyClaims(app.knex);
    const holds = (request: FastifyRequest, tokenId: string, key: string): null => {
      request.idempotencyClaim = { tokenId, key, done: false };
      return null;
    };

    /** Returns the stored answer to replay, or null when this request now holds the key. */
    const claim = async (request: FastifyRequest, key: string, hash: string): Promise<StoredAnswer | null> => {
      const tokenId = request.auth!.tokenId;
      const epoch = await leaseEpoch();
      const at = { tokenId, key };
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await claims.insert(at, { request, hash, epoch, lockMs: LOCK_MS })) return holds(request, tokenId, key);
        const row = await claims.find(at, IDEMPOTENCY_WINDOW_MS);
        if (!row) continue; // released between our insert and read: try again
        if (row.expired) {
          await claims.deleteExpired(at, IDEMPOTENCY_WINDOW_MS);
          continue;
        }
        if (row.request_hash !== hash) throw keyReused(key);
        if (row.state !== 'in_progress') return row as StoredAnswer;
        // A claim whose process died (or whose database session was lost) is taken over at once;
        // one held by a live process only after LOCK_MS. Routes that create rows derive their ids
        // from the key, so the rerun finds what the dead request wrote (decision 0160).
        if (await claims.takeOver(at, epoch, LOCK_MS)) return holds(request, tokenId, key);
        throw keyInUse(key, `A request with Idempotency-Key ${key} is still being processed; retry shortly`);
      }
      throw keyInUse(key, `Idempotency-Key ${key} is contended; retry shortly`);
    };

    // A release that fails (the database is down) is retried until it succeeds, so the key is not
    // left blocked; if this process dies first, the lost lease frees the key anyway.
    const pendingReleases = new Map<string, Claim>();
    const releaseNow = (c: Claim) =>
      app.knex('idempotency_keys').where({ token_id: c.tokenId, key: c.key, state: 'in_progress' }).delete();
    const release = async (c: Claim) => {
      try {
        await releaseNow(c);
      } catch (err) {
        app.log.warn({ err, key: c.key }, 'idempotency key release failed; retrying in the background');
        pendingReleases.set(`${c.tokenId}:${c.key}`, c);
      }
    };
    const retryReleases = setInterval(() => {
      for (const [id, c] of pendingReleases) {
        releaseNow(c).then(
          () => pendingReleases.delete(id),
          () => undefined,
        );
      }
    }, RELEASE_RETRY_MS);
    retryReleases.unref();
    app.addHook('onClose', async () => clearInterval(retryReleases));

    /**
     * Claims the key, or returns the stored answer ready to send. A sealed answer that cannot be
     * opened any more (APP_SECRET changed) counts as absent: it is dropped and the request runs.
     */
    const claimOrReplay = async (request: FastifyRequest, key: string, hash: string): Promise<StoredAnswer | null> => {
      const row = await claim(request, key, hash);
      if (!row) return null;
      const stored = row.response_body as { sealed?: string } | null;
      if (!request.routeOptions.config?.sensitiveResponse)
        return { ...row, replayBody: JSON.stringify(row.response_body) };
      try {
        return { ...row, replayBody: unseal(String(stored?.sealed), app.appSecret, SEAL_PURPOSE) };
      } catch (err) {
        request.log.warn({ err, key }, 'stored idempotent answer cannot be unsealed; running the request again');
        await app.knex('idempotency_keys').where({ token_id: request.auth!.tokenId, key, state: 'completed' }).delete();
        return claim(request, key, hash);
      }
    };

    app.addHook('preValidation', async (request) => {
      const cfg = request.routeOptions.config ?? {};
      // Auth failures are never stored: no claim without a caller, or for a caller lacking the scope.
      if (!request.auth || !cfg.scope || !request.auth.scopes.has(cfg.scope)) return;
      const header = request.headers['idempotency-key'];
      const mutating = ['POST', 'PATCH', 'PUT', 'DELETE'].includes(request.method);
      if (header !== undefined && (cfg.idempotent ?? mutating)) {
        if (typeof header !== 'string' || !UUID_V4.test(header)) {
          throw new ValidationError('Idempotency-Key must be a UUID v4', [
            {
              path: 'headers.idempotency-key',
              message: 'must be a UUID v4, e.g. 5f0c6a4e-8d1b-4c3e-9a7f-2b6d1e0c9f84',
            },
          ]);
        }
        const row = await claimOrReplay(request, header.toLowerCase(), requestFingerprint(request));
        if (row) {
          request.idempotentReplay = row;
          request.skipRateLimit = true;
        } else {
          request.operationKey = operationKey(request.auth.tokenId, header);
        }
        return;
      }
      if (cfg.costBucketMs) {
        // Automatic bucket: the same token asking for the same resource within one interval gets the first answer.
        const hash = requestFingerprint(request);
        const row = await claimOrReplay(
          request,
          `auto:${Math.floor(Date.now() / cfg.costBucketMs)}:${hash.slice(0, 32)}`,
          hash,
        );
        if (row) {
          request.idempotentReplay = row;
          request.skipRateLimit = true;
        } else if (request.idempotencyClaim) {
          request.idempotencyClaim.automatic = true;
        }
      }
    });

    app.addHook('preHandler', async (request, reply: FastifyReply) => {
      const row = request.idempotentReplay;
      if (!row) return;
      request.idempotentReplay = undefined;
      reply.code(row.response_status);
      for (const [k, v] of Object.entries(row.response_headers ?? {})) reply.header(k, v);
      reply.header('idempotent-replayed', 'true');
      reply.header('content-type', 'application/json; charset=utf-8');
      return reply.send(row.replayBody ?? JSON.stringify(row.response_body));
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const c = request.idempotencyClaim;
      if (!c || c.done) return payload;
      c.done = true;
      const status = reply.statusCode;
      let body: unknown = payload;
      try {
        body = typeof payload === 'string' ? JSON.parse(payload) : payload;
      } catch {
        /* stored as the raw string */
      }
      const code = (body as { code?: string } | null)?.code;
      const notStored =
        status >= 500 ||
        status === 401 ||
        status === 429 ||
        (status === 400 && code === 'VALIDATION') ||
        (status === 403 && code === 'INSUFFICIENT_SCOPE') ||
        (c.automatic && status >= 300);
      if (notStored) {
        await release(c);
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const h of REPLAYED_HEADERS) {
        const v = reply.getHeader(h);
        if (typeof v === 'string') headers[h] = v;
      }
      const stored = app
        .knex('idempotency_keys')
        .where({ token_id: c.tokenId, key: c.key })
        .update({
          state: 'completed',
          response_status: status,
          // A one-time secret in the answer is kept sealed for the replay window, never in plain text.
          response_body: request.routeOptions.config?.sensitiveResponse
            ? JSON.stringify({ sealed: seal(JSON.stringify(body ?? null), app.appSecret, SEAL_PURPOSE) })
            : JSON.stringify(body ?? null),
          response_headers: headers,
          locked_until: null,
        });
      try {
        await stored;
      } catch (err) {
        // The effect happened and the caller gets its answer; the key is released (retried until the
        // database answers) so a keyed retry reruns and finds the rows derived from the key.
        request.log.warn({ err, key: c.key }, 'idempotent answer not stored; releasing the key');
        await release(c);
      }
      return payload;
    });

    // A request that ended without reaching onSend (client gone) releases its key.
    app.addHook('onResponse', async (request) => {
      const c = request.idempotencyClaim;
      if (c && !c.done) await release(c);
    });

    // Keys older than the window are dead weight; the claim ignores them, and the retention workflow
    // deletes them in small batches (IDEMPOTENCY_KEY_RETENTION_MS, docs/design/retention.md).
  },
  { name: 'idempotency', dependencies: ['knex', 'auth'] },
);
