import type { Scope } from '#lib/scopes';
import type { AuthorizeRequest } from './authorize-request';
import type { OAuthContext } from './context';
import { loadOAuthLibrary, serverFor } from './library';
import { modelFor } from './request-model';

/**
 * The person's answer on the consent page: approved with the scopes they kept (a subset of
 * those asked for), or refused (null). Returns where to send the browser: the client's
 * redirect URI with a code, or with `error=access_denied`.
 */
export async function decideConsent(
  ctx: OAuthContext,
  a: AuthorizeRequest,
  userId: string,
  approvedScopes: Scope[] | null,
): Promise<string> {
  const lib = await loadOAuthLibrary();
  const request = new lib.Request({
    method: 'POST',
    headers: {},
    query: {},
    body: {
      client_id: a.client.clientId,
      redirect_uri: a.redirectUri,
      response_type: 'code',
      ...(a.state ? { state: a.state } : {}),
      scope: (approvedScopes ?? a.scopes).join(' '),
      code_challenge: a.codeChallenge,
      code_challenge_method: 'S256',
      allowed: approvedScopes ? 'true' : 'false',
    },
  });
  const response = new lib.Response();
  try {
    await serverFor(lib, ctx, modelFor(lib, ctx, { client: a.client, authorize: a })).authorize(request, response, {
      authenticateHandler: { handle: async () => ({ id: userId }) },
    });
  } catch (err) {
    if (!(err instanceof lib.OAuthError)) throw err;
  }
  const location = response.get('location') as string | undefined;
  if (!location) throw new Error('the authorization server gave no redirect');
  const u = new URL(location);
  u.searchParams.set('iss', ctx.issuer); // RFC 9207: which server answered
  return u.toString();
}
