import type { ServiceDeps } from '../../plugins/service-deps';
import type { VerifiedTokenCache } from '../../plugins/verified-tokens';
import { PROTECTED_RESOURCES, type ProtectedResource } from '../../plugins/auth';

/** Grant types a client of ours may use: authorization code (with PKCE) and refresh. Nothing else. */
export const GRANTS = ['authorization_code', 'refresh_token'];

export type OAuthServiceDeps = Pick<ServiceDeps, 'repos' | 'config'> & { verifiedTokens?: VerifiedTokenCache };

/** What every part of the authorization server shares: the repository, the settings and two small helpers. */
export function createOAuthContext(deps: OAuthServiceDeps) {
  const oauth = deps.repos.oauth;
  const cfg = deps.config;
  const issuer = cfg.publicBaseUrl;

  /** The protected resource a `resource` parameter (RFC 8707) names, or null. */
  const resourceOf = (raw: string | undefined): ProtectedResource | null => {
    if (!raw) return null;
    const trimmed = raw.replace(/\/+$/, '');
    return PROTECTED_RESOURCES.find((r) => `${issuer}${r}` === trimmed) ?? null;
  };

  /** Ends a grant (its `api_tokens` row and every token of it) and forgets it in this process's token cache. */
  const revokeGrant = async (tokenId: string) => {
    await oauth.revokeGrant(tokenId);
    deps.verifiedTokens?.evictTokenId(tokenId);
  };

  return { oauth, cfg, issuer, policy: { allowLoopback: cfg.OUTBOUND_HTTP_ALLOW_LOOPBACK }, resourceOf, revokeGrant };
}
export type OAuthContext = ReturnType<typeof createOAuthContext>;

/** An answer of a machine endpoint, in OAuth's own JSON. */
export type Answer = { status: number; headers: Record<string, string>; body: Record<string, unknown> };
