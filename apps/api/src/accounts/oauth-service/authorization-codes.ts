import type { AuthorizationCode, AuthorizationCodeModel } from '@node-oauth/oauth2-server';
import { hashToken } from '#lib/tokens';
import type { AuthorizeRequest } from './authorize-request';
import { GRANTS, type OAuthContext } from './context';

type CodeModel = Pick<
  AuthorizationCodeModel,
  'saveAuthorizationCode' | 'getAuthorizationCode' | 'revokeAuthorizationCode'
>;

/**
 * Authorization codes in the library's model: stored as hashes with what the person approved
 * (client, resource, PKCE challenge), good once; a code presented again ends its grant.
 */
export function authorizationCodeModel(
  ctx: OAuthContext,
  authorize: AuthorizeRequest | undefined,
  checkResource: (bound: string) => void,
): CodeModel {
  const { oauth, cfg } = ctx;
  return {
    async saveAuthorizationCode(code, client, user) {
      const a = authorize!;
      await oauth.insertCode({
        code_hash: hashToken(code.authorizationCode),
        client_id: a.client.clientId,
        client_name: a.client.name,
        client_origin: a.client.origin,
        user_id: user.id as string,
        scopes: code.scope ?? [],
        resource: a.resource,
        redirect_uri: code.redirectUri,
        code_challenge: a.codeChallenge,
        expires_at: new Date(Date.now() + cfg.OAUTH_CODE_TTL_MS),
      });
      // Expired codes and tokens are deleted by the retention workflow (docs/design/retention.md).
      return { ...code, client, user } as AuthorizationCode;
    },
    async getAuthorizationCode(code: string): Promise<AuthorizationCode | null> {
      const hash = hashToken(code);
      const row = await oauth.findCode(hash);
      if (!row) return null;
      if (row.used_at) {
        // A code presented twice was stolen or replayed: whatever it was exchanged for is ended (RFC 6749 §4.1.2).
        const tokenId = await oauth.markCodeReplayed(hash);
        if (tokenId) await ctx.revokeGrant(tokenId);
        return null;
      }
      checkResource(row.resource);
      return {
        authorizationCode: code,
        expiresAt: row.expires_at,
        redirectUri: row.redirect_uri,
        scope: row.scopes,
        client: { id: row.client_id, grants: GRANTS },
        user: { id: row.user_id, code: row },
        codeChallenge: row.code_challenge,
        codeChallengeMethod: 'S256',
      };
    },
    revokeAuthorizationCode: async (code) => oauth.useCode(hashToken(code.authorizationCode)),
  };
}
