import type { Client, RefreshToken, RefreshTokenModel, Token, User } from '@node-oauth/oauth2-server';
import type { OAuthCodeRow } from '#db/accounts/oauth-repository';
import { hashToken } from '#lib/tokens';
import { GRANTS, type OAuthContext } from './context';
import { grantFromCode } from './grants';
import type { OAuthLibrary } from './library';

type TokenModel = Pick<RefreshTokenModel, 'saveToken' | 'getRefreshToken' | 'revokeToken'>;

/**
 * Access and refresh tokens in the library's model: stored as hashes under their grant; a refresh
 * token is good once (rotation), and one used again ends the grant.
 */
export function tokenModel(lib: OAuthLibrary, ctx: OAuthContext, checkResource: (bound: string) => void): TokenModel {
  const { oauth, cfg } = ctx;
  return {
    async saveToken(token: Token, client: Client, user: User): Promise<Token> {
      const code = user.code as OAuthCodeRow | undefined;
      const grantId = code ? await grantFromCode(lib, ctx, code, token.scope) : (user.grantId as string);
      const accessTokenExpiresAt = new Date(Date.now() + cfg.OAUTH_ACCESS_TOKEN_TTL_MS);
      const refreshTokenExpiresAt = new Date(Date.now() + cfg.OAUTH_REFRESH_TOKEN_TTL_MS);
      await oauth.insertTokens([
        {
          token_hash: hashToken(token.accessToken),
          token_id: grantId,
          kind: 'access',
          expires_at: accessTokenExpiresAt,
        },
        {
          token_hash: hashToken(token.refreshToken!),
          token_id: grantId,
          kind: 'refresh',
          expires_at: refreshTokenExpiresAt,
        },
      ]);
      return {
        accessToken: token.accessToken,
        accessTokenExpiresAt,
        refreshToken: token.refreshToken,
        refreshTokenExpiresAt,
        scope: token.scope,
        client,
        user: { id: user.id },
      };
    },
    async getRefreshToken(refreshToken: string): Promise<RefreshToken | null> {
      const hash = hashToken(refreshToken);
      const row = await oauth.findToken(hash, 'refresh');
      if (!row) return null;
      const grant = await oauth.findGrant(row.token_id);
      if (!grant || grant.revoked_at || !grant.oauth_client_id) return null;
      if (row.revoked_at) {
        // Rotation: a refresh token is good once; one used again means two holders, so the grant ends.
        await ctx.revokeGrant(grant.id);
        return null;
      }
      checkResource(grant.oauth_resource ?? '');
      return {
        refreshToken,
        refreshTokenExpiresAt: row.expires_at,
        scope: grant.scopes,
        client: { id: grant.oauth_client_id, grants: GRANTS },
        user: { id: grant.user_id, grantId: grant.id },
      };
    },
    revokeToken: async (token: RefreshToken) => oauth.revokeToken(hashToken(token.refreshToken)),
  };
}
