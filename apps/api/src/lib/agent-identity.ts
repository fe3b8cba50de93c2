import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../../../../lib/errors';

const FORM = /^[^\s/()]+\/[^\s()]+ \([^()]+\)$/;

/**
 * `X-Agent-Identity`: at most 200 characters, form `<vendor>/<product> (<contact>)`.
 * Absent → the token's friendly name stands in (the entry is still marked as joined via agent,
 * since a token, not a browser session, made the call).
 */
export function agentIdentityOf(request: FastifyRequest, tokenName: string): string {
  const raw = request.headers['x-agent-identity'];
  if (raw === undefined) return tokenName;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (value.length > 200) throw new ValidationError('X-Agent-Identity is longer than 200 characters', [{ path: 'headers.x-agent-identity', message: 'at most 200 characters' }]);
  if (!FORM.test(value)) {
    throw new ValidationError('X-Agent-Identity must have the form <vendor>/<product> (<contact>)', [{ path: 'headers.x-agent-identity', message: 'expected <vendor>/<product> (<contact>), e.g. acme/jobbot (ops@acme.example)' }]);
  }
  return value;
}
