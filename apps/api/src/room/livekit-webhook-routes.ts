import type { FastifyPluginAsync } from 'fastify';

/**
 * `POST /livekit/webhook` (outside /api/v1: the LiveKit server calls it, not our API clients, so it
 * is not in the OpenAPI document). LiveKit signs the exact body it sends (`Authorization`: a JWT
 * carrying the body's SHA-256), so this scope takes the body as text for the SDK's
 * WebhookReceiver. Only with VIDEO_PROVIDER=livekit; participant events feed the room's presence.
 */
const liveKitWebhookRoutes: FastifyPluginAsync = async (app) => {
  const liveKit = app.services.room.liveKit;
  if (!liveKit) return;
  for (const type of ['application/webhook+json', 'application/json']) {
    app.removeContentTypeParser(type);
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
  }
  app.addHook('onRoute', (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });
  app.post('/livekit/webhook', async (request) => {
    const auth = request.headers.authorization;
    const result = await liveKit.webhook(typeof request.body === 'string' ? request.body : '', auth);
    request.log.info(
      result,
      `LiveKit webhook: ${result.outcome}${'matchId' in result ? ` [matchId=${result.matchId}]` : ''}`,
    );
    return { ok: true };
  });
};
export default liveKitWebhookRoutes;
