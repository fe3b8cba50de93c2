import fp from 'fastify-plugin';
import { trace } from '@opentelemetry/api';

/**
 * Names the request's span (made by the HTTP instrumentation when tracing is on, decision 0263)
 * after its route pattern — `POST /api/v1/queue/join`, `GET /api/v1/matches/:id` — never the URL,
 * so names carry no ids and stay few. Unmatched requests are `GET (unmatched)`. Without tracing
 * there is no active span and the hook does nothing.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', async (request) => {
      const span = trace.getActiveSpan();
      if (!span) return;
      const route = request.routeOptions.url;
      span.updateName(`${request.method} ${route ?? '(unmatched)'}`);
      if (route) span.setAttribute('http.route', route);
    });
  },
  { name: 'tracing' },
);
