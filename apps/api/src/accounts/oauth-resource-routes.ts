import type { FastifyPluginAsync } from 'fastify';
import { SCOPES } from '#lib/scopes';
import { PROTECTED_RESOURCES, resourceMetadataUrl, type ProtectedResource } from '../plugins/auth';

const NAMES: Record<ProtectedResource, string> = {
  '/api/v1': 'Job fair REST API',
  '/mcp': 'Job fair MCP server',
};

/**
 * RFC 9728 protected resource metadata: what a client reads after a 401 (the `resource_metadata`
 * of its `WWW-Authenticate`) to learn which authorization server issues tokens for the resource and
 * which scopes exist. One document per resource (`/api/v1`, `/mcp`) at the path-suffixed address,
 * and one for the whole service at the bare well-known address. Bearer tokens in the
 * `Authorization` header only (never in a query string or form body). Public, cacheable, readable
 * from any origin (browser-based agents fetch it cross-origin).
 */
export function protectedResourceMetadata(publicBaseUrl: string, resource: ProtectedResource | null) {
  return {
    resource: `${publicBaseUrl}${resource ?? ''}`,
    authorization_servers: [publicBaseUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: resource ? NAMES[resource] : 'Job fair',
    resource_documentation: `${publicBaseUrl}/docs/agents.md`,
  };
}

const oauthResourceRoutes: FastifyPluginAsync = async (app) => {
  for (const resource of [null, ...PROTECTED_RESOURCES]) {
    app.get(
      resourceMetadataUrl('', resource),
      // Not an /api/v1 operation: described in docs/api.md and the agent guide.
      { schema: { hide: true } },
      async (_request, reply) => {
        reply
          .header('cache-control', 'public, max-age=3600')
          .header('access-control-allow-origin', '*')
          .header('content-type', 'application/json; charset=utf-8');
        return protectedResourceMetadata(app.config.publicBaseUrl, resource);
      },
    );
  }
};
export default oauthResourceRoutes;
