import type { Scope } from '../../../../lib/scopes';

/** Rate classes of the spec: pure reads 60/min, writes 30/min, cost-bearing 3/min (per token). */
export type RateClass = 'read' | 'write' | 'cost';

/**
 * What every `/api/v1` route declares in its Fastify `config`. The conventions plugin turns it
 * into authentication, scope checks, rate limiting, idempotency and the OpenAPI entry.
 */
export interface ApiRouteConfig {
  /** Required scope; omit for a public route. */
  scope?: Scope;
  /** Rate class; authenticated routes must declare one. */
  rateClass?: RateClass;
  /** Mutating routes take Idempotency-Key; default: true for POST/PATCH/PUT/DELETE with a scope. */
  idempotent?: boolean;
  /** Cost-bearing routes: replays within this interval (same token + resource) return the first answer. */
  costBucketMs?: number;
  /** Marks the route for removal: Deprecation + Sunset headers and `deprecated: true` in OpenAPI. */
  deprecated?: { since: Date; sunset: Date; link?: string };
}

declare module 'fastify' {
  interface FastifyContextConfig extends ApiRouteConfig {}
}
