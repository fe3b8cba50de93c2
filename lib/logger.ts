import pino, { type Logger } from 'pino';
import type { Config } from './config';

/** Secrets never reach the log: tokens, signatures, passwords, cookies. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers["svc-signature"]',
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
