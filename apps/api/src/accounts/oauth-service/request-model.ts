import type { Client, User } from '@node-oauth/oauth2-server';
import { isScope } from '#lib/scopes';
import { OAUTH_ACCESS_PREFIX, OAUTH_CODE_PREFIX, OAUTH_REFRESH_PREFIX, generateToken } from '#lib/tokens';
import type { OAuthClient } from '../oauth-client-metadata';
import type { AuthorizeRequest } from './authorize-request';
import { authorizationCodeModel } from './authorization-codes';
import { GRANTS, type OAuthContext } from './context';
import type { OAuthLibrary, OAuthModel } from './library';
import { tokenModel } from './tokens';

/** What the library does not pass along to its model: the client resolved, the `resource` sent, the request approved. */
export interface RequestContext {
  client?: OAuthClient;
  resourceParam?: string;
  authorize?: AuthorizeRequest;
}

/** The library's model, for one request: clients, generated secrets and scopes here; codes and tokens in their modules. */
export function modelFor(lib: OAuthLibrary, ctx: OAuthContext, req: RequestContext): OAuthModel {
  /** A `resource` sent at the token endpoint must be the one the grant is bound to (RFC 8707). */
  const checkResource = (bound: string) => {
    if (req.resourceParam === undefined) return;
    if (ctx.resourceOf(req.resourceParam) !== bound)
      throw new lib.OAuthError(`the grant is for ${ctx.issuer}${bound}, not ${req.resourceParam}`, {
        code: 400,
        name: 'invalid_target',
      });
  };
  return {
    async getClient(clientId: string): Promise<Client | null> {
      if (req.client?.clientId === clientId)
        return { id: clientId, grants: GRANTS, redirectUris: req.client.redirectUris };
      // At the token endpoint a public client is only an id: the code or refresh token is bound to it.
      if (/^https?:\/\//i.test(clientId)) return { id: clientId, grants: GRANTS };
      const row = await ctx.oauth.findClient(clientId);
      return row ? { id: clientId, grants: GRANTS, redirectUris: row.redirect_uris } : null;
    },
    generateAuthorizationCode: async () => generateToken(OAUTH_CODE_PREFIX),
    generateAccessToken: async () => generateToken(OAUTH_ACCESS_PREFIX),
    generateRefreshToken: async () => generateToken(OAUTH_REFRESH_PREFIX),
    async validateScope(_user: User, _client: Client, scope?: string[]) {
      const valid = (scope ?? []).filter(isScope);
      return valid.length ? valid : false;
    },
    ...authorizationCodeModel(ctx, req.authorize, checkResource),
    ...tokenModel(lib, ctx, checkResource),
    // Bearer checks are the auth plugin's (the same path as personal tokens), never the library's.
    getAccessToken: async () => null,
  } as OAuthModel;
}
