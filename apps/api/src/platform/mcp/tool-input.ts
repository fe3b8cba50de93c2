import { objectMember, toJson, type JsonSchema } from './json-schema';
import type { ToolSpec } from './tool-spec';

export type RouteSchema = Record<string, unknown>;

/** The tool's arguments, from the route's params, querystring and body schemas. */
type ToolInput = Pick<ToolSpec, 'pathParams' | 'queryParams' | 'body' | 'inputSchema'>;

/** Properties in the order a caller reads them: path, query, body, then the idempotency key. */
function inputCollector() {
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
  return { properties, required, defs, take };
}
type InputCollector = ReturnType<typeof inputCollector>;

/**
 * The body's arguments: `flat` (its properties beside the parameters) when it is an object whose
 * names clash with none of them, else `wrapped` under `body`.
 */
function takeBody(c: InputCollector, bodySchema: unknown): ToolSpec['body'] {
  const b = objectMember(toJson(bodySchema, 'input'));
  const names = Object.keys(b?.schema.properties ?? {});
  if (b && !names.some((n) => n in c.properties) && !names.includes('idempotency_key')) {
    const bodyKeys: string[] = [];
    const before = new Set(c.required);
    c.take(b.schema, bodyKeys);
    // An optional body makes its own required properties optional.
    if (b.optional) for (const k of bodyKeys) if (!before.has(k)) c.required.delete(k);
    return 'flat';
  }
  const raw = toJson(bodySchema, 'input')!;
  Object.assign(c.defs, raw.$defs ?? {});
  c.properties.body = { ...raw, $defs: undefined };
  if (!b?.optional) c.required.add('body');
  return 'wrapped';
}

const idempotencyKeyArgument = (): JsonSchema => ({
  type: 'string',
  format: 'uuid',
  description:
    'UUID v4 sent as Idempotency-Key. Reuse the same value when you retry this call after a ' +
    'timeout or error: the first answer comes back and nothing happens twice.',
});

export function toolInputOf(schema: RouteSchema, idempotent: boolean): ToolInput {
  const c = inputCollector();
  const pathParams: string[] = [];
  const queryParams: string[] = [];
  c.take(toJson(schema.params, 'input'), pathParams);
  c.take(toJson(schema.querystring, 'input'), queryParams);
  // A query default is not a requirement for the caller.
  for (const k of queryParams) if (c.properties[k] && 'default' in c.properties[k]) c.required.delete(k);
  const body = schema.body ? takeBody(c, schema.body) : 'none';
  if (idempotent) c.properties.idempotency_key = idempotencyKeyArgument();
  const inputSchema: JsonSchema = {
    type: 'object',
    properties: c.properties,
    ...(c.required.size ? { required: [...c.required] } : {}),
    additionalProperties: false,
  };
  if (Object.keys(c.defs).length) inputSchema.$defs = c.defs;
  return { pathParams, queryParams, body, inputSchema };
}
