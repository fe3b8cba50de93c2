import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '#lib/errors';
import type { ErrorEnvelope } from './http-schemas';

interface Mapped {
  status: number;
  body: ErrorEnvelope;
  headers?: Record<string, string>;
}

const CONTEXT_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
};

/**
 * fastify-type-provider-zod turns each zod issue into `{ keyword: issue.code, instancePath:
 * '/a/0/b', message, params: { ...issue minus path/code/message } }`; Fastify adds
 * `validationContext` (body, querystring, params, headers). We name the place as
 * `body.a.0.b`; an unknown property (zod's `unrecognized_keys`, reported on the parent object
 * with `params.keys`) becomes one issue per key whose path names the property itself.
 */
export function zodIssuesToDetails(err: {
  validation?: unknown[];
  validationContext?: string;
}): Array<{ path: string; message: string }> {
  const where = CONTEXT_NAMES[err.validationContext ?? 'body'] ?? err.validationContext ?? 'body';
  return (err.validation ?? []).flatMap((v) => {
    const entry = v as { keyword?: string; instancePath?: string; message?: string; params?: { keys?: unknown } };
    const base = (entry.instancePath ?? '').split('/').filter((s) => s !== '');
    const keys = Array.isArray(entry.params?.keys) ? entry.params.keys.map(String) : [];
    if (entry.keyword === 'unrecognized_keys' && keys.length) {
      return keys.map((k) => ({
        path: [where, ...base, k].join('.'),
        message: `unknown property '${k}' is not allowed`,
      }));
    }
    return [{ path: [where, ...base].join('.'), message: entry.message ?? 'invalid' }];
  });
}

/**
 * The Temporal client's gRPC channel closed under a request in flight: the API (or its connection) is
 * shutting down. grpc-js throws a plain `Error`, sometimes wrapped as a cause by the Temporal client.
 * The client should retry on another instance, so it is a 503 with Retry-After, never a 500.
 */
export function isClientShutDown(err: unknown): boolean {
  for (let e = err as { message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.message === 'string' && /Channel has been shut down/.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * Temporal's WorkflowNotReady (gRPC FAILED_PRECONDITION): the workflow's last task failed or timed
 * out (an overloaded worker) and the server retries it; an Update cannot be delivered until then.
 * Transient, so a 503 with Retry-After.
 */
export function isWorkflowNotReady(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  return [e, e?.cause].some(
    (x) => x?.code === 9 && typeof x.message === 'string' && /Workflow Task in failed state/.test(x.message),
  );
}

function isDependencyDown(err: unknown): boolean {
  if (isClientShutDown(err) || isWorkflowNotReady(err)) return true;
  const e = err as { code?: unknown; name?: string; message?: string };
  // gRPC UNAVAILABLE (14) / DEADLINE_EXCEEDED (4) from Temporal; connection errors from pg.
  // KnexTimeoutError: no pooled PostgreSQL connection within acquireConnectionTimeout (overload or outage).
  // WorkflowUpdateRPCTimeoutOrCancelledError: an Update call that missed its deadline (decision 0180).
  if (
    ['ServiceError', 'ConnectionError', 'KnexTimeoutError', 'WorkflowUpdateRPCTimeoutOrCancelledError'].includes(
      e?.name ?? '',
    )
  )
    return true;
  if (typeof e?.code === 'number' && (e.code === 14 || e.code === 4)) return true;
  return (
    typeof e?.code === 'string' &&
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001'].includes(e.code)
  );
}

export function mapError(err: unknown, request: FastifyRequest): Mapped {
  if (err instanceof AppError) {
    return {
      status: err.status,
      body: { error: err.message, code: err.code, ...(err.details ? { details: err.details } : {}) },
      headers: err.headers,
    };
  }
  const fe = err as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (hasZodFastifySchemaValidationErrors(fe)) {
    const issues = zodIssuesToDetails(fe);
    const first = issues[0];
    return {
      status: 400,
      body: {
        error: first ? `Invalid request: ${first.path}: ${first.message}` : 'Invalid request',
        code: 'VALIDATION',
        details: { issues },
      },
    };
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return { status: 413, body: { error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' } };
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return {
      status: 415,
      body: {
        error: `Unsupported content type ${request.headers['content-type'] ?? ''}; send application/json`,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
    };
  if (
    fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    (fe.statusCode === 400 && err instanceof SyntaxError)
  ) {
    return {
      status: 400,
      body: {
        error: 'Request body is not valid JSON',
        code: 'VALIDATION',
        details: { issues: [{ path: 'body', message: fe.message }] },
      },
    };
  }
  if (isDependencyDown(err)) {
    return {
      status: 503,
      body: { error: 'A dependency is unavailable; retry later', code: 'DEPENDENCY_UNAVAILABLE' },
      headers: { 'retry-after': '5' },
    };
  }
  if (
    typeof fe.statusCode === 'number' &&
    fe.statusCode >= 400 &&
    fe.statusCode < 500 &&
    !isResponseSerializationError(fe)
  ) {
    // Fastify's own 4xx (bad Content-Length, unsupported method on a route…): keep the message, a stable code.
    return {
      status: fe.statusCode,
      body: { error: fe.message, code: fe.statusCode === 404 ? 'NOT_FOUND' : 'BAD_REQUEST' },
    };
  }
  return { status: 500, body: { error: 'Internal error; it has been logged', code: 'INTERNAL' } };
}

/** One error handler: every non-2xx leaves in the envelope `{ error, code, details? }`; 5xx never leak internals. */
export default fp(
  async (app) => {
    app.setErrorHandler((err, request, reply: FastifyReply) => {
      const mapped = mapError(err, request);
      if (mapped.status >= 500) request.log.error({ err }, 'request failed');
      else request.log.info({ code: mapped.body.code }, 'request refused');
      if (mapped.headers) reply.headers(mapped.headers);
      return reply.code(mapped.status).send(mapped.body);
    });
    app.setNotFoundHandler((request, reply) => {
      return reply
        .code(404)
        .send({ error: `No route ${request.method} ${request.url.split('?')[0]}`, code: 'NOT_FOUND' });
    });
  },
  { name: 'errors' },
);
