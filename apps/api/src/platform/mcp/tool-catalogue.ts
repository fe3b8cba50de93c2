import type { RouteOptions } from 'fastify';
import type { ToolSpec } from './tool-spec';
import { objectMember, toJson, type JsonSchema } from './json-schema';
import { toolInputOf, type RouteSchema } from './tool-input';

export type { ToolSpec } from './tool-spec';

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

/** A route's tool name and operationId without building its schemas, or null for a route that is not a tool. */
export function toolIdOf(route: RouteOptions, prefix: string): { name: string; operationId: string } | null {
  const method = [route.method].flat()[0] as ToolSpec['method'];
  const operationId = (route.schema as RouteSchema | undefined)?.operationId as string | undefined;
  const cfg = route.config ?? {};
  if (!route.url.startsWith(prefix) || !operationId || cfg.mcp?.exclude) return null;
  if (!['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].includes(method)) return null;
  return { name: cfg.mcp?.name ?? toolName(operationId), operationId };
}

/** One route → its tool, or null for a route that is not one (outside the prefix, excluded, no operationId). */
export function toolSpecOf(route: RouteOptions, prefix: string): ToolSpec | null {
  const id = toolIdOf(route, prefix);
  if (!id) return null;
  const { name, operationId } = id;
  const method = [route.method].flat()[0] as ToolSpec['method'];
  const schema = (route.schema ?? {}) as RouteSchema;
  const cfg = route.config ?? {};
  const idempotent = Boolean(cfg.scope && (cfg.idempotent ?? MUTATING.has(method)));
  return {
    name,
    operationId,
    method,
    url: route.url,
    description: descriptionOf(schema, operationId, cfg),
    scope: cfg.scope ?? null,
    rateClass: cfg.rateClass ?? null,
    readOnly: method === 'GET' || Boolean(cfg.mcp?.readOnly),
    idempotent,
    ...toolInputOf(schema, idempotent),
    outputSchema: outputSchemaOf(schema),
    resultNote: cfg.mcp?.resultNote ?? null,
    progress: cfg.mcp?.progress ?? null,
  };
}

/** The JSON Schema of the first 2xx answer, when it is an object (always there). */
function outputSchemaOf(schema: RouteSchema): JsonSchema | null {
  const responses = (schema.response ?? {}) as Record<string, unknown>;
  const ok = Object.keys(responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort()[0];
  const out = ok ? objectMember(toJson(responses[ok], 'output')) : null;
  return out && !out.optional ? out.schema : null;
}

function descriptionOf(schema: RouteSchema, operationId: string, cfg: NonNullable<RouteOptions['config']>): string {
  const summary = (schema.summary as string | undefined) ?? operationId;
  return [
    summary,
    (schema.description as string | undefined) ?? '',
    cfg.scope ? '' : 'Works without a token (discovery).',
    cfg.mcp?.hint ?? '',
  ]
    .filter(Boolean)
    .join('\n\n');
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
