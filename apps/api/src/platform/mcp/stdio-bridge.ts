import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import { McpServer, type Progress, type ServerContext } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { jsonSchema } from './mcp-server';

/**
 * `npx jobfair-mcp`: the MCP server over stdio for hosts that start a local process. It is a
 * bridge to a running service's `/mcp` endpoint (JOBFAIR_BASE_URL), not a second implementation:
 * the tools, their scope filtering, auth, rate limits and errors are the service's own, so stdio
 * and HTTP cannot differ. Configuration (environment):
 *   JOBFAIR_BASE_URL   default http://localhost:3000
 *   JOBFAIR_TOKEN      svc_… personal access token (optional: without it only discovery tools)
 *   JOBFAIR_READONLY   1 = the read-only endpoint (/mcp/readonly)
 *   JOBFAIR_AGENT_IDENTITY  sent as X-Agent-Identity
 * stdout carries the protocol only; diagnostics go to stderr.
 */
export async function runStdioBridge(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const base = env.JOBFAIR_BASE_URL ?? 'http://localhost:3000';
  const path = env.JOBFAIR_READONLY === '1' ? '/mcp/readonly' : '/mcp';
  const headers: Record<string, string> = {};
  if (env.JOBFAIR_TOKEN) headers.authorization = `Bearer ${env.JOBFAIR_TOKEN}`;
  if (env.JOBFAIR_AGENT_IDENTITY) headers['x-agent-identity'] = env.JOBFAIR_AGENT_IDENTITY;

  const upstream = new Client({ name: 'jobfair-mcp-stdio', version: '1.0.0' });
  await upstream.connect(new StreamableHTTPClientTransport(new URL(path, base), { requestInit: { headers } }));
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await upstream.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  process.stderr.write(`jobfair-mcp: ${tools.length} tools from ${new URL(path, base).href}\n`);

  const handle = serveStdio(() => {
    const server = new McpServer({ name: 'jobfair', version: '1.0.0' });
    for (const tool of tools) {
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: jsonSchema(tool.inputSchema as Record<string, unknown>),
          ...(tool.outputSchema ? { outputSchema: jsonSchema(tool.outputSchema as Record<string, unknown>) } : {}),
          annotations: tool.annotations,
          _meta: tool._meta,
        },
        async (args: unknown, ctx: ServerContext) => {
          // A waiting tool's progress (svc_queue_status with a progressToken) is passed on to the host.
          const progressToken = ctx.mcpReq._meta?.progressToken;
          const options =
            progressToken === undefined
              ? undefined
              : {
                  resetTimeoutOnProgress: true,
                  onprogress: (p: Progress) =>
                    void ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...p, progressToken } }),
                };
          return (await upstream.callTool(
            { name: tool.name, arguments: (args ?? {}) as Record<string, unknown> },
            options,
          )) as never;
        },
      );
    }
    return server;
  });
  const stop = async () => {
    await handle.close();
    await upstream.close();
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

if (require.main === module) {
  runStdioBridge().catch((err: unknown) => {
    process.stderr.write(`jobfair-mcp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
