import type { OAuthCodeRow } from '#db/accounts/oauth-repository';
import { generateToken, hashToken } from '#lib/tokens';
import type { OAuthContext } from './context';
import type { OAuthLibrary } from './library';

/**
 * The grant a code is exchanged for: an `api_tokens` row, so an issued token is the same caller as
 * a personal token. If the code was linked to a grant already (two exchanges racing), the new
 * grant is ended and the exchange refused.
 */
export async function grantFromCode(
  lib: OAuthLibrary,
  ctx: OAuthContext,
  code: OAuthCodeRow,
  scopes: string[] | undefined,
): Promise<string> {
  const grant = await ctx.oauth.insertGrant({
    user_id: code.user_id,
    name: code.client_name,
    display_prefix: 'OAuth',
    // The grant row is never presented as a bearer token itself: an unguessable placeholder.
    token_hash: hashToken(generateToken()),
    scopes: scopes ?? code.scopes,
    expires_at: null,
    oauth_client_id: code.client_id,
    oauth_client_name: code.client_name,
    oauth_client_origin: code.client_origin,
    oauth_resource: code.resource,
  });
  if (await ctx.oauth.linkCode(code.code_hash, grant.id)) {
    await ctx.revokeGrant(grant.id);
    throw new lib.InvalidGrantError('Invalid grant: authorization code is invalid');
  }
  return grant.id;
}
