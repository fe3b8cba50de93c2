import fp from 'fastify-plugin';

/**
 * Routes marked for removal answer every call with `Deprecation: @<unix seconds>` (RFC 9745)
 * and `Sunset: <HTTP date>` (RFC 8594), plus a Link to the changelog when given.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      const d = request.routeOptions.config?.deprecated;
      if (!d) return;
      reply.header('deprecation', `@${Math.floor(d.since.getTime() / 1000)}`);
      reply.header('sunset', d.sunset.toUTCString());
      if (d.link) reply.header('link', `<${d.link}>; rel="deprecation"`);
    });
  },
  { name: 'deprecation' },
);
