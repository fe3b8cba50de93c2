import { z } from 'zod';

/** The JSON Schemas of a route's zod schemas, as MCP publishes them. */
export type JsonSchema = Record<string, any>;

export const toJson = (schema: unknown, io: 'input' | 'output'): JsonSchema | null => {
  if (!schema || typeof schema !== 'object' || !('_zod' in (schema as object))) return null;
  return z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
};

/** `{ anyOf: [object, null] }` (an optional body) → the object member. */
export function objectMember(s: JsonSchema | null): { schema: JsonSchema; optional: boolean } | null {
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
