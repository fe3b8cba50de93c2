import { loadConfig } from '#lib/config';
import { startTracing, type Tracing } from '#lib/tracing';

/**
 * The API's tracing (decision 0263), started when this module loads: the first import of
 * server.ts, so the instrumentations are in place before the app's modules require `pg` and
 * `http`. Null when OTEL_EXPORTER_OTLP_ENDPOINT is unset, or when the configuration is invalid
 * (main() then reports every bad variable).
 */
export const tracing: Tracing | null = (() => {
  try {
    return startTracing(loadConfig(), 'jobfair-api');
  } catch {
    return null;
  }
})();
