import { SCOPES, isScope, type Scope } from '#lib/scopes';
import { PROTECTED_RESOURCES, type ProtectedResource } from '../../plugins/auth';
import type { OAuthClient } from '../oauth-client-metadata';
import { resolveClient } from './clients';
import type { OAuthContext } from './context';

export interface AuthorizeRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  resource: ProtectedResource;
  scopes: Scope[];
}

/**
 * An authorization request checked (RFC 6749 §4.1.2.1): a bad client or redirect URI is shown to
 * the person (never redirected to an address we cannot trust); anything else goes back to the
 * client's redirect URI as an OAuth error.
 */
export type AuthorizeCheck =
  | { ok: true; request: AuthorizeRequest }
  | { ok: false; fatal: true; message: string }
  | { ok: false; fatal: false; location: string };

const codeChallengeRe = /^[A-Za-z0-9_-]{43}$/;

const errorLocation = (
  issuer: string,
  redirectUri: string,
  error: string,
  description: string,
  state: string | undefined,
) => {
  const u = new URL(redirectUri);
  u.searchParams.set('error', error);
  u.searchParams.set('error_description', description);
  if (state) u.searchParams.set('state', state);
  u.searchParams.set('iss', issuer);
  return u.toString();
};

/** Checks the parameters of an authorization request (the consent page's GET and POST). */
export async function checkAuthorize(
  ctx: OAuthContext,
  p: Record<string, string | undefined>,
): Promise<AuthorizeCheck> {
  const { issuer } = ctx;
  if (!p.client_id) return { ok: false, fatal: true, message: 'client_id is required' };
  const resolved = await resolveClient(ctx, p.client_id);
  if (!resolved.ok) return { ok: false, fatal: true, message: resolved.message };
  const client = resolved.client;
  if (!p.redirect_uri) return { ok: false, fatal: true, message: 'redirect_uri is required' };
  if (!client.redirectUris.includes(p.redirect_uri))
    return { ok: false, fatal: true, message: `redirect_uri ${p.redirect_uri} is not one the client registered` };
  const fail = (error: string, description: string): AuthorizeCheck => ({
    ok: false,
    fatal: false,
    location: errorLocation(issuer, p.redirect_uri!, error, description, p.state),
  });
  if (p.response_type !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');
  if (!p.code_challenge || !codeChallengeRe.test(p.code_challenge))
    return fail('invalid_request', 'PKCE is required: send code_challenge (S256)');
  if (p.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  const resource = ctx.resourceOf(p.resource);
  if (!resource)
    return fail(
      'invalid_target',
      `resource is required (RFC 8707): ${PROTECTED_RESOURCES.map((r) => `${issuer}${r}`).join(' or ')}`,
    );
  const asked = (p.scope ?? '').split(' ').filter(Boolean);
  const unknown = asked.filter((s) => !isScope(s));
  if (unknown.length) return fail('invalid_scope', `unknown scope(s): ${unknown.join(', ')}`);
  if (!asked.length) return fail('invalid_scope', 'name the scopes the client needs');
  return {
    ok: true,
    request: {
      client,
      redirectUri: p.redirect_uri,
      state: p.state || undefined,
      codeChallenge: p.code_challenge,
      resource,
      scopes: SCOPES.filter((s) => asked.includes(s)),
    },
  };
}
