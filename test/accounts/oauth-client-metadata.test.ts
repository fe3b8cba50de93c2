import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CLIENT_METADATA_MAX_BYTES,
  clientIdProblem,
  resolveClientMetadata,
} from '#apps/api/src/accounts/oauth-client-metadata';

/**
 * OAuth clients identified by a Client ID Metadata Document: fetched through the webhook SSRF guard,
 * checked against its URL. A loopback server stands in for the client's site (loopback allowed, as
 * in development); the refusals of private and metadata addresses run with the production policy.
 */
describe('Client ID Metadata Documents', () => {
  let server: http.Server;
  let base: string;
  const routes = new Map<string, (res: http.ServerResponse) => void>();
  const json = (body: unknown) => (res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const handle = routes.get(req.url ?? '');
      if (handle) handle(res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((r) => server.close(() => r())));

  const dev = { policy: { allowLoopback: true }, timeoutMs: 2000 };
  const prod = { policy: { allowLoopback: false }, timeoutMs: 2000 };
  const doc = (path: string, extra: Record<string, unknown> = {}) => ({
    client_id: `${base}${path}`,
    client_name: 'Example Agent',
    client_uri: 'https://agent.example',
    redirect_uris: ['http://127.0.0.1:33418/callback', 'https://agent.example/callback'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });

  it('resolves a valid document: name, origin, redirect URIs', async () => {
    routes.set('/oauth/client.json', json(doc('/oauth/client.json')));
    expect(await resolveClientMetadata(`${base}/oauth/client.json`, dev)).toEqual({
      ok: true,
      client: {
        clientId: `${base}/oauth/client.json`,
        origin: base,
        name: 'Example Agent',
        clientUri: 'https://agent.example',
        redirectUris: ['http://127.0.0.1:33418/callback', 'https://agent.example/callback'],
      },
    });
  });

  it.each<[string, () => Record<string, unknown>, RegExp]>([
    ['names another client_id', () => doc('/other.json'), /another client_id/],
    ['carries a client secret', () => doc('/bad.json', { client_secret: 's3cret' }), /client_secret/],
    [
      'asks for secret-based authentication',
      () => doc('/bad.json', { token_endpoint_auth_method: 'client_secret_basic' }),
      /token_endpoint_auth_method/,
    ],
    [
      'has an http redirect to a remote host',
      () => doc('/bad.json', { redirect_uris: ['http://agent.example/cb'] }),
      /must use https/,
    ],
    [
      'has a javascript: redirect',
      () => doc('/bad.json', { redirect_uris: ['javascript:alert(1)'] }),
      /must use https/,
    ],
    ['has no redirect URIs', () => doc('/bad.json', { redirect_uris: [] }), /redirect_uris/],
  ])('refuses a document that %s', async (_what, body, message) => {
    routes.set('/bad.json', json(body()));
    const r = await resolveClientMetadata(`${base}/bad.json`, dev);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(message);
  });

  it('refuses what is not a document: not JSON, too large, a redirect, a 404', async () => {
    routes.set('/text', (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'));
    routes.set('/big', json({ ...doc('/big'), padding: 'x'.repeat(CLIENT_METADATA_MAX_BYTES) }));
    routes.set('/moved', (res) => res.writeHead(302, { location: `${base}/oauth/client.json` }).end());
    for (const [path, message] of [
      ['/text', /not JSON/],
      ['/big', /larger than 5120 bytes/],
      ['/moved', /redirects are not followed/],
      ['/missing', /HTTP 404/],
    ] as const) {
      const r = await resolveClientMetadata(`${base}${path}`, dev);
      expect({ path, ok: r.ok }).toEqual({ path, ok: false });
      expect(!r.ok && r.message).toMatch(message);
    }
  });

  it('the SSRF guard of webhooks: no loopback, private or metadata address in production, whatever the name', async () => {
    expect(await resolveClientMetadata(`${base}/oauth/client.json`, prod)).toEqual({
      ok: false,
      message: 'client_id must be an https URL',
    });
    const literal = await resolveClientMetadata('https://127.0.0.1/client.json', prod);
    expect(!literal.ok && literal.message).toMatch(/loopback/);
    // A public-looking name that resolves to the cloud metadata address is refused at connect time.
    const rebound = await resolveClientMetadata('https://agent.example/client.json', {
      ...prod,
      resolve: async () => [{ address: '169.254.169.254', family: 4 }],
    });
    expect(!rebound.ok && rebound.message).toMatch(/could not be fetched: .*169\.254\.169\.254 is a /);
  });

  it('client_id URL rules: https, a path, no fragment, credentials or dot segments', () => {
    const policy = { allowLoopback: false };
    expect(clientIdProblem('https://agent.example/client.json', policy)).toBeNull();
    expect(clientIdProblem('http://agent.example/client.json', policy)).toMatch(/https/);
    expect(clientIdProblem('https://agent.example/', policy)).toMatch(/path/);
    expect(clientIdProblem('https://agent.example/c.json#x', policy)).toMatch(/fragment/);
    expect(clientIdProblem('https://u:p@agent.example/c.json', policy)).toMatch(/credentials/);
    expect(clientIdProblem('https://agent.example/a/../c.json', policy)).toMatch(/\.\./);
    expect(clientIdProblem('not a url', policy)).toMatch(/https URL/);
  });
});
