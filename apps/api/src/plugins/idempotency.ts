import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ValidationError } from '../../../../lib/errors';

const WINDOW_MS = 24 * 60 * 60 * 1000;
const LOCK_MS = 60_000;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const REPLAYED_HEADERS = ['content-type', 'location', 'deprecation', 'sunset'];

interface Claim {
  tokenId: string;
  key: string;
  done: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
  }
}

function requestHash(request: FastifyRequest, includeBody: boolean): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  return createHash('sha256')
    .update(JSON.stringify(canonical({ m: request.method, r: request.routeOptions.url, p: request.params, b: includeBody ? (request.body ?? null) : null })))
    .digest('hex');
}

/**
 * Idempotency-Key (UUID v4) on every mutating route: the same key from the same token within
 * 24 h replays the stored status and body (`Idempotent-Replayed: true`) without the side effect;
 * a different body → 422 IDEMPOTENCY_KEY_REUSED; the first still running → 409 IDEMPOTENCY_KEY_IN_USE.
 * Validation failures and 5xx are not stored. Cost-bearing routes are also bucketed automatically
 * by token + resource + interval, checked before the rate limiter so a replay costs no quota.
 * The claim is one INSERT … ON CONFLICT DO NOTHING: of two simultaneous requests exactly one wins.
 */
export default fp(
  async (app) => {
    app.decorateRequest('idempotencyClaim', null);

    const replay = (reply: FastifyReply, row: { response_status: number; response_body: unknown; response_headers: Record<string, string> | null }) => {
      reply.code(row.response_status);
      for (const [k, v] of Object.entries(row.response_headers ?? {})) reply.header(k, v);
      reply.header('idempotent-replayed', 'true');
      reply.header('content-type', 'application/json; charset=utf-8');
      return reply.send(JSON.stringify(row.response_body));
    };

    /** Returns the stored row to replay, or null when this request now holds the key. */
    const claim = async (request: FastifyRequest, key: string, hash: string) => {
      const tokenId = request.auth!.tokenId;
      for (let attempt = 0; attempt < 3; attempt++) {
        const inserted = await app
          .knex('idempotency_keys')
          .insert({ token_id: tokenId, key, method: request.method, route: request.routeOptions.url, request_hash: hash, state: 'in_progress', locked_until: new Date(Date.now() + LOCK_MS) })
          .onConflict(['token_id', 'key'])
          .ignore()
          .returning('key');
        if (inserted.length === 1) {
          request.idempotencyClaim = { tokenId, key, done: false };
          return null;
        }
        const row = await app.knex('idempotency_keys').where({ token_id: tokenId, key }).first();
        if (!row) continue;
        if (row.created_at.getTime() < Date.now() - WINDOW_MS) {
          await app.knex('idempotency_keys').where({ token_id: tokenId, key, created_at: row.created_at }).delete();
          continue;
        }
        if (row.request_hash !== hash) {
          throw new AppError(422, 'IDEMPOTENCY_KEY_REUSED', `Idempotency-Key ${key} was already used with a different request`, { idempotency_key: key });
        }
        if (row.state === 'in_progress') {
          // A request that died mid-way leaves its lock behind; after LOCK_MS the key may be retried.
          const took = await app
            .knex('idempotency_keys')
            .where({ token_id: tokenId, key, state: 'in_progress' })
            .andWhere('locked_until', '<', new Date())
            .update({ locked_until: new Date(Date.now() + LOCK_MS) });
          if (took === 1) {
            request.idempotencyClaim = { tokenId, key, done: false };
            return null;
          }
          throw new AppError(409, 'IDEMPOTENCY_KEY_IN_USE', `A request with Idempotency-Key ${key} is still being processed; retry shortly`, { idempotency_key: key }, { 'retry-after': '1' });
        }
        return row;
      }
      throw new AppError(409, 'IDEMPOTENCY_KEY_IN_USE', `Idempotency-Key ${key} is contended; retry shortly`, { idempotency_key: key }, { 'retry-after': '1' });
    };

    // Cost-bearing routes: automatic bucket, before the rate limiter (hook order = registration order).
    app.addHook('onRequest', async (request, reply) => {
      const bucketMs = request.routeOptions.config?.costBucketMs;
      if (!bucketMs || !request.auth || request.headers['idempotency-key']) return;
      const key = `auto:${Math.floor(Date.now() / bucketMs)}:${requestHash(request, false).slice(0, 32)}`;
      const row = await claim(request, key, requestHash(request, false));
      if (row) {
        request.skipRateLimit = true;
        request.idempotentReplay = row;
      }
    });

    app.addHook('preHandler', async (request, reply) => {
      if (request.idempotentReplay) {
        const row = request.idempotentReplay;
        request.idempotentReplay = undefined;
        return replay(reply, row);
      }
      const header = request.headers['idempotency-key'];
      if (header === undefined || !request.auth) return;
      const cfg = request.routeOptions.config ?? {};
      const mutating = ['POST', 'PATCH', 'PUT', 'DELETE'].includes(request.method);
      if (!(cfg.idempotent ?? mutating)) return;
      if (typeof header !== 'string' || !UUID_V4.test(header)) {
        throw new ValidationError('Idempotency-Key must be a UUID v4', [{ path: 'headers.idempotency-key', message: 'must be a UUID v4' }]);
      }
      const row = await claim(request, header.toLowerCase(), requestHash(request, true));
      if (row) return replay(reply, row);
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
      const isValidation = status === 400 && (body as { code?: string })?.code === 'VALIDATION';
      if (status >= 500 || isValidation || status === 401 || status === 429) {
        await app.knex('idempotency_keys').where({ token_id: c.tokenId, key: c.key }).delete();
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const h of REPLAYED_HEADERS) {
        const v = reply.getHeader(h);
        if (typeof v === 'string') headers[h] = v;
      }
      await app
        .knex('idempotency_keys')
        .where({ token_id: c.tokenId, key: c.key })
        .update({ state: 'completed', response_status: status, response_body: JSON.stringify(body ?? null), response_headers: headers, locked_until: null });
      return payload;
    });

    // A request that ended without reaching onSend (client gone) releases its key.
    app.addHook('onResponse', async (request) => {
      const c = request.idempotencyClaim;
      if (c && !c.done) await app.knex('idempotency_keys').where({ token_id: c.tokenId, key: c.key, state: 'in_progress' }).delete();
    });
  },
  { name: 'idempotency', dependencies: ['knex', 'auth'] },
);

declare module 'fastify' {
  interface FastifyRequest {
    idempotentReplay?: { response_status: number; response_body: unknown; response_headers: Record<string, string> | null };
  }
}
