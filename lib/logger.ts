import pino, { type Logger } from 'pino';
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
];

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, name: string): Logger {
  return pino({ name, level: config.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
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
export const requestSerializer = (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
  method: req.method,
  url: loggableUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});
