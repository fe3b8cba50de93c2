import {
  Client,
  StreamableHTTPClientTransport,
  checkResourceAllowed,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/client';
import { SCOPES } from '#lib/scopes';
import type { Harness } from '../helpers/harness';
import { createWebHarness } from '../helpers/browser';

/**
 * The resource-server side of OAuth (RFC 9728, RFC 6750): protected resource metadata, and a
 * WWW-Authenticate challenge on every 401/403 of /api/v1 and /mcp that a client can follow.
 */
describe('OAuth protected resource metadata and bearer challenges', () => {
  let h: Harness;
  let base: string;
  beforeAll(async () => {
    ({ h, baseUrl: base } = await createWebHarness({ RATE_LIMIT_READ_PER_MIN: '1000' }));
  });
  afterAll(async () => h?.close());

  const metadataUrl = (path: string) => `${base}/.well-known/oauth-protected-resource${path}`;

  it('serves one metadata document per resource (and one for the whole service), public and cacheable', async () => {
    for (const [path, resource] of [
      ['', base],
      ['/api/v1', `${base}/api/v1`],
      ['/mcp', `${base}/mcp`],
    ]) {
      const res = await fetch(metadataUrl(path));
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toMatch(/public/);
      expect(await res.json()).toEqual({
        resource,
        authorization_servers: [base],
        scopes_supported: [...SCOPES],
        bearer_methods_supported: ['header'],
        resource_name: expect.any(String),
        resource_documentation: `${base}/docs/agents.md`,
      });
    }
    expect((await fetch(metadataUrl('/elsewhere'))).status).toBe(404);
  });

  it('a REST 401 names the resource metadata; with a token sent it also says invalid_token', async () => {
    const anonymous = await fetch(`${base}/api/v1/profile`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl('/api/v1')}"`);
    expect(await anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });

    for (const token of ['svc_not_a_real_token', 'garbage']) {
      const bad = await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${token}` } });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", resource_metadata="${metadataUrl('/api/v1')}"`,
      );
      // The official MCP client's parser reads what we send.
      expect(extractWWWAuthenticateParams(bad)).toMatchObject({
        error: 'invalid_token',
        resourceMetadataUrl: new URL(metadataUrl('/api/v1')),
      });
    }
  });

  it('a 403 for a missing scope names the scope (step-up) and keeps details.required_scope', async () => {
    const s = await h.seeker();
    const token = await s.tokenWith(['profile:read']);
    const res = await fetch(`${base}/api/v1/profile`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x' }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="profile:write", resource_metadata="${metadataUrl('/api/v1')}"`,
    );
    expect(extractWWWAuthenticateParams(res)).toMatchObject({ error: 'insufficient_scope', scope: 'profile:write' });
    expect(await res.json()).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required_scope: 'profile:write' },
    });
  });

  it('personal access tokens work as before: no challenge on success; pages and docs never carry one', async () => {
    const s = await h.seeker();
    const ok = await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${s.token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('www-authenticate')).toBeNull();
    const page = await h.call({ method: 'GET', url: '/tokens' });
    expect(page.headers['www-authenticate']).toBeUndefined();
  });

  it('the official MCP client: anonymous discovery still works; a tool that needs a token is a 401 it follows to the metadata; a missing scope is a 403 naming it', async () => {
    const seen: Array<{ status: number; metadata: unknown; allowed: boolean }> = [];
    const mcpUrl = new URL('/mcp', base);
    const client = new Client({ name: 'jobfair-oauth-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(mcpUrl, {
      authProvider: {
        token: async () => undefined,
        // Where an OAuth client starts its flow: read the challenge, fetch the resource metadata.
        onUnauthorized: async ({ response, serverUrl, fetchFn }) => {
          const { resourceMetadataUrl } = extractWWWAuthenticateParams(response);
          const metadata = await discoverOAuthProtectedResourceMetadata(
            serverUrl,
            { resourceMetadataUrl: resourceMetadataUrl! },
            fetchFn,
          );
          seen.push({
            status: response.status,
            metadata,
            allowed: checkResourceAllowed({ requestedResource: serverUrl, configuredResource: metadata.resource }),
          });
          throw new Error('stop here: no authorization server in this test');
        },
      },
    });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('svc_jobs_search');
      expect(tools).not.toContain('svc_profile_get');
      await expect(client.callTool({ name: 'svc_profile_get', arguments: {} })).rejects.toThrow(/stop here/);
      expect(seen).toEqual([
        {
          status: 401,
          metadata: expect.objectContaining({ resource: `${base}/mcp`, authorization_servers: [base] }),
          allowed: true,
        },
      ]);
      // A public tool still answers without a token.
      const search = await client.callTool({ name: 'svc_jobs_search', arguments: {} });
      expect(search.isError).toBeFalsy();
    } finally {
      await client.close();
    }

    const raw = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'svc_profile_get', arguments: {} },
      }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl('/mcp')}"`);
    expect(await raw.json()).toMatchObject({ code: 'UNAUTHENTICATED', error: expect.stringMatching(/profile:read/) });

    // A token without the tool's scope: 403 naming the scope (step-up), before any REST call.
    const s = await h.seeker();
    const narrow = await s.tokenWith(['queue:read']);
    const stepUp = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${narrow}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'svc_profile_get', arguments: {} },
      }),
    });
    expect(stepUp.status).toBe(403);
    expect(stepUp.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="profile:read", resource_metadata="${metadataUrl('/mcp')}"`,
    );
    expect(await stepUp.json()).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required_scope: 'profile:read' },
    });
    // The tool the token does cover still answers.
    const covered = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${narrow}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'svc_queue_status', arguments: {} },
      }),
    });
    expect(covered.status).toBe(200);

    const badToken = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        authorization: 'Bearer svc_not_a_real_token',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(badToken.status).toBe(401);
    expect(badToken.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", resource_metadata="${metadataUrl('/mcp')}"`,
    );
  });
});
