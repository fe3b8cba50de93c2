import type { Scope } from '#lib/scopes';

/**
 * Rate classes of the spec: pure reads 60/min, writes 30/min, cost-bearing 3/min (per token);
 * `public` is for unauthenticated discovery routes, limited per client IP.
 */
export type RateClass = 'read' | 'write' | 'cost' | 'public';

/**
 * What every `/api/v1` route declares in its Fastify `config`. The conventions plugin turns it
 * into authentication, scope checks, rate limiting, idempotency and the OpenAPI entry.
 */
export interface ApiRouteConfig {
  /** Required scope; omit for a public route. */
  scope?: Scope;
  /** Rate class; a route with a scope must declare one (the app refuses to start otherwise). */
  rateClass?: RateClass;
  /**
   * Honour Idempotency-Key; default: true for POST/PATCH/PUT/DELETE with a scope.
   */
  idempotent?: boolean;
  /** The answer carries a one-time secret: a stored idempotent answer is sealed (AES-256-GCM, key from APP_SECRET), never kept in plain text. */
  sensitiveResponse?: boolean;
  /**
   * Cost-bearing routes: identical calls (same token, route, path, query and body) within this
   * interval get the first answer again without running the handler or using quota.
   */
  costBucketMs?: number;
  /** Marks the route for removal: Deprecation + Sunset headers and `deprecated: true` in OpenAPI. */
  deprecated?: { since: Date; sunset: Date; link?: string };
  /** How the route appears as an MCP tool (every `/api/v1` operation is one; see apps/api/src/mcp/). */
  mcp?: {
    /** Tool name when `svc_<resource>_<verb>` from the operationId reads badly. */
    name?: string;
    /** Extra guidance for an agent: when to call, what a human must do. */
    hint?: string;
    /** Told to the agent with every successful result (e.g. hand join_url to the human). */
    resultNote?: string;
    /** A POST that changes nothing (listed on /mcp/readonly). */
    readOnly?: boolean;
    /** Not a tool (e.g. the OpenAPI document itself). */
    exclude?: boolean;
    /**
     * A read that reports a wait: called with a `progressToken`, the tool re-reads while `waiting` holds
     * and sends each changed `message` as a progress notification, then answers (see mcp-server.ts).
     * `pace`: how many times the configured re-read interval the answer itself asks to wait before the
     * next read (its poll hint ÷ the short hint; 1 when absent).
     */
    progress?: {
      waiting: (answer: unknown) => boolean;
      message: (answer: unknown) => string;
      pace?: (answer: unknown) => number | null;
    };
  };
}

declare module 'fastify' {
  interface FastifyContextConfig extends ApiRouteConfig {}
}
