import fp from 'fastify-plugin';
import { Client } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import { lazyClosable } from '#lib/temporal-connection';
import type { Config } from '#lib/config';
import { tracingEnabled } from '#lib/tracing';

declare module 'fastify' {
  interface FastifyInstance {
    temporal: Client;
  }
}

/** Longest pause between retries of one call, and longest channel reconnect backoff (decision 0180). */
const MAX_RETRY_DELAY_MS = 1_000;

/**
 * The Temporal client. Connects lazily so the API can start (and /readyz can say 503)
 * while Temporal is still coming up. Every call it makes has a deadline, set here once
 * (`TEMPORAL_CALL_TIMEOUT_MS`, decision 0180): a call that misses it fails, the error handler
 * answers 503 DEPENDENCY_UNAVAILABLE and the idempotency plugin frees the request's key.
 */
export default fp<{ config: Config; temporal?: Client }>(
  async (app, opts) => {
    if (opts.temporal) {
      app.decorate('temporal', opts.temporal);
      return;
    }
    if (!opts.config.TEMPORAL_ADDRESS) throw new Error('TEMPORAL_ADDRESS is required for the API');
    const { connection, close } = lazyClosable({
      address: opts.config.TEMPORAL_ADDRESS,
      deadlines: { callTimeoutMs: opts.config.TEMPORAL_CALL_TIMEOUT_MS, maxRetryDelayMs: MAX_RETRY_DELAY_MS },
    });
    app.decorate(
      'temporal',
      new Client({
        connection,
        namespace: opts.config.TEMPORAL_NAMESPACE,
        // With tracing on, each call is a span and carries the trace to the workflow in its headers (decision 0263).
        ...(tracingEnabled(opts.config)
          ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } }
          : {}),
      }),
    );
    app.addHook('onClose', close);
  },
  { name: 'temporal' },
);
