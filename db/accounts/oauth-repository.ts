import type { Knex } from 'knex';
import type { UserRole } from './accounts-repository';
import type { TokenRow } from './tokens-repository';

export interface OAuthClientRow {
  client_id: string;
  client_name: string;
  client_uri: string | null;
  redirect_uris: string[];
  created_at: Date;
}

export interface OAuthCodeRow {
  code_hash: string;
  client_id: string;
  client_name: string;
  client_origin: string;
  user_id: string;
  scopes: string[];
  resource: string;
  redirect_uri: string;
  code_challenge: string;
  expires_at: Date;
  used_at: Date | null;
  replayed_at: Date | null;
  token_id: string | null;
}

export interface OAuthTokenRow {
  token_hash: string;
  token_id: string;
  kind: 'access' | 'refresh';
  expires_at: Date;
  revoked_at: Date | null;
}

/** OAuth clients registered dynamically, codes and issued tokens (hashes only; decision 0260). */
export function createOAuthRepository(knex: Knex) {
  return {
    async insertClient(input: Omit<OAuthClientRow, 'created_at'>, trx: Knex = knex): Promise<OAuthClientRow> {
      const [row] = await trx('oauth_clients').insert(input).returning('*');
      return row;
    },
    async findClient(clientId: string, trx: Knex = knex): Promise<OAuthClientRow | undefined> {
      return trx('oauth_clients').where({ client_id: clientId }).first();
    },
    async insertCode(
      input: Omit<OAuthCodeRow, 'used_at' | 'replayed_at' | 'token_id'>,
      trx: Knex = knex,
    ): Promise<void> {
      await trx('oauth_codes').insert(input);
    },
    async findCode(codeHash: string, trx: Knex = knex): Promise<OAuthCodeRow | undefined> {
      return trx('oauth_codes').where({ code_hash: codeHash }).first();
    },
    /** Single use: true only for the one caller that marks it used. */
    async useCode(codeHash: string, trx: Knex = knex): Promise<boolean> {
      const n = await trx('oauth_codes')
        .where({ code_hash: codeHash })
        .whereNull('used_at')
        .update({ used_at: trx.fn.now() });
      return n > 0;
    },
    /** A used code presented again: noted, and the grant it was exchanged for (if any yet) returned. */
    async markCodeReplayed(codeHash: string, trx: Knex = knex): Promise<string | null> {
      const [row] = await trx('oauth_codes')
        .where({ code_hash: codeHash })
        .update({ replayed_at: trx.fn.now() })
        .returning('token_id');
      return (row?.token_id as string | null | undefined) ?? null;
    },
    /** Links the code to its grant; returns whether the code had already been replayed meanwhile. */
    async linkCode(codeHash: string, tokenId: string, trx: Knex = knex): Promise<boolean> {
      const [row] = await trx('oauth_codes')
        .where({ code_hash: codeHash })
        .update({ token_id: tokenId })
        .returning('replayed_at');
      return Boolean(row?.replayed_at);
    },
    async insertGrant(
      input: Pick<TokenRow, 'user_id' | 'name' | 'display_prefix' | 'token_hash' | 'scopes' | 'expires_at'> & {
        oauth_client_id: string;
        oauth_client_name: string;
        oauth_client_origin: string;
        oauth_resource: string;
      },
      trx: Knex = knex,
    ): Promise<TokenRow> {
      const [row] = await trx('api_tokens').insert(input).returning('*');
      return row;
    },
    async findGrant(tokenId: string, trx: Knex = knex): Promise<TokenRow | undefined> {
      return trx('api_tokens').where({ id: tokenId }).first();
    },
    async revokeGrant(tokenId: string, trx: Knex = knex): Promise<boolean> {
      const n = await trx('api_tokens')
        .where({ id: tokenId })
        .whereNull('revoked_at')
        .update({ revoked_at: trx.fn.now() });
      return n > 0;
    },
    async insertTokens(rows: Array<Omit<OAuthTokenRow, 'revoked_at'>>, trx: Knex = knex): Promise<void> {
      await trx('oauth_tokens').insert(rows);
    },
    async findToken(tokenHash: string, kind: OAuthTokenRow['kind'], trx: Knex = knex) {
      return trx('oauth_tokens').where({ token_hash: tokenHash, kind }).first() as Promise<OAuthTokenRow | undefined>;
    },
    async revokeToken(tokenHash: string, trx: Knex = knex): Promise<boolean> {
      const n = await trx('oauth_tokens')
        .where({ token_hash: tokenHash })
        .whereNull('revoked_at')
        .update({ revoked_at: trx.fn.now() });
      return n > 0;
    },
    /**
     * Drops what can no longer be used: tokens past their expiry (a rotated refresh token is kept
     * until then, for reuse detection) and codes a day past theirs (a late replay still revokes).
     */
    async deleteExpired(trx: Knex = knex): Promise<{ codes: number; tokens: number }> {
      const codes = await trx('oauth_codes').whereRaw("expires_at < now() - interval '1 day'").delete();
      const tokens = await trx('oauth_tokens').where('expires_at', '<=', trx.fn.now()).delete();
      return { codes, tokens };
    },
    /** An access token with its grant and the owner's role, in one round trip (the bearer check). */
    async findAccessWithGrant(
      tokenHash: string,
      trx: Knex = knex,
    ): Promise<
      (TokenRow & { user_role: UserRole | null; access_expires_at: Date; access_revoked_at: Date | null }) | undefined
    > {
      return trx('oauth_tokens as o')
        .join('api_tokens as t', 't.id', 'o.token_id')
        .leftJoin('users as u', 'u.id', 't.user_id')
        .where({ 'o.token_hash': tokenHash, 'o.kind': 'access' })
        .first('t.*', 'u.role as user_role', 'o.expires_at as access_expires_at', 'o.revoked_at as access_revoked_at');
    },
  };
}
export type OAuthRepository = ReturnType<typeof createOAuthRepository>;
