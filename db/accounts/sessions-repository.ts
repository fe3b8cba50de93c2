import type { Knex } from 'knex';

export interface WebSessionRow {
  id: string;
  user_id: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

/** Browser sessions (`web_sessions`); the id is the SHA-256 of the cookie token. */
export function createSessionsRepository(knex: Knex) {
  return {
    async insert(
      input: Pick<WebSessionRow, 'id' | 'user_id' | 'ip' | 'user_agent' | 'expires_at'>,
      trx: Knex = knex,
    ): Promise<WebSessionRow> {
      const [row] = await trx('web_sessions').insert(input).returning('*');
      return row;
    },
    async findActive(id: string, trx: Knex = knex): Promise<WebSessionRow | undefined> {
      return trx('web_sessions').where({ id }).andWhere('expires_at', '>', trx.fn.now()).first();
    },
    /** Sliding expiry, written at most once per `throttleMs` per session. */
    async touch(id: string, expiresAt: Date, throttleMs: number, trx: Knex = knex): Promise<void> {
      await trx('web_sessions')
        .where({ id })
        .andWhereRaw("last_seen_at < now() - (? * interval '1 millisecond')", [throttleMs])
        .update({ last_seen_at: trx.fn.now(), expires_at: expiresAt });
    },
    async delete(id: string, trx: Knex = knex): Promise<void> {
      await trx('web_sessions').where({ id }).delete();
    },
    async deleteExpired(trx: Knex = knex): Promise<number> {
      return trx('web_sessions').where('expires_at', '<=', trx.fn.now()).delete();
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
