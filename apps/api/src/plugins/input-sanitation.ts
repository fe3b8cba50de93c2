import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { ValidationError } from '#lib/errors';

/** C0 controls and DEL: never part of a path segment or a query value. */
const CONTROL_STRICT = /[\u0000-\u001f\u007f]/;
/** In bodies tab, line feed and carriage return are text (descriptions, notes); the rest are not. */
const CONTROL_BODY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Deeper than any schema of ours; a deeper body is refused by the schema anyway. */
const MAX_DEPTH = 32;

/** The path (`body.a.0.b`) of the first string — value or key — with a control character, or null. */
export function findControlCharacter(value: unknown, where: string, strict: boolean, depth = 0): string | null {
  const re = strict ? CONTROL_STRICT : CONTROL_BODY;
  if (typeof value === 'string') return re.test(value) ? where : null;
  if (!value || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : Object.entries(value as Record<string, unknown>);
  for (const [k, v] of entries) {
    if (re.test(k)) return `${where}.${k.replace(/[\u0000-\u001f\u007f]/g, '?')}`;
    const found = findControlCharacter(v, `${where}.${k}`, strict, depth + 1);
    if (found) return found;
  }
  return null;
}

const refuse = (path: string) =>
  new ValidationError(`Invalid request: ${path}: contains a control character`, [
    { path, message: 'must not contain control characters (NUL, U+0001–U+001F, U+007F)' },
  ]);

/**
 * Input sanitation once, at the edge (decision 0162), for every route — the API, the public
 * discovery routes and the web pages alike: a control character in a path parameter, a query value
 * or a body string is a 400 VALIDATION naming the field, before authentication, idempotency or any
 * handler (PostgreSQL rejects NUL in text, which used to surface as a 500). Registered before the
 * auth and idempotency plugins so its hooks run first.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', async (request) => {
      const bad =
        findControlCharacter(request.params, 'params', true) ?? findControlCharacter(request.query, 'query', true);
      if (bad) throw refuse(bad);
    });
    app.addHook('preValidation', async (request) => {
      const bad = findControlCharacter(request.body, 'body', false);
      if (bad) throw refuse(bad);
    });
  },
  { name: 'input-sanitation', dependencies: ['errors'] },
);

/** Longest URL excerpt echoed in an error message. */
const URL_EXCERPT = 80;

/**
 * Errors Fastify answers before any route or hook runs (Fastify's `frameworkErrors` option): a path
 * parameter over the router's maximum length (414) and a malformed percent-encoding (400) leave in
 * our envelope instead of Fastify's own body.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const url = request.raw.url ?? '';
  const excerpt = url.length > URL_EXCERPT ? `${url.slice(0, URL_EXCERPT)}…` : url;
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.code(414).send({
      error: `A path segment of ${excerpt} is too long`,
      code: 'URI_TOO_LONG',
      details: { max_param_length: MAX_PARAM_LENGTH },
    });
    return;
  }
  if (err.code === 'FST_ERR_BAD_URL') {
    void reply.code(400).send({
      error: `Invalid request: ${excerpt} is not a valid URL`,
      code: 'VALIDATION',
      details: { issues: [{ path: 'url', message: 'malformed percent-encoding' }] },
    });
    return;
  }
  void reply
    .code(err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400)
    .send({ error: err.message, code: 'BAD_REQUEST' });
}

/** The router's limit on one path parameter (Fastify's default; ids and slugs are far shorter). */
export const MAX_PARAM_LENGTH = 100;

/**
 * HTTP-level parse errors (before Fastify has a request: header too large, malformed request line)
 * still answer in the envelope, and the connection is closed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(
    status === 431
      ? { error: 'Request headers are too large', code: 'HEADERS_TOO_LARGE' }
      : status === 408
        ? { error: 'Request timed out', code: 'REQUEST_TIMEOUT' }
        : { error: 'Malformed HTTP request', code: 'BAD_REQUEST' },
  );
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nContent-Type: ` +
      `application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: ` +
      `close\r\n\r\n${body}`,
  );
}
