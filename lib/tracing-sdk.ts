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
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { loggableUrl } from './logger';
import { untracedPath, type Tracing, type TracingConfig } from './tracing-config';

/** The OpenTelemetry SDK of this process (lib/tracing.ts's startTracing loads this module only when tracing is on). */
export function startTracingSdk(config: TracingConfig, defaultServiceName: string): Tracing {
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
  return {
    spanProcessor,
    resource,
    shutdown: async () => {
      await provider.shutdown();
    },
  };
}

function redactIncomingUrl(span: Span, req: IncomingMessage): void {
  const url = req.url ?? '/';
  const safe = loggableUrl(url);
  if (safe === url) return;
  span.setAttribute('http.target', safe);
  const host = req.headers.host;
  if (host) span.setAttribute('http.url', `http://${host}${safe}`);
}
