import type { Scope } from '#lib/scopes';
import { checkAuthorize, type AuthorizeRequest } from './oauth-service/authorize-request';
import { registerClient, resolveClient } from './oauth-service/clients';
import { decideConsent } from './oauth-service/consent-decision';
import { createOAuthContext, type OAuthServiceDeps } from './oauth-service/context';
import { serverMetadata } from './oauth-service/metadata';
import { exchangeToken } from './oauth-service/token-endpoint';

export type { AuthorizeCheck, AuthorizeRequest } from './oauth-service/authorize-request';

/**
 * The OAuth 2.1 authorization server (decision 0260, docs/design/oauth.md) on
 * `@node-oauth/oauth2-server`: the library runs the protocol (code, PKCE S256, refresh rotation)
 * and is loaded on first use; our model (oauth-service/) stores codes and tokens as SHA-256
 * hashes and adds what the library does not know: the client (a Client ID Metadata Document URL
 * or a dynamically registered id), the resource (RFC 8707) and the grant, an `api_tokens` row,
 * so an issued token is the same caller as a personal token.
 */
export function createOAuthService(deps: OAuthServiceDeps) {
  const ctx = createOAuthContext(deps);
  return {
    issuer: ctx.issuer,
    resolveClient: (clientId: string) => resolveClient(ctx, clientId),
    /** Checks the parameters of an authorization request (the consent page's GET and POST). */
    checkAuthorize: (p: Record<string, string | undefined>) => checkAuthorize(ctx, p),
    /** RFC 8414 authorization server metadata. */
    metadata: () => serverMetadata(ctx.issuer),
    /** The person's answer on the consent page: where to send the browser (a code, or `access_denied`). */
    decide: (a: AuthorizeRequest, userId: string, approvedScopes: Scope[] | null) =>
      decideConsent(ctx, a, userId, approvedScopes),
    /** The token endpoint: its answer in OAuth's own JSON (RFC 6749 §5.1, §5.2). */
    token: (headers: Record<string, string | string[] | undefined>, body: Record<string, string>) =>
      exchangeToken(ctx, headers, body),
    /** RFC 7591 dynamic registration of a public client (no secret, `none` authentication). */
    register: (body: unknown) => registerClient(ctx, body),
  };
}
export type OAuthService = ReturnType<typeof createOAuthService>;
