import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { Config } from './config';

/**
 * OpenTelemetry traces of one process (decision 0263): the SDK's tracer provider exporting over
 * OTLP/HTTP, and the instrumentations of what the process talks to — incoming and outgoing HTTP
 * (the API's requests, webhook attempts, the billing provider's SDK), fetch (undici) and
 * PostgreSQL (pg). Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then nothing is patched and
 * no span is made.
 *
 * The instrumentations patch `pg` and `http` as they are required, so `startTracing` runs first
 * thing in a process, before the modules that load them (each process's `instrument.ts`, the
 * first import of its entry point; CommonJS runs imports in order, compiled or under tsx).
 */
export interface Tracing {
  /** Where the workflow spans the worker's sink receives go (the same exporter as the rest). */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Exports what is still buffered, then stops. */
  shutdown: () => Promise<void>;
}

export type TracingConfig = Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME' | 'TRACE_SAMPLE_RATIO'>;

export function tracingEnabled(config: Partial<TracingConfig>): boolean {
  return Boolean(config.OTEL_EXPORTER_OTLP_ENDPOINT);
}

/** Probes, scrapes and static files: many, alike and not worth a trace. */
export function untracedPath(url: string): boolean {
  const path = url.split('?', 1)[0];
  return (
    path === '/healthz' ||
    path === '/readyz' ||
    path === '/metrics' ||
    path.startsWith('/static/') ||
    /\.(css|js|svg|png|ico|woff2?)$/.test(path)
  );
}
