import { Readable } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { InsufficientScopeError, UnauthenticatedError } from '#lib/errors';
import { API_PREFIX } from '../../plugins/openapi';
import { MCP_IN_PROCESS_HEADER } from '../../plugins/auth';
import { toolIdOf, toolSpecOf, type ToolSpec } from './tool-catalogue';
import type { RestExecutor } from './mcp-server';

export const MCP_PATH = '/mcp';
export const MCP_READONLY_PATH = '/mcp/readonly';
const VERSION = '1.0.0';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every `/api/v1` operation as an MCP tool (filled when the app is ready). */
    mcpTools: () => readonly ToolSpec[];
  }
}

/**
 * MCP over stateless Streamable HTTP at `/mcp` (every tool the token's scopes allow; public
 * discovery tools without a token) and `/mcp/readonly` (read-only tools only). Registered before
 * the `/api/v1` routes so its `onRoute` hook sees every one of them. Each tool call is an
 * in-process REST request with the caller's own `Authorization` header, client IP and
 * `X-Agent-Identity`: the REST plugins apply auth, scopes, rate limits, idempotency and the error
 * envelope unchanged. Design: docs/decisions/0141-mcp-server.md.
 */
export default fp(
  async (app) => {
    const routes: RouteOptions[] = [];
    app.addHook('onRoute', (route) => {
      if (route.url.startsWith(API_PREFIX)) routes.push(route);
    });
    /** One route per operation (a HEAD twin or a second method shares the operationId). */
    const toolRoutes = () => {
      const seen = new Set<string>();
      return routes.filter((r) => {
        const id = toolIdOf(r, API_PREFIX);
        return id !== null && !seen.has(id.operationId) && Boolean(seen.add(id.operationId));
      });
    };
    // At start only the names are checked (cheap); the tools' JSON Schemas are built on first use,
    // since most API processes never serve an MCP request or the tools page.
    app.addHook('onReady', async () => {
      const names = new Set<string>();
      for (const r of toolRoutes()) {
        const { name } = toolIdOf(r, API_PREFIX)!;
        if (names.has(name)) throw new Error(`two operations map to the MCP tool ${name}; name one in config.mcp.name`);
        names.add(name);
      }
    });
    let catalogue: ToolSpec[] | null = null;
    const toolsNow = () => (catalogue ??= toolRoutes().map((r) => toolSpecOf(r, API_PREFIX)!));
    app.decorate('mcpTools', toolsNow);

    /** The first scoped tool a JSON-RPC message (or batch) calls, or null. */
    const scopeNeededBy = (body: unknown, readOnly: boolean): { name: string; scope: string } | null => {
      for (const m of Array.isArray(body) ? body : [body]) {
        const msg = m as { method?: unknown; params?: { name?: unknown } } | null;
        if (msg?.method !== 'tools/call') continue;
        const tool = toolsNow().find((t) => t.name === msg.params?.name && (!readOnly || t.readOnly));
        if (tool?.scope) return { name: tool.name, scope: tool.scope };
      }
      return null;
    };

    const executorFor =
      (request: FastifyRequest): RestExecutor =>
      async (call) => {
        const headers: Record<string, string> = { ...call.headers };
        if (request.headers.authorization) {
          headers.authorization = request.headers.authorization;
          // An OAuth token issued for /mcp is accepted by these REST calls, and by no outside call.
          headers[MCP_IN_PROCESS_HEADER] = app.mcpInProcessSecret;
        }
        const agent = request.headers['x-agent-identity'];
        if (typeof agent === 'string') headers['x-agent-identity'] = agent;
        if (call.body !== undefined) headers['content-type'] = 'application/json';
        const res = await app.inject({
          method: call.method,
          url: call.url,
          query: call.query,
          headers,
          remoteAddress: request.ip,
          ...(call.body !== undefined ? { payload: JSON.stringify(call.body) } : {}),
        });
        let json: unknown = null;
        try {
          json = res.body ? JSON.parse(res.body) : null;
        } catch {
          json = { error: res.body, code: 'NON_JSON_RESPONSE' };
        }
        return { status: res.statusCode, headers: res.headers, json };
      };

    // Browsers send Origin: only our own origin (and localhost for development) may call the endpoint
    // from a page; agents and MCP hosts send none.
    const allowedOrigins = [new URL(app.config.publicBaseUrl).hostname, 'localhost', '127.0.0.1', '[::1]'];

    // The MCP SDK (~10 MiB of the API's idle RSS) is loaded on the first /mcp request, not at start:
    // most API processes never serve one (decision 0210). One promise, so concurrent
    // first requests share one load.
    type Runtime = {
      handlers: Record<'full' | 'readonly', McpHttpHandler>;
      checkOrigin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    };
    let runtime: Promise<Runtime> | null = null;
    const loadRuntime = (): Promise<Runtime> =>
      (runtime ??= (async () => {
        const [{ createMcpHandler }, { originValidation }, { createJobfairMcpServer }] = await Promise.all([
          import('@modelcontextprotocol/server'),
          import('@modelcontextprotocol/fastify'),
          import('./mcp-server'),
        ]);
        const handlerFor = (readOnly: boolean) =>
          createMcpHandler((ctx) => {
            const c = ctx.authInfo?.extra as
              { request: FastifyRequest; scopes: ReadonlySet<string> | null } | undefined;
            return createJobfairMcpServer({
              tools: toolsNow(),
              scopes: c?.scopes ?? null,
              readOnly,
              execute: executorFor(c!.request),
              version: VERSION,
              wait: {
                intervalMs: app.config.MCP_WAIT_PROGRESS_INTERVAL_MS,
                maxMs: app.config.MCP_WAIT_MAX_MS,
                stop: closing.signal,
              },
            });
          });
        return {
          handlers: { full: handlerFor(false), readonly: handlerFor(true) },
          checkOrigin: originValidation(allowedOrigins),
        };
      })().catch((err: unknown) => {
        runtime = null; // a failed load is retried by the next request
        throw err;
      }));
    // Ends every waiting tool call (svc_queue_status with a progressToken) when the API shuts down: each
    // answers with the current status before the handlers close (which would cut it off with no result).
    const closing = new AbortController();
    // preClose, not onClose: open SSE streams (subscriptions/listen) would otherwise keep the HTTP server from closing.
    app.addHook('preClose', async () => {
      closing.abort();
      if (!runtime) return;
      const { handlers } = await runtime;
      await handlers.full.close();
      await handlers.readonly.close();
    });

    const serve = (kind: 'full' | 'readonly') => async (request: FastifyRequest, reply: FastifyReply) => {
      // A token is optional (discovery tools work without one); a bad one is a 401, as on REST.
      const auth = request.headers.authorization
        ? await app.authenticateBearer(request.headers.authorization, request.log, ['/mcp'])
        : null;
      // Calling a tool the caller's token does not cover is an HTTP answer, not a tool error, so an
      // OAuth-capable MCP client can act on it: without a token a 401 whose WWW-Authenticate names the
      // resource metadata (where its flow starts); with a token lacking the scope a 403 naming the
      // scope (step-up). Both are refused before any REST call, so they cost no rate-limit quota.
      const needed = scopeNeededBy(request.body, kind === 'readonly');
      if (needed && auth && !auth.scopes.has(needed.scope)) throw new InsufficientScopeError(needed.scope);
      if (needed && !auth)
        throw new UnauthenticatedError(
          `The tool ${needed.name} needs a bearer token with the scope ${needed.scope}; send ` +
            `Authorization: Bearer with a personal access token or one got by OAuth (WWW-Authenticate names the resource metadata)`,
        );
      const url = new URL(request.url, app.config.publicBaseUrl);
      const headers = new Headers();
      for (const [k, v] of Object.entries(request.headers))
        if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
      const hasBody = request.method === 'POST' && request.body !== undefined;
      const webRequest = new Request(url, {
        method: request.method,
        headers,
        ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
      });
      const { handlers } = await loadRuntime();
      const response = await handlers[kind].fetch(webRequest, {
        ...(hasBody ? { parsedBody: request.body } : {}),
        authInfo: {
          token: auth ? 'bearer' : '',
          clientId: auth?.tokenId ?? 'anonymous',
          scopes: auth ? [...auth.scopes] : [],
          extra: { request, scopes: auth?.scopes ?? null },
        },
      });
      reply.code(response.status);
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      if (!response.body) return reply.send();
      return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
    };
    for (const [path, kind] of [
      [MCP_PATH, 'full'],
      [MCP_READONLY_PATH, 'readonly'],
    ] as const) {
      app.route({
        method: ['GET', 'POST', 'DELETE'],
        url: path,
        // Not a REST operation: described in the agent guide and llms.txt, not in the OpenAPI document.
        schema: { hide: true },
        onRequest: async (request, reply) => (await loadRuntime()).checkOrigin(request, reply),
        handler: serve(kind),
      });
    }
  },
  { name: 'mcp', dependencies: ['auth', 'openapi'] },
);
