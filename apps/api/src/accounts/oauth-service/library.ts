import type { AuthorizationCodeModel, RefreshTokenModel } from '@node-oauth/oauth2-server';
import type { OAuthContext } from './context';

const importLibrary = () => import('@node-oauth/oauth2-server');

/** `@node-oauth/oauth2-server`, as the lazy import gives it (the server class is its `default`). */
export type OAuthLibrary = Awaited<ReturnType<typeof importLibrary>>;
export type OAuthModel = AuthorizationCodeModel & RefreshTokenModel;

let library: Promise<OAuthLibrary> | null = null;

/**
 * The OAuth library is loaded on the first consent decision or token request, not at start: most
 * API processes never serve one. One promise, so concurrent first requests share one load.
 */
export const loadOAuthLibrary = (): Promise<OAuthLibrary> => (library ??= importLibrary());

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The library's server over one request's model, with our lifetimes and public clients only. */
export function serverFor(lib: OAuthLibrary, ctx: OAuthContext, model: OAuthModel) {
  const { cfg } = ctx;
  return new lib.default({
    model,
    accessTokenLifetime: seconds(cfg.OAUTH_ACCESS_TOKEN_TTL_MS),
    refreshTokenLifetime: seconds(cfg.OAUTH_REFRESH_TOKEN_TTL_MS),
    authorizationCodeLifetime: seconds(cfg.OAUTH_CODE_TTL_MS),
    allowEmptyState: true,
    alwaysIssueNewRefreshToken: true,
    // Public clients: no secret; PKCE (authorization_code) or the rotating refresh token is the proof.
    requireClientAuthentication: { authorization_code: false, refresh_token: false },
  });
}
