import type { RouteOptions } from 'fastify';
import { z } from 'zod';
import type { RateClass } from '../../plugins/route-config';

/**
 * MCP tools are generated from the REST route table: every `/api/v1` route (its operationId, zod
 * schemas and `config`) becomes one tool, so a route added anywhere (billing, …) appears as a tool
 * without touching this folder, and tools cannot drift from REST. A call is executed by REST
 * itself (see mcp-routes.ts), so auth, scopes, rate limits, idempotency and the error envelope
 * are the REST ones. Design: docs/decisions/0141-mcp-server.md.
 */
export interface ToolSpec {
  name: string;
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Fastify URL, e.g. `/api/v1/webhooks/:id`. */
  url: string;
  description: string;
  scope: string | null;
  rateClass: RateClass | null;
  /** No state changes: listed on `/mcp/readonly`. */
  readOnly: boolean;
  idempotent: boolean;
  pathParams: string[];
  queryParams: string[];
  /** Where body arguments go: `flat` = the tool's own properties, `wrapped` = under `body`. */
  body: 'none' | 'flat' | 'wrapped';
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown> | null;
  resultNote: string | null;
  /** Reports a wait by progress notifications when the client sends a progressToken (route `config.mcp.progress`). */
  progress: NonNullable<NonNullable<RouteOptions['config']>['mcp']>['progress'] | null;
}

type JsonSchema = Record<string, any>;

const toJson = (schema: unknown, io: 'input' | 'output'): JsonSchema | null => {
  if (!schema || typeof schema !== 'object' || !('_zod' in (schema as object))) return null;
  return z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
};

/** `{ anyOf: [object, null] }` (an optional body) → the object member. */
function objectMember(s: JsonSchema | null): { schema: JsonSchema; optional: boolean } | null {
  if (!s) return null;
  // A schema registered with an id comes back as `{ $ref: '#/$defs/Id', $defs }`.
  const ref = typeof s.$ref === 'string' && /^#\/\$defs\/(.+)$/.exec(s.$ref);
  if (ref && s.$defs?.[ref[1]]) return objectMember({ ...s.$defs[ref[1]], $defs: s.$defs });
  if (s.type === 'object') return { schema: s, optional: false };
  const members: JsonSchema[] | undefined = s.anyOf ?? s.oneOf;
  const obj = members?.find((m) => m.type === 'object');
  if (obj && members!.every((m) => m === obj || m.type === 'null'))
    return { schema: { ...obj, $defs: s.$defs }, optional: true };
  return null;
}

const words = (id: string) =>
  id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ');

/**
 * `svc_<resource>_<verb>` from the operationId (`createWebhook` → `svc_webhook_create`,
 * `searchJobs` → `svc_jobs_search`); a route may name its tool in `config.mcp.name`.
 */
export function toolName(operationId: string): string {
  const [verb, ...rest] = words(operationId);
  return `svc_${[...rest, verb].join('_')}`;
}

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export function toolSpecOf(route: RouteOptions, prefix: string): ToolSpec | null {
  const method = [route.method].flat()[0] as ToolSpec['method'];
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const operationId = schema.operationId as string | undefined;
  const cfg = route.config ?? {};
  if (!route.url.startsWith(prefix) || !operationId || cfg.mcp?.exclude) return null;
  if (!['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].includes(method)) return null;

  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const defs: Record<string, JsonSchema> = {};
  const take = (s: JsonSchema | null, into: string[]) => {
    if (!s?.properties) return;
    Object.assign(defs, s.$defs ?? {});
    for (const [k, v] of Object.entries(s.properties as Record<string, JsonSchema>)) {
      properties[k] = v;
      into.push(k);
    }
    for (const r of (s.required as string[] | undefined) ?? []) required.add(r);
  };
  const pathParams: string[] = [];
  const queryParams: string[] = [];
  take(toJson(schema.params, 'input'), pathParams);
  const query = toJson(schema.querystring, 'input');
  take(query, queryParams);
  // A query default is not a requirement for the caller.
  for (const k of queryParams) if (properties[k] && 'default' in properties[k]) required.delete(k);

  let body: ToolSpec['body'] = 'none';
  if (schema.body) {
    const b = objectMember(toJson(schema.body, 'input'));
    const names = Object.keys(b?.schema.properties ?? {});
    if (b && !names.some((n) => n in properties) && !names.includes('idempotency_key')) {
      body = 'flat';
      const bodyKeys: string[] = [];
      const before = new Set(required);
      take(b.schema, bodyKeys);
      if (b.optional) for (const k of bodyKeys) if (!before.has(k)) required.delete(k);
    } else {
      body = 'wrapped';
      const raw = toJson(schema.body, 'input')!;
      Object.assign(defs, raw.$defs ?? {});
      properties.body = { ...raw, $defs: undefined };
      if (!b?.optional) required.add('body');
    }
  }
  const idempotent = Boolean(cfg.scope && (cfg.idempotent ?? MUTATING.has(method)));
  if (idempotent) {
    properties.idempotency_key = {
      type: 'string',
      format: 'uuid',
      description:
        'UUID v4 sent as Idempotency-Key. Reuse the same value when you retry this call after a ' +
        'timeout or error: the first answer comes back and nothing happens twice.',
    };
  }
  const inputSchema: JsonSchema = {
    type: 'object',
    properties,
    ...(required.size ? { required: [...required] } : {}),
    additionalProperties: false,
  };
  if (Object.keys(defs).length) inputSchema.$defs = defs;

  const responses = (schema.response ?? {}) as Record<string, unknown>;
  const ok = Object.keys(responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort()[0];
  const out = ok ? objectMember(toJson(responses[ok], 'output')) : null;
  const outputSchema = out && !out.optional ? out.schema : null;

  const summary = (schema.summary as string | undefined) ?? operationId;
  const description = [
    summary,
    (schema.description as string | undefined) ?? '',
    cfg.scope ? '' : 'Works without a token (discovery).',
    cfg.mcp?.hint ?? '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    name: cfg.mcp?.name ?? toolName(operationId),
    operationId,
    method,
    url: route.url,
    description,
    scope: cfg.scope ?? null,
    rateClass: cfg.rateClass ?? null,
    readOnly: method === 'GET' || Boolean(cfg.mcp?.readOnly),
    idempotent,
    pathParams,
    queryParams,
    body,
    inputSchema,
    outputSchema,
    resultNote: cfg.mcp?.resultNote ?? null,
    progress: cfg.mcp?.progress ?? null,
  };
}

/** Argument object → the REST request (path, query string, body, headers). */
export function toRequest(
  spec: ToolSpec,
  args: Record<string, unknown>,
): { url: string; query: Record<string, string>; body: unknown; headers: Record<string, string> } {
  let url = spec.url;
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args ?? {})) {
    if (v === undefined) continue;
    if (spec.pathParams.includes(k)) url = url.replace(`:${k}`, encodeURIComponent(String(v)));
    else if (spec.queryParams.includes(k)) query[k] = Array.isArray(v) ? v.join(',') : String(v);
    else if (k === 'idempotency_key' && spec.idempotent) headers['idempotency-key'] = String(v);
    else body[k] = v;
  }
  const payload =
    spec.body === 'none'
      ? undefined
      : spec.body === 'wrapped'
        ? body.body
        : Object.keys(body).length
          ? body
          : spec.method === 'GET'
            ? undefined
            : body;
  return { url, query, body: payload, headers };
}

/** Keys whose values are written by other parties (recruiters, seekers, receivers). */
export const UNTRUSTED_KEYS = new Set([
  'description',
  'summary',
  'note',
  'notes',
  'headline',
  'seeker_headline',
  'decline_reason',
  'reason',
  'response_snippet',
  'bio',
  'message',
  'title',
  'role_title',
  'job_titles',
  'company_name',
  'talking_points',
  'strengths',
  'gaps',
]);

/** JSON paths of untrusted text in a REST answer (`$.data[0].description`). */
export function untrustedPaths(value: unknown, path = '$', out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v, i) => untrustedPaths(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (UNTRUSTED_KEYS.has(k) && v !== null && v !== '' && (typeof v === 'string' || Array.isArray(v)))
        out.push(`${path}.${k}`);
      else untrustedPaths(v, `${path}.${k}`, out);
    }
  }
  return out;
}
