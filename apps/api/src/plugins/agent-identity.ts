import type { FastifyRequest } from 'fastify';
import { ValidationError } from '#lib/errors';

export const AGENT_IDENTITY_MAX = 200;
/** The form the server enforces; the OpenAPI document publishes this very pattern. */
export const AGENT_IDENTITY_FORM = /^[^\s/()]+\/[^\s()]+ \([^()]+\)$/;
const FORM = AGENT_IDENTITY_FORM;

/**
 * Parses an `X-Agent-Identity` header value: at most 200 characters, form
 * `<vendor>/<product> (<contact>)`. Absent → null; anything else → 400 VALIDATION naming the header.
 */
export function parseAgentIdentity(raw: string | string[] | undefined): string | null {
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (value.length > AGENT_IDENTITY_MAX) {
    throw new ValidationError(`X-Agent-Identity is longer than ${AGENT_IDENTITY_MAX} characters`, [
      { path: 'headers.x-agent-identity', message: `at most ${AGENT_IDENTITY_MAX} characters` },
    ]);
  }
  if (!FORM.test(value)) {
    throw new ValidationError('X-Agent-Identity must have the form <vendor>/<product> (<contact>)', [
      {
        path: 'headers.x-agent-identity',
        message: 'expected <vendor>/<product> (<contact>), e.g. acme/jobbot (ops@acme.example)',
      },
    ]);
  }
  return value;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The validated X-Agent-Identity of an authenticated request (null when absent); set by the auth plugin. */
    agentIdentity: string | null;
  }
}

/**
 * The identity to keep on agent-originated records: the header (validated on every authenticated
 * request by the auth plugin), or the token's friendly name when absent — a token, not a browser
 * session, made the call, so the record is still marked as joined via agent.
 */
export function agentIdentityOf(request: FastifyRequest, tokenName: string): string {
  return request.agentIdentity ?? parseAgentIdentity(request.headers['x-agent-identity']) ?? tokenName;
}
