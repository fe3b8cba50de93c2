import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { InsufficientScopeError, UnauthenticatedError } from '../../../../lib/errors';
import { hasValidChecksum, hashToken } from '../../../../lib/tokens';
import type { Config } from '../../../../lib/config';
import { parseAgentIdentity } from '../lib/agent-identity';
import { type UserRole } from '../../../../db/accounts/accounts-repository';

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
    /** Resolves an `Authorization: Bearer svc_…` header to the caller, or throws 401 UNAUTHENTICATED. */
    authenticateBearer: (header: string | undefined, log: FastifyRequest['log']) => Promise<AuthContext>;
  }
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
    const { tokens, accounts } = app.services.deps.repos;
    app.decorateRequest('auth', null);
    app.decorateRequest('agentIdentity', null);

    const scopeAndIdentity = async (request: FastifyRequest) => {
      assertScope(request);
      request.agentIdentity = parseAgentIdentity(request.headers['x-agent-identity']);
    };
    app.addHook('onRoute', (route) => {
      const cfg = route.config ?? {};
      if (!cfg.scope) return;
      if (!cfg.rateClass) throw new Error(`${String(route.method)} ${route.url} declares scope ${cfg.scope} but no rateClass; every authenticated route needs one (read, write, cost)`);
      const own = route.preValidation ? (Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation]) : [];
      route.preValidation = [scopeAndIdentity, ...own];
    });

    /** Header → caller, or 401. Also used by the MCP endpoint, which has no scope of its own. */
    const authenticateBearer = async (header: string | undefined, log: FastifyRequest['log']): Promise<AuthContext> => {
      if (!header) throw new UnauthenticatedError('Missing Authorization header; send Authorization: Bearer svc_…');
      const m = /^Bearer +(\S+) *$/i.exec(header);
      if (!m) throw new UnauthenticatedError('Malformed Authorization header; expected Authorization: Bearer svc_…');
      const token = m[1];
      // The checksum lets us refuse typos and random strings without a database round trip.
      if (!hasValidChecksum(token)) throw new UnauthenticatedError('The bearer token is not a valid svc_ token');
      // Token and owner's role in one query (issue 17: one round trip fewer on every authenticated request).
      const row = await tokens.findByHashWithRole(hashToken(token));
      if (!row) throw new UnauthenticatedError('The bearer token is unknown');
      if (row.revoked_at) throw new UnauthenticatedError('The bearer token has been revoked');
      if (row.expires_at && row.expires_at.getTime() <= Date.now()) throw new UnauthenticatedError('The bearer token has expired');
      if (!row.user_role) throw new UnauthenticatedError('The bearer token is unknown');
      const user = { id: row.user_id, role: row.user_role };
      const membership = user.role === 'recruiter' ? await accounts.findMembership(user.id) : undefined;
      // Throttled: at most one write per token per TOKEN_LAST_USED_THROTTLE_MS (checked here on the
      // row just read, and again in the UPDATE's WHERE so concurrent replicas do not all write).
      const lastUsed = row.last_used_at?.getTime() ?? 0;
      if (Date.now() - lastUsed >= opts.config.TOKEN_LAST_USED_THROTTLE_MS) {
        tokens.touchLastUsed(row.id, opts.config.TOKEN_LAST_USED_THROTTLE_MS).catch((err) => log.warn({ err }, 'could not record token use'));
      }
      return {
        tokenId: row.id,
        tokenName: row.name,
        userId: user.id,
        role: user.role,
        teamId: membership?.team_id ?? null,
        scopes: new Set(row.scopes),
      };
    };
    app.decorate('authenticateBearer', authenticateBearer);

    app.addHook('onRequest', async (request) => {
      const scope = request.routeOptions.config?.scope;
      if (!scope) return;
      request.auth = await authenticateBearer(request.headers.authorization, request.log);
    });
  },
  { name: 'auth', dependencies: ['knex', 'services'] },
);
