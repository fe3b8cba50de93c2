import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import type { Span } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Config } from './config';
import { loggableUrl } from './logger';

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

let started: Tracing | null = null;

/** The process's tracing, started once; null when not configured. */
export function startTracing(config: TracingConfig, defaultServiceName: string): Tracing | null {
  if (started) return started;
  if (!tracingEnabled(config)) return null;
  const resource = new Resource({
    [ATTR_SERVICE_NAME]: config.OTEL_SERVICE_NAME ?? defaultServiceName,
    // Which replica: two APIs behind the load balancer are one service, two processes.
    'service.instance.id': `${os.hostname()}:${process.pid}`,
  });
  const exporter = new OTLPTraceExporter({
    url: `${config.OTEL_EXPORTER_OTLP_ENDPOINT!.replace(/\/$/, '')}/v1/traces`,
  });
  const spanProcessor = new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 });
  const provider = new NodeTracerProvider({
    resource,
    // The caller's decision wins (a traced client keeps its trace whole); new traces are sampled at the ratio.
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.TRACE_SAMPLE_RATIO) }),
    spanProcessors: [spanProcessor],
  });
  // AsyncLocalStorage context and the W3C traceparent propagator (the defaults of `register`).
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => untracedPath(req.url ?? '/'),
        // Outgoing calls only inside a trace: a webhook attempt in its activity, a billing call in a
        // request; not the worker's own scrape of the SDK's metrics port.
        requireParentforOutgoingSpans: true,
        requestHook: (span, req) => {
          // Secrets travel in some URLs (invite tokens, room tokens): the span keeps the masked form.
          if ('socket' in req && (req as IncomingMessage).url !== undefined)
            redactIncomingUrl(span, req as IncomingMessage);
        },
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // Statement text only (knex binds every value as $n): no parameters (`enhancedDatabaseReporting`
      // stays off), and only inside a trace — the background polls would each be a trace of their own.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    ],
  });
  started = {
    spanProcessor,
    resource,
    shutdown: async () => {
      await provider.shutdown();
    },
  };
  return started;
}

function redactIncomingUrl(span: Span, req: IncomingMessage): void {
  const url = req.url ?? '/';
  const safe = loggableUrl(url);
  if (safe === url) return;
  span.setAttribute('http.target', safe);
  const host = req.headers.host;
  if (host) span.setAttribute('http.url', `http://${host}${safe}`);
}
