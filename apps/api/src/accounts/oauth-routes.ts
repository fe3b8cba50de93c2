import type { FastifyPluginAsync, FastifyReply } from 'fastify';

/**
 * The OAuth authorization server's machine endpoints (decision 0260): RFC 8414 metadata, the
 * token endpoint and RFC 7591 dynamic registration. They answer in OAuth's own JSON
 * (`error`, `error_description`), not our envelope: OAuth clients parse these. The consent page
 * (`/oauth/authorize`) is a web page (oauth-pages.ts). Readable from any origin: browser-based
 * agents call them cross-origin, and nothing here uses cookies.
 */
const oauthRoutes: FastifyPluginAsync = async (app) => {
  const oauth = app.services.accounts.oauth;

  // The token endpoint takes application/x-www-form-urlencoded (RFC 6749 §3.2); this scope only.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_req, body, done) => {
      const out: Record<string, string> = {};
      // A repeated parameter is refused by the library as invalid; keep the first.
      for (const [k, v] of new URLSearchParams(String(body))) if (!(k in out)) out[k] = v;
      done(null, out);
    },
  );

  const cors = (reply: FastifyReply) =>
    reply.header('access-control-allow-origin', '*').header('content-type', 'application/json; charset=utf-8');

  app.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, async (_request, reply) => {
    cors(reply).header('cache-control', 'public, max-age=3600');
    return oauth.metadata();
  });

  // Unauthenticated writes: the per-IP budget of public routes (RATE_LIMIT_PUBLIC_PER_MIN), 429 beyond it.
  app.post('/oauth/token', { schema: { hide: true }, config: { rateClass: 'public' } }, async (request, reply) => {
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, string>;
    const answer = await oauth.token(request.headers, body);
    if (answer.status >= 400)
      request.log.info({ oauthError: answer.body.error, grantType: body.grant_type }, 'token request refused');
    return cors(reply).code(answer.status).headers(answer.headers).send(answer.body);
  });

  app.post('/oauth/register', { schema: { hide: true }, config: { rateClass: 'public' } }, async (request, reply) => {
    const answer = await oauth.register(request.body);
    return cors(reply).code(answer.status).headers(answer.headers).send(answer.body);
  });

  // Preflight for browser-based clients (JSON registration).
  for (const url of ['/oauth/token', '/oauth/register'])
    app.options(url, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', 'content-type')
        .code(204)
        .send(),
    );
};
export default oauthRoutes;
