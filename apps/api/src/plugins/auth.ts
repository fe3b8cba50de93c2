import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Client as PgClient } from 'pg';
import { InsufficientScopeError, UnauthenticatedError } from '#lib/errors';
import { randomBytes } from 'node:crypto';
import { OAUTH_ACCESS_PREFIX, hasValidChecksum, hashToken } from '#lib/tokens';
import type { Config } from '#lib/config';
import { parseAgentIdentity } from './agent-identity';
import { type UserRole } from '#db/accounts/accounts-repository';
import type { CachedCaller, VerifiedTokenCache } from './verified-tokens';

export interface AuthContext {
  tokenId: string;
  tokenName: string;
  userId: string;
  role: UserRole;
  teamId: string | null;
  scopes: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /**
     * Resolves an `Authorization: Bearer …` header (a personal token `svc_…` or an OAuth access
     * token `sva_…`) to the caller, or throws 401 UNAUTHENTICATED. An OAuth token is accepted only
     * on the resource(s) named (RFC 8707 audience); a personal token on any.
     */
    authenticateBearer: (
      header: string | undefined,
      log: FastifyRequest['log'],
      resources?: readonly ProtectedResource[],
    ) => Promise<AuthContext>;
    /**
     * Sent by the MCP endpoint on its in-process REST calls (a random per-process value, never
     * shown): such a call may carry a token issued for `/mcp`.
     */
    mcpInProcessSecret: string;
  }
}

/**
 * The protected resources (RFC 9728): the REST API and the MCP endpoint (which mirrors it; `/mcp/readonly`
 * is under `/mcp`). Each has its metadata document at `/.well-known/oauth-protected-resource<path>`.
 */
export const PROTECTED_RESOURCES = ['/api/v1', '/mcp'] as const;
export type ProtectedResource = (typeof PROTECTED_RESOURCES)[number];

/** The header of the MCP endpoint's in-process REST calls (its value: `app.mcpInProcessSecret`). */
export const MCP_IN_PROCESS_HEADER = 'x-jobfair-mcp-call';

/** The protected resource a request path belongs to, or null (web pages, docs, health). */
export function protectedResourceOf(url: string): ProtectedResource | null {
  const path = url.split('?')[0];
  return PROTECTED_RESOURCES.find((r) => path === r || path.startsWith(`${r}/`)) ?? null;
}

/** Where a client reads the resource's metadata (RFC 9728 §3.1: the well-known prefix, then the resource's path). */
export function resourceMetadataUrl(publicBaseUrl: string, resource: ProtectedResource | null): string {
  return `${publicBaseUrl}/.well-known/oauth-protected-resource${resource ?? ''}`;
}

/**
 * The `WWW-Authenticate` value of a 401/403 from a protected resource (RFC 6750 §3, RFC 9728 §5.1):
 * a 401 names the resource metadata, with `error="invalid_token"` when a bearer token was sent; a
 * challenge already set (403 insufficient_scope naming the scope) gains the resource metadata.
 */
export function bearerChallenge(opts: {
  status: number;
  existing: string | undefined;
  bearerSent: boolean;
  metadataUrl: string;
}): string | undefined {
  const metadata = `resource_metadata="${opts.metadataUrl}"`;
  if (opts.existing !== undefined) {
    return /^Bearer\b/i.test(opts.existing) && !opts.existing.includes('resource_metadata=')
      ? `${opts.existing}, ${metadata}`
      : undefined;
  }
  if (opts.status !== 401) return undefined;
  return opts.bearerSent ? `Bearer error="invalid_token", ${metadata}` : `Bearer ${metadata}`;
}

/** Returns the caller or throws 401; used by routes that declare a scope. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new UnauthenticatedError();
  return request.auth;
}

/** 403 INSUFFICIENT_SCOPE unless the caller's token carries the route's scope. */
export function assertScope(request: FastifyRequest): void {
  const scope = request.routeOptions.config?.scope;
  if (scope && request.auth && !request.auth.scopes.has(scope)) throw new InsufficientScopeError(scope);
}

/**
 * Bearer personal access tokens. Missing, malformed, unknown, expired or revoked → 401
 * UNAUTHENTICATED (onRequest: before anything else runs); a valid token without the route's
 * scope → 403 INSUFFICIENT_SCOPE with `details.required_scope`.
 *
 * The scope check (and the X-Agent-Identity check) is attached to every scoped route as a
 * route-level `preValidation` hook. Route-level hooks run after the application-wide ones of
 * the same stage, so it runs after the idempotency claim and the rate limiter: a 403 carries
 * rate-limit headers and costs quota, and no idempotency key is held for it (see idempotency.ts).
 * A scoped route without a rate class is a programming error and stops the app at start.
 */
export default fp<{ config: Config }>(
  async (app, opts) => {
    const { tokens, accounts, oauth: oauthRepo } = app.services.deps.repos;
    const mcpInProcessSecret = randomBytes(24).toString('base64url');
    app.decorate('mcpInProcessSecret', mcpInProcessSecret);
    const verifiedTokens = app.services.accounts.verifiedTokens;
    await listenForAuthChanges(app, verifiedTokens);
    app.decorateRequest('auth', null);
    app.decorateRequest('agentIdentity', null);

    const scopeAndIdentity = async (request: FastifyRequest) => {
      assertScope(request);
      request.agentIdentity = parseAgentIdentity(request.headers['x-agent-identity']);
    };
    app.addHook('onRoute', (route) => {
      const cfg = route.config ?? {};
      if (!cfg.scope) return;
      if (!cfg.rateClass)
        throw new Error(
          `${String(route.method)} ${route.url} declares scope ${cfg.scope} but no rateClass; every ` +
            `authenticated route needs one (read, write, cost)`,
        );
      const own = route.preValidation
        ? Array.isArray(route.preValidation)
          ? route.preValidation
          : [route.preValidation]
        : [];
      route.preValidation = [scopeAndIdentity, ...own];
    });

    /** Header → caller, or 401. Also used by the MCP endpoint, which has no scope of its own. */
    const authenticateBearer = async (
      header: string | undefined,
      log: FastifyRequest['log'],
      resources: readonly ProtectedResource[] = [],
    ): Promise<AuthContext> => {
      if (!header) throw new UnauthenticatedError('Missing Authorization header; send Authorization: Bearer svc_…');
      const m = /^Bearer +(\S+) *$/i.exec(header);
      if (!m) throw new UnauthenticatedError('Malformed Authorization header; expected Authorization: Bearer svc_…');
      const token = m[1];
      const isOAuth = token.startsWith(OAUTH_ACCESS_PREFIX);
      // The checksum lets us refuse typos and random strings without a database round trip.
      if (!hasValidChecksum(token, isOAuth ? OAUTH_ACCESS_PREFIX : undefined))
        throw new UnauthenticatedError('The bearer token is not a valid svc_ token');
      const hash = hashToken(token);
      // A token verified a moment ago is not read again (decision 0211: evicted on revocation in
      // every replica by notification, bypassed while the listener is down, at most AUTH_CACHE_TTL_MS old).
      let caller = verifiedTokens.get(hash);
      if (!caller) {
        const epoch = verifiedTokens.epoch();
        // Token and owner's role in one query (one round trip fewer on every authenticated request).
        // An OAuth access token: its grant (an api_tokens row) is the caller, the token's own expiry applies.
        const access = isOAuth ? await oauthRepo.findAccessWithGrant(hash) : undefined;
        const row = isOAuth
          ? access && { ...access, expires_at: access.access_expires_at }
          : await tokens.findByHashWithRole(hash);
        if (!row) throw new UnauthenticatedError('The bearer token is unknown');
        if (row.revoked_at || access?.access_revoked_at)
          throw new UnauthenticatedError('The bearer token has been revoked');
        if (row.expires_at && row.expires_at.getTime() <= Date.now())
          throw new UnauthenticatedError('The bearer token has expired');
        if (!row.user_role) throw new UnauthenticatedError('The bearer token is unknown');
        const membership = row.user_role === 'recruiter' ? await accounts.findMembership(row.user_id) : undefined;
        caller = {
          tokenId: row.id,
          tokenName: row.name,
          userId: row.user_id,
          role: row.user_role,
          teamId: membership?.team_id ?? null,
          scopes: new Set(row.scopes),
          expiresAtMs: row.expires_at?.getTime() ?? null,
          lastUsedMs: row.last_used_at?.getTime() ?? 0,
          resource: row.oauth_resource ?? null,
        } satisfies CachedCaller;
        verifiedTokens.set(hash, caller, epoch);
      } else if (caller.expiresAtMs !== null && caller.expiresAtMs <= Date.now()) {
        throw new UnauthenticatedError('The bearer token has expired');
      }
      // RFC 8707: an OAuth token works only on the resource it was issued for.
      if (caller.resource && !resources.includes(caller.resource as ProtectedResource))
        throw new UnauthenticatedError(
          `The bearer token was issued for ${opts.config.publicBaseUrl}${caller.resource}, not this resource`,
        );
      // Throttled: at most one write per token per TOKEN_LAST_USED_THROTTLE_MS (checked here on what
      // this process last knew, and again in the UPDATE's WHERE so concurrent replicas do not all write).
      if (Date.now() - caller.lastUsedMs >= opts.config.TOKEN_LAST_USED_THROTTLE_MS) {
        caller.lastUsedMs = Date.now();
        tokens
          .touchLastUsed(caller.tokenId, opts.config.TOKEN_LAST_USED_THROTTLE_MS)
          .catch((err) => log.warn({ err }, 'could not record token use'));
      }
      return {
        tokenId: caller.tokenId,
        tokenName: caller.tokenName,
        userId: caller.userId,
        role: caller.role as UserRole,
        teamId: caller.teamId,
        scopes: caller.scopes,
      };
    };
    app.decorate('authenticateBearer', authenticateBearer);

    app.addHook('onRequest', async (request) => {
      const scope = request.routeOptions.config?.scope;
      if (!scope) return;
      const resource = protectedResourceOf(request.url);
      // The MCP endpoint's in-process calls carry the /mcp caller's token to the REST routes.
      const viaMcp = request.headers[MCP_IN_PROCESS_HEADER] === mcpInProcessSecret;
      const resources: ProtectedResource[] = resource ? [resource, ...(viaMcp ? (['/mcp'] as const) : [])] : [];
      request.auth = await authenticateBearer(request.headers.authorization, request.log, resources);
    });

    // Every 401 and 403 of the API and the MCP endpoint tells an OAuth client where to start
    // (whichever code raised it: auth, a route's requireAuth, the MCP endpoint).
    app.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode !== 401 && reply.statusCode !== 403) return payload;
      const resource = protectedResourceOf(request.url);
      if (!resource) return payload;
      const existing = reply.getHeader('www-authenticate');
      const challenge = bearerChallenge({
        status: reply.statusCode,
        existing: existing === undefined ? undefined : String(existing),
        bearerSent: /^Bearer\s+\S/i.test(request.headers.authorization ?? ''),
        metadataUrl: resourceMetadataUrl(opts.config.publicBaseUrl, resource),
      });
      if (challenge) reply.header('www-authenticate', challenge);
      return payload;
    });
  },
  { name: 'auth', dependencies: ['knex', 'services'] },
);

const CHANNEL = 'jobfair_auth_changed';

/**
 * The verified-token cache's listener: one connection of its own (outside the pool) LISTENing on
 * the channel the auth triggers notify (migration 20261123001801). The cache is on only while
 * this connection listens; when it drops the cache is emptied and bypassed, and the connection
 * is made again with a growing pause (1 s … 30 s). Start does not wait for a database that is down.
 */
async function listenForAuthChanges(app: FastifyInstance, cache: VerifiedTokenCache): Promise<void> {
  if (app.config.AUTH_CACHE_TTL_MS === 0) return;
  let closing = false;
  let conn: PgClient | null = null;
  let retry: NodeJS.Timeout | null = null;
  let pauseMs = 1000;
  const down = (err?: unknown) => {
    cache.setActive(false);
    const was = conn;
    conn = null;
    was?.removeAllListeners();
    was?.on('error', () => undefined);
    was?.end().catch(() => undefined);
    if (closing || retry) return;
    if (err) app.log.warn({ err }, 'auth-change listener lost; verified-token cache off until it is back');
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, pauseMs);
    retry.unref();
    pauseMs = Math.min(pauseMs * 2, 30_000);
  };
  const connect = async () => {
    try {
      const c = (await (
        app.knex.client as { acquireRawConnection(): Promise<PgClient> }
      ).acquireRawConnection()) as PgClient;
      if (closing) {
        await c.end().catch(() => undefined);
        return;
      }
      conn = c;
      c.on('notification', (msg) => cache.evict(msg.payload ?? '*'));
      c.on('error', down);
      c.on('end', () => down());
      await c.query(`LISTEN ${CHANNEL}`);
      if (conn !== c) return;
      cache.setActive(true);
      pauseMs = 1000;
    } catch (err) {
      down(err);
    }
  };
  app.addHook('onClose', async () => {
    closing = true;
    if (retry) clearTimeout(retry);
    const c = conn;
    cache.setActive(false);
    conn = null;
    if (c) {
      c.removeAllListeners();
      c.on('error', () => undefined);
      await c.end().catch(() => undefined);
    }
  });
  await connect();
}
