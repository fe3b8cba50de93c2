import type { Knex } from 'knex';
import type { UserRole } from './accounts-repository';

export interface TokenRow {
  id: string;
  user_id: string;
  name: string;
  display_prefix: string;
  token_hash: string;
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  /** Set on an OAuth grant (decision 0260); null on a personal access token. */
  oauth_client_id?: string | null;
  oauth_client_name?: string | null;
  oauth_client_origin?: string | null;
  oauth_resource?: string | null;
}

export function createTokensRepository(knex: Knex) {
  return {
    async insert(
      input: Pick<TokenRow, 'user_id' | 'name' | 'display_prefix' | 'token_hash' | 'scopes' | 'expires_at'>,
      trx: Knex = knex,
    ): Promise<TokenRow> {
      const [row] = await trx('api_tokens').insert(input).returning('*');
      return row;
    },
    /** The token with its owner's role (null when the user is gone), in one round trip: the bearer check of every authenticated request. */
    async findByHashWithRole(
      tokenHash: string,
      trx: Knex = knex,
    ): Promise<(TokenRow & { user_role: UserRole | null }) | undefined> {
      return trx('api_tokens as t')
        .leftJoin('users as u', 'u.id', 't.user_id')
        .where('t.token_hash', tokenHash)
        .first('t.*', 'u.role as user_role');
    },
    async findByHash(tokenHash: string, trx: Knex = knex): Promise<TokenRow | undefined> {
      return trx('api_tokens').where({ token_hash: tokenHash }).first();
    },
    /** Personal access tokens only (OAuth grants are listed by listGrantsForUser). */
    async listForUser(userId: string, trx: Knex = knex): Promise<TokenRow[]> {
      return trx('api_tokens').where({ user_id: userId }).whereNull('oauth_client_id').orderBy('created_at', 'desc');
    },
    /** The person's OAuth grants ("Connected apps"), newest first. */
    async listGrantsForUser(userId: string, trx: Knex = knex): Promise<TokenRow[]> {
      return trx('api_tokens').where({ user_id: userId }).whereNotNull('oauth_client_id').orderBy('created_at', 'desc');
    },
    async revoke(userId: string, tokenId: string, trx: Knex = knex): Promise<boolean> {
      const n = await trx('api_tokens')
        .where({ id: tokenId, user_id: userId })
        .whereNull('revoked_at')
        .update({ revoked_at: trx.fn.now() });
      return n > 0;
    },
    /** Throttled: writes only when the stored value is older than the throttle window. */
    async touchLastUsed(tokenId: string, throttleMs: number, trx: Knex = knex): Promise<void> {
      await trx('api_tokens')
        .where({ id: tokenId })
        .andWhere((q) =>
          q.whereNull('last_used_at').orWhereRaw("last_used_at < now() - (? * interval '1 millisecond')", [throttleMs]),
        )
        .update({ last_used_at: trx.fn.now() });
    },
  };
}
export type TokensRepository = ReturnType<typeof createTokensRepository>;
