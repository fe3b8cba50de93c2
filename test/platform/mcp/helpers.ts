import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Harness } from '../../helpers/harness';

/** The harness app on a real port (the MCP client speaks HTTP, not `inject`). */
export async function listen(h: Harness): Promise<string> {
  const addr = h.app.server.address() as AddressInfo | null;
  if (addr) return `http://127.0.0.1:${addr.port}`;
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
}

/** The official MCP client over Streamable HTTP, with an optional bearer token. */
export async function httpClient(baseUrl: string, opts: { token?: string; path?: string } = {}): Promise<Client> {
  const client = new Client({ name: 'jobfair-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(opts.path ?? '/mcp', baseUrl), {
    requestInit: {
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        'x-agent-identity': 'jobfair/tests (dev@jobfair.test)',
      },
    },
  });
  await client.connect(transport);
  return client;
}

export const textOf = (r: { content?: unknown }) =>
  ((r.content ?? []) as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
