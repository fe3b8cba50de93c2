import fp from 'fastify-plugin';
import { limitFor } from './rate-limit';
import swagger from '@fastify/swagger';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { errorEnvelopeSchema } from './http-schemas';
import { SCOPES, RECRUITER_SCOPES } from '#lib/scopes';
import type { Config } from '#lib/config';
import { AGENT_IDENTITY_FORM, AGENT_IDENTITY_MAX } from './agent-identity';
import { UUID_V4 } from './idempotency';
import { addWebhookCatalogue } from './openapi-webhooks';

export const API_PREFIX = '/api/v1';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'VALIDATION: the request failed validation (details.issues names each problem)',
  401:
    'UNAUTHENTICATED: missing, malformed, unknown, expired or revoked token (no rate-limit ' +
    'bucket exists for an unknown token, so no rate-limit headers)',
  402:
    'Payment required (billing): OFF_SESSION_CONSENT_REQUIRED, AUTHENTICATION_REQUIRED ' +
    '(details.authentication_url), CARD_DECLINED, PLAN_LIMIT_REACHED (details.plan, ' +
    'details.limit)',
  403: 'INSUFFICIENT_SCOPE: the token lacks the scope (details.required_scope)',
  404: 'NOT_FOUND: the resource does not exist or belongs to another tenant',
  409:
    'Conflict with the current state (code names the rule); IDEMPOTENCY_KEY_IN_USE while a ' +
    'request with the same Idempotency-Key still runs',
  413: 'PAYLOAD_TOO_LARGE: the body is over 1 MiB',
  422: 'IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with a different request',
  429: 'RATE_LIMITED: the rate class is exhausted; see Retry-After',
  503: 'DEPENDENCY_UNAVAILABLE: an upstream dependency is down; safe to retry after Retry-After',
};

interface OperationMeta {
  scope?: string;
  rateClass?: string;
  idempotent: boolean;
  costBucketMs?: number;
  deprecated?: { since: Date; sunset: Date; link?: string };
}

/** `/api/v1/matches/:id` → `/api/v1/matches/{id}` (the OpenAPI path of a Fastify route). */
export function openapiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const DECORATED = Symbol('openapi-conventions');

/**
 * OpenAPI 3.1 generated from the same zod schemas that validate requests and serialise
 * responses. Route conventions (scopes, rate classes, error envelope, headers) are added
 * here once instead of in every route.
 */
export default fp<{ config: Config }>(
  async (app, opts) => {
    const meta = new Map<string, OperationMeta>();
    // Every /api/v1 route gets the error envelope for the statuses its conventions can produce.
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith(API_PREFIX)) return;
      const cfg = route.config ?? {};
      const mutating = ['POST', 'PATCH', 'PUT', 'DELETE'].includes(String(route.method));
      const idempotent = Boolean(cfg.scope && (cfg.idempotent ?? mutating));
      for (const m of [route.method].flat()) {
        meta.set(`${String(m).toLowerCase()} ${openapiPath(route.url)}`, {
          scope: cfg.scope,
          rateClass: cfg.rateClass,
          idempotent,
          costBucketMs: cfg.costBucketMs,
          deprecated: cfg.deprecated,
        });
      }
      const schema = (route.schema ??= {}) as Record<string | symbol, unknown>;
      // The GET's schema object is shared with its automatic HEAD route: decorate it once.
      if (schema[DECORATED]) return;
      schema[DECORATED] = true;
      const response = (schema.response ??= {}) as Record<number, unknown>;
      const statuses = [400, 404, 503];
      if (cfg.scope) statuses.push(401, 403, 429);
      if (cfg.rateClass && !cfg.scope) statuses.push(429);
      if (idempotent) statuses.push(409, 422);
      if (schema.body) statuses.push(413);
      for (const s of statuses) response[s] ??= errorEnvelopeSchema;
      schema.security = cfg.scope ? [{ bearerAuth: [cfg.scope] }] : [];
      if (cfg.deprecated) schema.deprecated = true;
      const desc = (schema.description as string | undefined) ?? '';
      const extra = [
        cfg.scope ? `Scope: \`${cfg.scope}\`.` : 'Public: no authentication.',
        cfg.rateClass
          ? `Rate class: ${cfg.rateClass} (${limitFor(opts.config, cfg.rateClass)}/min per ` +
            `${cfg.rateClass === 'public' ? 'client IP' : 'token'}).`
          : '',
        idempotent ? 'Accepts `Idempotency-Key` (UUID v4).' : '',
        cfg.costBucketMs
          ? `Identical calls by one token within ${Math.round(cfg.costBucketMs / 1000)} s get the ` +
            `first answer again without using quota.`
          : '',
        cfg.deprecated
          ? `Deprecated since ${cfg.deprecated.since.toISOString().slice(0, 10)}; removed after ` +
            `${cfg.deprecated.sunset.toISOString().slice(0, 10)}.`
          : '',
      ].filter(Boolean);
      schema.description = [desc, extra.join(' ')].filter(Boolean).join('\n\n');
    });

    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Job-Fair Matching Service API',
          version: '1.0.0',
          description:
            'REST API v1. Bearer personal access tokens (`svc_…`) with scopes; every non-2xx answer is ' +
            '`{ error, code, details? }`. Humans accept matches and enter rooms only in the web ' +
            'application. Changes are listed at `GET /api/v1/changelog` and announced by the ' +
            '`changelog.api` webhook event.',
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
        addWebhookCatalogue(doc);
        return decorateDocument(doc, meta);
      },
    });
  },
  { name: 'openapi' },
);

const RATE_HEADERS: Record<string, OpenAPIV3_1.HeaderObject> = {
  'X-RateLimit-Limit': {
    description: "Requests allowed per minute in this route's rate class",
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left before the limit applies', schema: { type: 'integer' } },
  'X-RateLimit-Reset': {
    description: 'Unix time (seconds) when the bucket is full again',
    schema: { type: 'integer' },
  },
};

const PARAMETERS: Record<string, OpenAPIV3_1.ParameterObject> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'UUID v4. The same key from the same token within 24 h replays the first answer ' +
      '(`Idempotent-Replayed: true`) without the side effect; another request with the key → 422 ' +
      'IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 IDEMPOTENCY_KEY_IN_USE.',
    // Exactly what the server accepts (UUID v4 only), so clients and fuzzers see the real contract.
    schema: { type: 'string', pattern: UUID_V4.source },
  },
  AgentIdentity: {
    name: 'X-Agent-Identity',
    in: 'header',
    required: false,
    description:
      'At most 200 characters, form `<vendor>/<product> (<contact>)`; kept on agent-originated ' +
      'queue entries (default: the token name).',
    schema: { type: 'string', maxLength: AGENT_IDENTITY_MAX, pattern: AGENT_IDENTITY_FORM.source },
  },
};

/** Adds the conventions' headers and parameters to every operation of the document. */
function decorateDocument(doc: OpenAPIV3_1.Document, meta: Map<string, OperationMeta>): OpenAPIV3_1.Document {
  doc.components ??= {};
  doc.components.headers = {
    ...(doc.components.headers ?? {}),
    ...RATE_HEADERS,
    'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
    'Idempotent-Replayed': {
      description: '`true` when this answer is the stored answer of an earlier request with the same Idempotency-Key',
      schema: { type: 'string', enum: ['true'] },
    },
    Deprecation: {
      description: 'RFC 9745: `@<unix seconds>` since when the operation is deprecated',
      schema: { type: 'string' },
    },
    Sunset: { description: 'RFC 8594: HTTP date after which the operation is removed', schema: { type: 'string' } },
  };
  doc.components.parameters = { ...(doc.components.parameters ?? {}), ...PARAMETERS };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith(API_PREFIX)) continue;
    for (const method of ['get', 'post', 'patch', 'put', 'delete'] as const) {
      const op = item?.[method] as (OpenAPIV3_1.OperationObject & Record<string, unknown>) | undefined;
      if (!op?.responses) continue;
      const m = meta.get(`${method} ${path}`);
      const authed = (op.security ?? []).length > 0;
      if (m?.rateClass) op['x-rate-class'] = m.rateClass;
      if (authed) {
        op.parameters = [...(op.parameters ?? []), { $ref: '#/components/parameters/AgentIdentity' }];
        if (m?.idempotent) op.parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
      }
      for (const [status, res] of Object.entries(op.responses)) {
        const r = res as OpenAPIV3_1.ResponseObject;
        const code = Number(status);
        if (ERROR_DESCRIPTIONS[code] && (!r.description || r.description === 'Default Response'))
          r.description = ERROR_DESCRIPTIONS[code];
        r.headers ??= {};
        if ((authed || m?.rateClass === 'public') && code !== 401)
          for (const h of Object.keys(RATE_HEADERS)) r.headers[h] = { $ref: `#/components/headers/${h}` };
        if (code === 429 || code === 503) r.headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
        if ((m?.idempotent || m?.costBucketMs) && code < 500 && ![400, 401, 403, 409, 422, 429].includes(code)) {
          r.headers['Idempotent-Replayed'] = { $ref: '#/components/headers/Idempotent-Replayed' };
        }
        if (m?.deprecated) {
          r.headers.Deprecation = { $ref: '#/components/headers/Deprecation' };
          r.headers.Sunset = { $ref: '#/components/headers/Sunset' };
        }
        if (Object.keys(r.headers).length === 0) delete r.headers;
      }
    }
  }
  return doc;
}
