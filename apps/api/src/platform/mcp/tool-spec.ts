import type { RouteOptions } from 'fastify';
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
