import OAuth2Server, {
  OAuthError,
  InvalidGrantError,
  Request as OAuthRequest,
  Response as OAuthResponse,
  type AuthorizationCode,
  type AuthorizationCodeModel,
  type Client,
  type RefreshToken,
  type RefreshTokenModel,
  type Token,
  type User,
} from '@node-oauth/oauth2-server';
import { z } from 'zod';
import { SCOPES, isScope, type Scope } from '#lib/scopes';
import { OAUTH_ACCESS_PREFIX, OAUTH_CODE_PREFIX, OAUTH_REFRESH_PREFIX, generateToken, hashToken } from '#lib/tokens';
import type { OAuthCodeRow } from '#db/accounts/oauth-repository';
import type { ServiceDeps } from '../plugins/service-deps';
import type { VerifiedTokenCache } from '../plugins/verified-tokens';
import { PROTECTED_RESOURCES, type ProtectedResource } from '../plugins/auth';
import { redirectUriProblem, resolveClientMetadata, type OAuthClient } from './oauth-client-metadata';

/** Grant types a client of ours may use: authorization code (with PKCE) and refresh. Nothing else. */
const GRANTS = ['authorization_code', 'refresh_token'];

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

const registrationSchema = z
  .object({
    redirect_uris: z.array(z.string().max(2048)).min(1).max(20),
    client_name: z.string().trim().min(1).max(100).optional(),
    client_uri: z.string().url().max(2048).optional(),
    token_endpoint_auth_method: z.literal('none').optional(),
    grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])).optional(),
    response_types: z.array(z.literal('code')).optional(),
  })
  .passthrough();

type Answer = { status: number; headers: Record<string, string>; body: Record<string, unknown> };

/**
 * The OAuth 2.1 authorization server (decision 0260) on `@node-oauth/oauth2-server`: the library
 * runs the protocol (code, PKCE S256, refresh rotation); this model stores codes and tokens as
 * SHA-256 hashes and adds what the library does not know: the client (a Client ID Metadata
 * Document URL or a dynamically registered id), the resource (RFC 8707) and the grant, an
 * `api_tokens` row, so an issued token is the same caller as a personal token.
 */
export function createOAuthService(
  deps: Pick<ServiceDeps, 'repos' | 'config'> & { verifiedTokens?: VerifiedTokenCache },
) {
  const { oauth } = deps.repos;
  const cfg = deps.config;
  const issuer = cfg.publicBaseUrl;
  const policy = { allowLoopback: cfg.OUTBOUND_HTTP_ALLOW_LOOPBACK };

  const resourceOf = (raw: string | undefined): ProtectedResource | null => {
    if (!raw) return null;
    const trimmed = raw.replace(/\/+$/, '');
    return PROTECTED_RESOURCES.find((r) => `${issuer}${r}` === trimmed) ?? null;
  };

  const revokeGrant = async (tokenId: string) => {
    await oauth.revokeGrant(tokenId);
    deps.verifiedTokens?.evictTokenId(tokenId);
  };

  async function resolveClient(
    clientId: string,
  ): Promise<{ ok: true; client: OAuthClient } | { ok: false; message: string }> {
    if (/^https?:\/\//i.test(clientId))
      return resolveClientMetadata(clientId, { policy, timeoutMs: Math.min(cfg.WEBHOOK_TIMEOUT_MS, 5000) });
    const row = await oauth.findClient(clientId);
    if (!row)
      return {
        ok: false,
        message: `client_id ${clientId} is neither a client metadata document URL nor a registered client`,
      };
    return {
      ok: true,
      client: {
        clientId: row.client_id,
        // A registered client has no origin of its own: the person sees where it sends them back.
        origin: new URL(row.redirect_uris[0]).origin,
        name: row.client_name,
        clientUri: row.client_uri,
        redirectUris: row.redirect_uris,
      },
    };
  }

  const errorLocation = (redirectUri: string, error: string, description: string, state: string | undefined) => {
    const u = new URL(redirectUri);
    u.searchParams.set('error', error);
    u.searchParams.set('error_description', description);
    if (state) u.searchParams.set('state', state);
    u.searchParams.set('iss', issuer);
    return u.toString();
  };

  /** Checks the parameters of an authorization request (the consent page's GET and POST). */
  async function checkAuthorize(p: Record<string, string | undefined>): Promise<AuthorizeCheck> {
    if (!p.client_id) return { ok: false, fatal: true, message: 'client_id is required' };
    const resolved = await resolveClient(p.client_id);
    if (!resolved.ok) return { ok: false, fatal: true, message: resolved.message };
    const client = resolved.client;
    if (!p.redirect_uri) return { ok: false, fatal: true, message: 'redirect_uri is required' };
    if (!client.redirectUris.includes(p.redirect_uri))
      return { ok: false, fatal: true, message: `redirect_uri ${p.redirect_uri} is not one the client registered` };
    const fail = (error: string, description: string): AuthorizeCheck => ({
      ok: false,
      fatal: false,
      location: errorLocation(p.redirect_uri!, error, description, p.state),
    });
    if (p.response_type !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');
    if (!p.code_challenge || !codeChallengeRe.test(p.code_challenge))
      return fail('invalid_request', 'PKCE is required: send code_challenge (S256)');
    if (p.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    const resource = resourceOf(p.resource);
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

  /** The library's model, for one request (what it does not pass along: the client resolved, the `resource` sent). */
  function modelFor(ctx: { client?: OAuthClient; resourceParam?: string; authorize?: AuthorizeRequest }) {
    const checkResource = (bound: string) => {
      if (ctx.resourceParam === undefined) return;
      if (resourceOf(ctx.resourceParam) !== bound)
        throw new OAuthError(`the grant is for ${issuer}${bound}, not ${ctx.resourceParam}`, {
          code: 400,
          name: 'invalid_target',
        });
    };
    const model: AuthorizationCodeModel & RefreshTokenModel = {
      async getClient(clientId: string): Promise<Client | null> {
        if (ctx.client?.clientId === clientId)
          return { id: clientId, grants: GRANTS, redirectUris: ctx.client.redirectUris };
        // At the token endpoint a public client is only an id: the code or refresh token is bound to it.
        if (/^https?:\/\//i.test(clientId)) return { id: clientId, grants: GRANTS };
        const row = await oauth.findClient(clientId);
        return row ? { id: clientId, grants: GRANTS, redirectUris: row.redirect_uris } : null;
      },
      generateAuthorizationCode: async () => generateToken(OAUTH_CODE_PREFIX),
      generateAccessToken: async () => generateToken(OAUTH_ACCESS_PREFIX),
      generateRefreshToken: async () => generateToken(OAUTH_REFRESH_PREFIX),
      async validateScope(_user: User, _client: Client, scope?: string[]) {
        const valid = (scope ?? []).filter(isScope);
        return valid.length ? valid : false;
      },
      async saveAuthorizationCode(code, client, user) {
        const a = ctx.authorize!;
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
          if (tokenId) await revokeGrant(tokenId);
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
      async saveToken(token: Token, client: Client, user: User): Promise<Token> {
        let grantId = user.grantId as string | undefined;
        const code = user.code as OAuthCodeRow | undefined;
        if (code) {
          const grant = await oauth.insertGrant({
            user_id: code.user_id,
            name: code.client_name,
            display_prefix: 'OAuth',
            // The grant row is never presented as a bearer token itself: an unguessable placeholder.
            token_hash: hashToken(generateToken()),
            scopes: token.scope ?? code.scopes,
            expires_at: null,
            oauth_client_id: code.client_id,
            oauth_client_name: code.client_name,
            oauth_client_origin: code.client_origin,
            oauth_resource: code.resource,
          });
          grantId = grant.id;
          if (await oauth.linkCode(code.code_hash, grant.id)) {
            await revokeGrant(grant.id);
            throw new InvalidGrantError('Invalid grant: authorization code is invalid');
          }
        }
        const accessTokenExpiresAt = new Date(Date.now() + cfg.OAUTH_ACCESS_TOKEN_TTL_MS);
        const refreshTokenExpiresAt = new Date(Date.now() + cfg.OAUTH_REFRESH_TOKEN_TTL_MS);
        await oauth.insertTokens([
          {
            token_hash: hashToken(token.accessToken),
            token_id: grantId!,
            kind: 'access',
            expires_at: accessTokenExpiresAt,
          },
          {
            token_hash: hashToken(token.refreshToken!),
            token_id: grantId!,
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
          await revokeGrant(grant.id);
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
      // Bearer checks are the auth plugin's (the same path as personal tokens), never the library's.
      getAccessToken: async () => null,
    } as AuthorizationCodeModel & RefreshTokenModel;
    return model;
  }

  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  const serverFor = (model: AuthorizationCodeModel & RefreshTokenModel) =>
    new OAuth2Server({
      model,
      accessTokenLifetime: seconds(cfg.OAUTH_ACCESS_TOKEN_TTL_MS),
      refreshTokenLifetime: seconds(cfg.OAUTH_REFRESH_TOKEN_TTL_MS),
      authorizationCodeLifetime: seconds(cfg.OAUTH_CODE_TTL_MS),
      allowEmptyState: true,
      alwaysIssueNewRefreshToken: true,
      // Public clients: no secret; PKCE (authorization_code) or the rotating refresh token is the proof.
      requireClientAuthentication: { authorization_code: false, refresh_token: false },
    });

  return {
    issuer,
    resolveClient,
    checkAuthorize,

    /** RFC 8414 authorization server metadata. */
    metadata() {
      return {
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        registration_endpoint: `${issuer}/oauth/register`,
        scopes_supported: [...SCOPES],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: GRANTS,
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        client_id_metadata_document_supported: true,
        authorization_response_iss_parameter_supported: true,
        service_documentation: `${issuer}/docs/agents.md`,
      };
    },

    /**
     * The person's answer on the consent page: approved with the scopes they kept (a subset of
     * those asked for), or refused (null). Returns where to send the browser: the client's
     * redirect URI with a code, or with `error=access_denied`.
     */
    async decide(a: AuthorizeRequest, userId: string, approvedScopes: Scope[] | null): Promise<string> {
      const request = new OAuthRequest({
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
      const response = new OAuthResponse();
      try {
        await serverFor(modelFor({ client: a.client, authorize: a })).authorize(request, response, {
          authenticateHandler: { handle: async () => ({ id: userId }) },
        });
      } catch (err) {
        if (!(err instanceof OAuthError)) throw err;
      }
      const location = response.get('location') as string | undefined;
      if (!location) throw new Error('the authorization server gave no redirect');
      const u = new URL(location);
      u.searchParams.set('iss', issuer); // RFC 9207: which server answered
      return u.toString();
    },

    /** The token endpoint: its answer in OAuth's own JSON (RFC 6749 §5.1, §5.2). */
    async token(headers: Record<string, string | string[] | undefined>, body: Record<string, string>): Promise<Answer> {
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
      const request = new OAuthRequest({ method: 'POST', headers: flat, query: {}, body });
      const response = new OAuthResponse();
      const resourceParam = body.resource;
      try {
        await serverFor(modelFor({ resourceParam })).token(request, response);
      } catch (err) {
        if (!(err instanceof OAuthError)) throw err;
        if ((err as OAuthError).code >= 500) throw (err as { inner?: Error }).inner ?? err;
      }
      return {
        status: response.status ?? 200,
        headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
        body: response.body as Record<string, unknown>,
      };
    },

    /** RFC 7591 dynamic registration of a public client (no secret, `none` authentication). */
    async register(body: unknown): Promise<Answer> {
      const parsed = registrationSchema.safeParse(body);
      const refuse = (error: string, description: string): Answer => ({
        status: 400,
        headers: {},
        body: { error, error_description: description },
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue.path.join('.') || 'body';
        return refuse(
          field.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata',
          `${field}: ${issue.message}`,
        );
      }
      for (const uri of parsed.data.redirect_uris) {
        const problem = redirectUriProblem(uri);
        if (problem) return refuse('invalid_redirect_uri', problem);
      }
      const row = await oauth.insertClient({
        client_id: generateToken('dcr_'),
        client_name: parsed.data.client_name ?? new URL(parsed.data.redirect_uris[0]).hostname,
        client_uri: parsed.data.client_uri ?? null,
        redirect_uris: parsed.data.redirect_uris,
      });
      return {
        status: 201,
        headers: { 'cache-control': 'no-store' },
        body: {
          client_id: row.client_id,
          client_id_issued_at: Math.floor(row.created_at.getTime() / 1000),
          client_name: row.client_name,
          ...(row.client_uri ? { client_uri: row.client_uri } : {}),
          redirect_uris: row.redirect_uris,
          grant_types: GRANTS,
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
      };
    },
  };
}
export type OAuthService = ReturnType<typeof createOAuthService>;
