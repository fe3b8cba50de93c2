import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import { AppError } from '#lib/errors';
import { LEASE_DEAD_SQL } from './process-lease';

/** One client's key: claims are per token. */
export interface ClaimAt {
  tokenId: string;
  key: string;
}

/** A stored claim as the claim step reads it (`expired` computed on the database clock). */
export interface ClaimRow {
  request_hash: string;
  state: 'in_progress' | 'completed';
  expired: boolean;
  /** The stored answer, once `completed`. */
  response_status: number;
  response_body: unknown;
  response_headers: Record<string, string> | null;
}

const msFromNow = (knex: Knex, ms: number) => knex.raw("clock_timestamp() + ? * interval '1 millisecond'", [ms]);

/**
 * The SQL of the idempotency claims (`idempotency_keys`): insert a claim, read one, drop one past
 * the window, take over one whose holder is gone. Times are compared on the database clock.
 */
export function createIdempotencyClaims(knex: Knex) {
  return {
    /** `INSERT … ON CONFLICT DO NOTHING`: true when this request now holds the key. */
    insert: async (
      at: ClaimAt,
      o: { request: FastifyRequest; hash: string; epoch: number; lockMs: number },
    ): Promise<boolean> => {
      const inserted = await knex('idempotency_keys')
        .insert({
          token_id: at.tokenId,
          key: at.key,
          method: o.request.method,
          route: o.request.routeOptions.url ?? o.request.url,
          request_hash: o.hash,
          state: 'in_progress',
          lease_owner: o.epoch,
          locked_until: msFromNow(knex, o.lockMs),
        })
        .onConflict(['token_id', 'key'])
        .ignore()
        .returning('key');
      return inserted.length === 1;
    },

    find: async (at: ClaimAt, windowMs: number): Promise<ClaimRow | undefined> =>
      knex('idempotency_keys')
        .where({ token_id: at.tokenId, key: at.key })
        .first('*', knex.raw("created_at < clock_timestamp() - ? * interval '1 millisecond' AS expired", [windowMs])),

    /** Compared in SQL: a JS Date would drop the microseconds of created_at and match nothing. */
    deleteExpired: async (at: ClaimAt, windowMs: number): Promise<void> => {
      await knex('idempotency_keys')
        .where({ token_id: at.tokenId, key: at.key })
        .andWhereRaw("created_at < clock_timestamp() - ? * interval '1 millisecond'", [windowMs])
        .delete();
    },

    /** Takes an in-progress claim whose lock ran out or whose process's lease is gone: true when taken. */
    takeOver: async (at: ClaimAt, epoch: number, lockMs: number): Promise<boolean> => {
      const took = await knex('idempotency_keys')
        .where({ token_id: at.tokenId, key: at.key, state: 'in_progress' })
        .andWhereRaw(`(locked_until < clock_timestamp() OR ${LEASE_DEAD_SQL('lease_owner')})`)
        .update({ lease_owner: epoch, locked_until: msFromNow(knex, lockMs) });
      return took === 1;
    },
  };
}

export const keyReused = (key: string) =>
  new AppError(422, 'IDEMPOTENCY_KEY_REUSED', `Idempotency-Key ${key} was already used with a different request`, {
    idempotency_key: key,
  });

export const keyInUse = (key: string, message: string) =>
  new AppError(409, 'IDEMPOTENCY_KEY_IN_USE', message, { idempotency_key: key }, { 'retry-after': '1' });
