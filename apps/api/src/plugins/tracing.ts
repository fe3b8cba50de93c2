import fp from 'fastify-plugin';
import { trace } from '@opentelemetry/api';
import { tracingEnabled } from '#lib/tracing';

/**
 * Names the request's span (made by the HTTP instrumentation when tracing is on, decision 0263)
 * after its route pattern — `POST /api/v1/queue/join`, `GET /api/v1/matches/:id` — never the URL,
 * so names carry no ids and stay few. Unmatched requests are `GET (unmatched)`. Without tracing
 * (OTEL_EXPORTER_OTLP_ENDPOINT unset) there is no span to name: no hook.
 */
export default fp(
  async (app) => {
    if (!tracingEnabled(app.config)) return;
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
