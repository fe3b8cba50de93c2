import { tracingEnabled, type Tracing, type TracingConfig } from './tracing-config';

export { tracingEnabled, untracedPath, type Tracing, type TracingConfig } from './tracing-config';

let started: Tracing | null = null;

/**
 * The process's tracing, started once; null when not configured. The SDK and its instrumentations
 * (several MiB) load only then: a process without tracing never requires them. Synchronous on
 * purpose: it runs before the app's modules require `pg` and `http`, which it patches.
 */
export function startTracing(config: TracingConfig, defaultServiceName: string): Tracing | null {
  if (started) return started;
  if (!tracingEnabled(config)) return null;
  const { startTracingSdk } = require('./tracing-sdk') as typeof import('./tracing-sdk');
  started = startTracingSdk(config, defaultServiceName);
  return started;
}
