import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JaegerTrace, RunningTraceStore } from '#dev/trace-store';

/**
 * A stand-in for the trace store when no Jaeger build is at hand (JOBFAIR_TEST_JAEGER_BIN unset and
 * none cached): an OTLP/HTTP receiver (JSON, what the OTLP/HTTP exporter sends) that keeps spans in
 * memory and answers the part of Jaeger's query API the tracing test reads (search by service and
 * operation, a trace by id) in Jaeger's shapes. What it proves is the processes' side: the spans
 * and their trace ids as exported.
 */
interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: Array<{ key: string; value: OtlpValue }>;
}
interface OtlpRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

const tags = (a: OtlpSpan['attributes']) =>
  (a ?? []).map((x) => ({ key: x.key, value: Object.values(x.value ?? {})[0] as unknown }));

export async function startOtlpReceiver(): Promise<RunningTraceStore> {
  const spans: Array<OtlpSpan & { service: string }> = [];
  const asTrace = (traceId: string): JaegerTrace => {
    const own = spans.filter((s) => s.traceId === traceId);
    return {
      traceID: traceId,
      processes: Object.fromEntries(own.map((s) => [s.service, { serviceName: s.service }])),
      spans: own.map((s) => ({
        traceID: traceId,
        spanID: s.spanId,
        operationName: s.name,
        processID: s.service,
        references: s.parentSpanId ? [{ refType: 'CHILD_OF', spanID: s.parentSpanId }] : [],
        startTime: Number(BigInt(s.startTimeUnixNano) / 1000n),
        duration: Number((BigInt(s.endTimeUnixNano) - BigInt(s.startTimeUnixNano)) / 1000n),
        tags: tags(s.attributes),
      })),
    };
  };
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const parsed = JSON.parse(body || '{}') as OtlpRequest;
      for (const rs of parsed.resourceSpans ?? []) {
        const service = String(tags(rs.resource?.attributes).find((t) => t.key === 'service.name')?.value ?? '?');
        for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push({ ...s, service });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const query = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    res.setHeader('content-type', 'application/json');
    const byId = /^\/api\/traces\/([0-9a-f]+)$/.exec(url.pathname);
    if (url.pathname === '/api/traces') {
      const ids = new Set(
        spans
          .filter((s) => s.service === url.searchParams.get('service') && s.name === url.searchParams.get('operation'))
          .map((s) => s.traceId),
      );
      res.end(JSON.stringify({ data: [...ids].map(asTrace) }));
    } else if (byId && spans.some((s) => s.traceId === byId[1])) {
      res.end(JSON.stringify({ data: [asTrace(byId[1])] }));
    } else {
      res.writeHead(404).end('{"data":null}');
    }
  });
  const listen = (s: http.Server) =>
    new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));
  const otlpPort = await listen(receiver);
  const queryPort = await listen(query);
  return {
    otlpUrl: `http://127.0.0.1:${otlpPort}`,
    queryUrl: `http://127.0.0.1:${queryPort}`,
    output: () => `${spans.length} spans received`,
    stop: async () => {
      for (const s of [receiver, query]) await new Promise<void>((r) => s.close(() => r()));
    },
  };
}
