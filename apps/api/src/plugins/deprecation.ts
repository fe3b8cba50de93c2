import fp from 'fastify-plugin';

/**
 * Routes marked for removal (`config.deprecated`) answer every call — errors included, 401s too —
 * with `Deprecation: @<unix seconds>` (RFC 9745) and `Sunset: <HTTP date>` (RFC 8594), plus a
 * `Link: <…>; rel="deprecation"` when the route names one. Added in `onSend` so no early refusal
 * can skip them. The OpenAPI entry says `deprecated: true` (plugins/openapi.ts).
 */
export default fp(
  async (app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      const d = request.routeOptions.config?.deprecated;
      if (!d) return payload;
      reply.header('deprecation', `@${Math.floor(d.since.getTime() / 1000)}`);
      reply.header('sunset', d.sunset.toUTCString());
      if (d.link) reply.header('link', `<${d.link}>; rel="deprecation"`);
      return payload;
    });
  },
  { name: 'deprecation' },
);
