import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import pino, { type Logger, type LoggerOptions } from 'pino';
import type { Config } from './config';

/** Secrets never reach the log: tokens, signatures, passwords, cookies. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers["svc-signature"]',
  'headers["webhook-signature"]',
  'password',
  'token',
  'secret',
  '*.password',
  '*.token',
  '*.secret',
  // Minted TURN credentials (the room's ICE servers) and the TURN shared secret.
  'credential',
  '*.credential',
  'iceServers[*].credential',
  '*.iceServers[*].credential',
  'ROOM_TURN_SECRET',
  '*.ROOM_TURN_SECRET',
  // The LiveKit secret (signs participant tokens, checks LiveKit's webhooks).
  'LIVEKIT_API_SECRET',
  '*.LIVEKIT_API_SECRET',
];

/** Readable lines on a terminal, JSON for machines (a pipe, a file, a log collector) or when asked. */
export function wantsPrettyLogs(
  config: Partial<Pick<Config, 'LOG_FORMAT'>>,
  stream: { isTTY?: boolean } = process.stdout,
): boolean {
  const format = config.LOG_FORMAT ?? 'auto';
  return format === 'pretty' || (format === 'auto' && stream.isTTY === true);
}

/** Fields a human at the terminal does not need on every line (they stay in JSON). */
const PRETTY_IGNORE = [
  'pid',
  'hostname',
  'name',
  'sdkComponent',
  'taskQueue',
  'namespace',
  'runId',
  'workflowId',
  'workflowRunId',
  'workflowType',
  'activityType',
  'activityId',
  'attempt',
  'isLocal',
  'reqId',
  'taskToken',
  'updateId',
  'updateName',
  // The trace id stays on the line (to look the trace up); the span is in the JSON.
  'span_id',
  'trace_flags',
];

/**
 * The pino mixin: `trace_id` and `span_id` of the span active where the line is logged, when
 * tracing is on (decision 0263) — the names the Temporal SDK's interceptors give activity log
 * lines. Nothing outside a trace, nothing when tracing is off (no span is ever active).
 */
export function traceLogFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const sc = span.spanContext();
  return isSpanContextValid(sc) ? { trace_id: sc.traceId, span_id: sc.spanId } : {};
}

export function createLogger(
  config: Pick<Config, 'LOG_LEVEL'> & Partial<Pick<Config, 'LOG_FORMAT'>>,
  name: string,
  options: LoggerOptions = {},
): Logger {
  const opts: LoggerOptions = {
    name,
    level: config.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    mixin: traceLogFields,
    ...options,
  };
  if (!wantsPrettyLogs(config)) return pino(opts);
  // Synchronous pretty stream in-process (no transport thread): lines keep their order with the
  // supervisor's own output, and nothing is lost at exit. Loaded only here: production logs JSON.
  const pinoPretty = require('pino-pretty') as typeof import('pino-pretty');
  const stream = pinoPretty({
    colorize: true,
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: PRETTY_IGNORE.join(','),
    messageFormat: '{if name}{name}: {end}{if workflowId}[{workflowId}] {end}{msg}',
    hideObject: false,
  });
  return pino(opts, stream);
}

const SECRET_QUERY_PARAMS = new Set(['t', 'token', 'secret', 'code', 'signature']);

/**
 * A URL as it may be logged: secrets that travel in URLs — invite tokens in the path, room tokens
 * in `?t=` — are masked; everything else stays for debugging.
 */
export function loggableUrl(url: string): string {
  const [path, query] = url.split('?', 2);
  const safePath = path.replace(/^\/invites\/[^/]+/, '/invites/[redacted]');
  if (query === undefined) return safePath;
  const params = new URLSearchParams(query);
  for (const k of [...params.keys()]) if (SECRET_QUERY_PARAMS.has(k.toLowerCase())) params.set(k, '[redacted]');
  return `${safePath}?${params.toString()}`;
}

/** Fastify's request serializer with `loggableUrl`. */
export const requestSerializer = (req: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) => ({
  method: req.method,
  url: loggableUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});

/**
 * The level of a request's log line: a human at the terminal sees what changed (writes, errors)
 * at `info`; reads, polls, static files and probes are `debug` (LOG_LEVEL=debug shows them);
 * 4xx of writes `info` too (a refused action is news), 5xx `warn` (the error handler logs the cause).
 */
export function requestLogLevel(method: string, url: string, status: number): 'debug' | 'info' | 'warn' {
  if (status >= 500) return 'warn';
  const path = url.split('?', 1)[0];
  if (
    path === '/healthz' ||
    path === '/readyz' ||
    path.startsWith('/static/') ||
    /\.(css|js|svg|png|ico|woff2?)$/.test(path)
  )
    return 'debug';
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return 'debug';
  return 'info';
}
