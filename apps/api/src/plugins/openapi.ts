import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { errorEnvelopeSchema } from '../lib/http-schemas';
import { SCOPES, RECRUITER_SCOPES } from '../../../../lib/scopes';
import type { Config } from '../../../../lib/config';

export const API_PREFIX = '/api/v1';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'VALIDATION: the request failed validation (details.issues names each problem)',
  401: 'UNAUTHENTICATED: missing, malformed, unknown, expired or revoked token (no rate-limit bucket exists for an unknown token, so no rate-limit headers)',
  403: 'INSUFFICIENT_SCOPE: the token lacks the scope (details.required_scope)',
  404: 'NOT_FOUND: the resource does not exist or belongs to another tenant',
  409: 'Conflict with the current state (code names the rule)',
  422: 'IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with a different request',
  429: 'RATE_LIMITED: the rate class is exhausted; see Retry-After',
  503: 'DEPENDENCY_UNAVAILABLE: an upstream dependency is down; safe to retry after Retry-After',
};

/**
 * OpenAPI 3.1 generated from the same zod schemas that validate requests and serialise
 * responses. Route conventions (scopes, rate classes, error envelope, headers) are added
 * here once instead of in every route.
 */
export default fp<{ config: Config }>(
  async (app, opts) => {
    // Every /api/v1 route gets the error envelope for the statuses its conventions can produce.
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith(API_PREFIX)) return;
      const cfg = route.config ?? {};
      const schema = (route.schema ??= {});
      const response = ((schema as { response?: Record<string, unknown> }).response ??= {});
      const statuses = [400, 404, 503];
      if (cfg.scope) statuses.push(401, 403, 429);
      if (cfg.rateClass && !cfg.scope) statuses.push(429);
      const mutating = ['POST', 'PATCH', 'PUT', 'DELETE'].includes(String(route.method));
      if (cfg.scope && (cfg.idempotent ?? mutating)) statuses.push(409, 422);
      for (const s of statuses) response[s] ??= errorEnvelopeSchema;
      if (cfg.scope) (schema as { security?: unknown }).security = [{ bearerAuth: [cfg.scope] }];
      else (schema as { security?: unknown }).security = [];
      if (cfg.deprecated) (schema as { deprecated?: boolean }).deprecated = true;
      const desc = (schema as { description?: string }).description ?? '';
      const extra = [
        cfg.scope ? `Scope: \`${cfg.scope}\`.` : 'Public: no authentication.',
        cfg.rateClass ? `Rate class: ${cfg.rateClass}.` : '',
        cfg.scope && (cfg.idempotent ?? mutating) ? 'Accepts `Idempotency-Key` (UUID v4).' : '',
      ].filter(Boolean);
      (schema as { description?: string }).description = [desc, extra.join(' ')].filter(Boolean).join('\n\n');
    });

    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Job-Fair Matching Service API',
          version: '1.0.0',
          description:
            'REST API v1. Bearer personal access tokens (`svc_…`) with scopes; every non-2xx answer is `{ error, code, details? }`. Humans accept matches and enter rooms only in the web application.',
        },
        servers: [{ url: opts.config.publicBaseUrl }],
        components: {
          securitySchemes: {
            bearerAuth: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'svc_ personal access token',
              description: `Scopes: ${SCOPES.map((s) => (RECRUITER_SCOPES.has(s) ? `${s} (recruiter)` : s)).join(', ')}`,
            },
          },
        },
      },
      transform: createJsonSchemaTransform({ skipList: [] }),
      transformObject: (documentObject) => {
        const doc = createJsonSchemaTransformObject({})(documentObject) as OpenAPIV3_1.Document;
        return decorateDocument(doc);
      },
    });
  },
  { name: 'openapi' },
);

const RATE_HEADERS: Record<string, OpenAPIV3_1.HeaderObject> = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute in this route\'s rate class', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left before the limit applies', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) when the bucket is full again', schema: { type: 'integer' } },
};

/** Adds the rate-limit and Retry-After headers to every response of authenticated operations. */
function decorateDocument(doc: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  doc.components ??= {};
  doc.components.headers = {
    ...(doc.components.headers ?? {}),
    ...RATE_HEADERS,
    'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith(API_PREFIX)) continue;
    for (const method of ['get', 'post', 'patch', 'put', 'delete'] as const) {
      const op = item?.[method] as OpenAPIV3_1.OperationObject | undefined;
      if (!op?.responses) continue;
      const authed = (op.security ?? []).length > 0;
      for (const [status, res] of Object.entries(op.responses)) {
        const r = res as OpenAPIV3_1.ResponseObject;
        const code = Number(status);
        if (ERROR_DESCRIPTIONS[code] && (!r.description || r.description === 'Default Response')) r.description = ERROR_DESCRIPTIONS[code];
        r.headers ??= {};
        if (authed && code !== 401) for (const h of Object.keys(RATE_HEADERS)) r.headers[h] = { $ref: `#/components/headers/${h}` };
        if (code === 429 || code === 503) r.headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
        if (Object.keys(r.headers).length === 0) delete r.headers;
      }
    }
  }
  return doc;
}
