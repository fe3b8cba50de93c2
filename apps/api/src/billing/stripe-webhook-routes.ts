import type { FastifyPluginAsync } from 'fastify';

/**
 * `POST /stripe/webhook` (outside /api/v1: Stripe calls it, not our API clients, so it is not in the
 * OpenAPI document). The signature covers the exact bytes Stripe sent, so this scope parses JSON
 * bodies as a raw Buffer for `stripe.webhooks.constructEvent`.
 */
const stripeWebhookRoutes: FastifyPluginAsync = async (app) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
    done(null, body),
  );
  app.addHook('onRoute', (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });
  app.post('/stripe/webhook', async (request) => {
    const sig = request.headers['stripe-signature'];
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
    return app.services.billing.stripeWebhook(raw, typeof sig === 'string' ? sig : undefined);
  });
};
export default stripeWebhookRoutes;
