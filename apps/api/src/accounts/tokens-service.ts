import type { Knex } from 'knex';
import { type TokenRow } from '#db/accounts/tokens-repository';
import { displayPrefix, generateToken, hashToken } from '#lib/tokens';
import { isScope, type Scope } from '#lib/scopes';
import { ValidationError } from '#lib/errors';
import type { ServiceDeps } from '../plugins/service-deps';
import type { VerifiedTokenCache } from '../plugins/verified-tokens';

export interface MintTokenInput {
  name: string;
  scopes: readonly string[];
  expiresAt?: Date | null;
}

/** Personal access tokens: minted by their user (web page, `npm run token:create`, demo seed). */
export function createTokensService(deps: Pick<ServiceDeps, 'repos'> & { verifiedTokens?: VerifiedTokenCache }) {
  const tokens = deps.repos.tokens;
  return {
    /** Returns the token itself exactly once; only its hash is stored. */
    async mint(userId: string, input: MintTokenInput): Promise<{ token: string; row: TokenRow }> {
      const name = input.name.trim();
      const issues: Array<{ path: string; message: string }> = [];
      if (!name || name.length > 100) issues.push({ path: 'name', message: 'a name of 1–100 characters' });
      const unknown = input.scopes.filter((s) => !isScope(s));
      if (unknown.length) issues.push({ path: 'scopes', message: `unknown scope(s): ${unknown.join(', ')}` });
      if (input.scopes.length === 0) issues.push({ path: 'scopes', message: 'choose at least one scope' });
      if (input.expiresAt && input.expiresAt.getTime() <= Date.now())
        issues.push({ path: 'expires_at', message: 'must be in the future' });
      if (issues.length) throw new ValidationError('Invalid token request', issues);
      const token = generateToken();
      const row = await tokens.insert({
        user_id: userId,
        name,
        display_prefix: displayPrefix(token),
        token_hash: hashToken(token),
        scopes: [...new Set(input.scopes as Scope[])],
        expires_at: input.expiresAt ?? null,
      });
      return { token, row };
    },
    list: (userId: string) => tokens.listForUser(userId),
    /** OAuth grants ("Connected apps"): revoked like a token, which ends their access and refresh tokens. */
    listConnectedApps: (userId: string) => tokens.listGrantsForUser(userId),
    /** Refused at once by this process; other API replicas hear of it by notification (decision 0211). */
    async revoke(userId: string, tokenId: string): Promise<boolean> {
      const revoked = await tokens.revoke(userId, tokenId);
      if (revoked) deps.verifiedTokens?.evictTokenId(tokenId);
      return revoked;
    },
  };
}
