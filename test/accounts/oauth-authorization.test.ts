import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  auth,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { SCOPES } from '#lib/scopes';
import type { Harness } from '../helpers/harness';
import {
  checkPage,
  expectFitsNarrow,
  createWebHarness,
  launchBrowser,
  onboardSeekerInBrowser,
  screenshot,
  signUpInBrowser,
} from '../helpers/browser';

type Provider = OAuthClientProvider & {
  authUrl?: URL;
  stored?: { access_token: string; refresh_token?: string };
};

/** The official MCP client's OAuth provider, in memory: what an agent host keeps between runs. */
function memoryProvider(redirectUrl: string): Provider {
  let client: unknown;
  let tokens: unknown;
  let verifier = '';
  let discovery: unknown;
  const p: Provider = {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return {
        client_name: 'Test agent',
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    clientInformation: () => client as never,
    saveClientInformation: (c) => {
      client = c;
    },
    tokens: () => tokens as never,
    saveTokens: (t) => {
      tokens = t;
      p.stored = t as Provider['stored'];
    },
    redirectToAuthorization: (url) => {
      p.authUrl = url;
    },
    saveCodeVerifier: (v) => {
      verifier = v;
    },
    codeVerifier: () => verifier,
    saveDiscoveryState: (s) => {
      discovery = s;
    },
    discoveryState: () => discovery as never,
  };
  return p;
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/**
 * The OAuth 2.1 authorization server end to end (decision 0260): the official MCP client
 * discovers it from a 401, registers, sends the person to the consent page (a real browser; one
 * scope unticked), exchanges the code with PKCE, lists only the granted scopes' tools, refreshes,
 * and loses access when the person revokes the app on the token page. The same for a REST
 * client; and each refusal: consent refused, wrong PKCE verifier, a token on the other resource,
 * a replayed code (whose grant is then revoked).
 */
describe('OAuth authorization server: consent, PKCE, resource binding, connected apps', () => {
  let h: Harness;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let callbackServer: http.Server;
  let cb: string;
  const callbacks: URL[] = [];
  let person: { email: string; password: string };

  beforeAll(async () => {
    ({ h, baseUrl: base } = await createWebHarness({
      TOKEN_LAST_USED_THROTTLE_MS: '0',
      RATE_LIMIT_READ_PER_MIN: '1000',
    }));
    // The agent's loopback side: its redirect URI, and a client metadata document.
    callbackServer = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', cb);
      if (url.pathname === '/client.json') {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            client_id: `${cb}/client.json`,
            client_name: 'Metadata agent',
            redirect_uris: [`${cb}/callback`],
            token_endpoint_auth_method: 'none',
          }),
        );
        return;
      }
      if (url.pathname === '/callback') callbacks.push(url);
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><html lang="en"><title>done</title><p>You can close this window.</p></html>');
    });
    await new Promise<void>((r) => callbackServer.listen(0, '127.0.0.1', r));
    cb = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    person = await signUpInBrowser(page, base, { role: 'seeker', name: 'Olga Auth' });
    await onboardSeekerInBrowser(page);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    callbackServer?.closeAllConnections();
    await new Promise((r) => callbackServer?.close(r));
    await h?.close();
  });

  /** Opens an authorization URL in the browser, answers the consent page, returns the callback's URL. */
  async function consent(url: string | URL, o: { untick?: string[]; refuse?: boolean; shots?: string } = {}) {
    const before = callbacks.length;
    await page.goto(String(url));
    await page.waitForSelector('form[aria-label="Allow or refuse the app"]');
    // checkPage: axe, then screenshots at 1280 and 390 px.
    if (o.shots) {
      await checkPage(page, o.shots);
      await expectFitsNarrow(page);
    }
    for (const s of o.untick ?? []) await page.getByLabel(s, { exact: true }).uncheck();
    await Promise.all([
      page.waitForURL((u) => u.href.startsWith(cb)),
      page.getByRole('button', { name: o.refuse ? 'Refuse' : 'Allow' }).click(),
    ]);
    expect(callbacks.length).toBe(before + 1);
    return callbacks[callbacks.length - 1];
  }

  const tokenRequest = (params: Record<string, string>) =>
    fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });

  const register = async (name: string) => {
    const res = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: name,
        redirect_uris: [`${cb}/callback`],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  };

  const authorizeUrl = (o: {
    clientId: string;
    challenge?: string;
    resource?: string;
    scope?: string;
    state?: string;
  }) => {
    const u = new URL('/oauth/authorize', base);
    u.searchParams.set('response_type', 'code');
    u.searchParams.set('client_id', o.clientId);
    u.searchParams.set('redirect_uri', `${cb}/callback`);
    u.searchParams.set('scope', o.scope ?? 'profile:read profile:write');
    u.searchParams.set('state', o.state ?? 'st-1');
    if (o.challenge) {
      u.searchParams.set('code_challenge', o.challenge);
      u.searchParams.set('code_challenge_method', 'S256');
    }
    u.searchParams.set('resource', o.resource ?? `${base}/api/v1`);
    return u;
  };

  /** A REST grant by hand: register, consent, exchange. */
  async function restGrant(name: string, resource = `${base}/api/v1`) {
    const clientId = await register(name);
    const { verifier, challenge } = pkce();
    const back = await consent(authorizeUrl({ clientId, challenge, resource }));
    const code = back.searchParams.get('code')!;
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: `${cb}/callback`,
      code_verifier: verifier,
      resource,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; refresh_token: string; scope: string };
    return { clientId, code, verifier, ...body };
  }

  it('serves RFC 8414 metadata naming the endpoints, S256 only, public clients, metadata documents', async () => {
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      scopes_supported: [...SCOPES],
    });
    // The token endpoint answers in OAuth's JSON, within the per-IP budget of public routes.
    const bad = await tokenRequest({ grant_type: 'password', username: 'x', password: 'y', client_id: 'dcr_x' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-ratelimit-limit')).toBeTruthy();
    expect(await bad.json()).toEqual({
      error: expect.stringMatching(/^(invalid_client|unauthorized_client|unsupported_grant_type)$/),
      error_description: expect.any(String),
    });
  });

  it('the official MCP client: 401 → discovery → registration → consent (one scope unticked) → code + PKCE → only the granted tools → refresh → revoked on the token page', async () => {
    const mcpUrl = new URL('/mcp', base);
    const provider = memoryProvider(`${cb}/callback`);
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    const anonymous = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await anonymous.connect(transport);
    // A tool that needs a token: the 401 starts the client's OAuth flow (discovery from its WWW-Authenticate).
    await expect(anonymous.callTool({ name: 'svc_profile_get', arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await anonymous.close();
    expect(provider.authUrl).toBeDefined();
    const authUrl = provider.authUrl!;
    expect(authUrl.origin + authUrl.pathname).toBe(`${base}/oauth/authorize`);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(`${base}/mcp`);
    expect(authUrl.searchParams.get('client_id')).toMatch(/^dcr_/); // registered dynamically

    // Signed out, the person signs in first and comes back to the consent page.
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const other = await fresh.newPage();
    await other.goto(authUrl.href);
    expect(new URL(other.url()).pathname).toBe('/login');
    await other.getByLabel('E-mail address').fill(person.email);
    await other.getByLabel('Password').fill(person.password);
    await Promise.all([
      other.waitForURL((u) => u.pathname === '/oauth/authorize'),
      other.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(await other.locator('h1').textContent()).toContain('Test agent');
    await fresh.close();

    const back = await consent(authUrl, { untick: ['queue:write'], shots: 'oauth-consent' });
    expect(back.searchParams.get('iss')).toBe(base);
    await transport.finishAuth(back.searchParams);
    const granted = SCOPES.filter((s) => s !== 'queue:write');
    expect(provider.stored?.access_token).toMatch(/^sva_/);

    const listTools = async () => {
      const c = new Client({ name: 'oauth-e2e', version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      try {
        return { c, names: (await c.listTools()).tools.map((t) => t.name).sort() };
      } catch (err) {
        await c.close();
        throw err;
      }
    };
    const expected = h.app
      .mcpTools()
      .filter((t) => !t.scope || (granted as string[]).includes(t.scope))
      .map((t) => t.name)
      .sort();
    const first = await listTools();
    expect(first.names).toEqual(expected);
    expect(first.names).not.toContain('svc_queue_join');
    expect(first.names).toContain('svc_profile_get');
    const profile = await first.c.callTool({ name: 'svc_profile_get', arguments: {} });
    expect(profile.isError).toBeFalsy();
    await first.c.close();

    // The same token on the REST API: refused, it was issued for /mcp (RFC 8707).
    const wrong = await fetch(`${base}/api/v1/profile`, {
      headers: { authorization: `Bearer ${provider.stored!.access_token}` },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);

    // A refresh through the client: a new access token and a new refresh token (rotation).
    const before = { ...provider.stored! };
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
    expect(provider.stored!.access_token).not.toBe(before.access_token);
    expect(provider.stored!.refresh_token).not.toBe(before.refresh_token);
    const second = await listTools();
    expect(second.names).toEqual(expected);
    await second.c.close();

    // The token page lists the app; revoking it ends access and refresh at once.
    await page.goto(`${base}/account/api-tokens`);
    const row = page.locator('section[aria-labelledby="apps-h"] tr', { hasText: 'Test agent' });
    await expect(row.locator('td').nth(0).textContent()).resolves.toBe(cb);
    expect(await row.locator('td').nth(1).textContent()).toBe('/mcp');
    expect(await row.locator('td').nth(2).textContent()).not.toContain('queue:write');
    expect(await row.locator('td.last-used').textContent()).not.toBe('never');
    await checkPage(page, 'oauth-connected-apps');
    await expectFitsNarrow(page);
    await row.getByText('Revoke', { exact: true }).click();
    await Promise.all([
      page.waitForURL(/done=token-revoked/),
      row.getByRole('button', { name: /Yes, revoke/ }).click(),
    ]);
    await screenshot(page, 'oauth-connected-apps-revoked');
    expect(await page.locator('section[aria-labelledby="apps-h"]').textContent()).not.toContain('Test agent');

    const gone = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.stored!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'svc_profile_get', arguments: {} },
      }),
    });
    expect(gone.status).toBe(401);
    const refresh = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: provider.stored!.refresh_token!,
      client_id: (await provider.clientInformation())!.client_id,
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
  }, 120_000);

  it('a REST client: consent, code + PKCE, the API answers as the person; the token is refused on /mcp; revocation ends it', async () => {
    const g = await restGrant('REST agent');
    expect(g.scope).toBe('profile:read profile:write');
    const me = await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${g.access_token}` } });
    expect(me.status).toBe(200);
    // Scopes are the grant's: no scope it lacks (step-up names it).
    const queue = await fetch(`${base}/api/v1/queue/status`, {
      headers: { authorization: `Bearer ${g.access_token}` },
    });
    expect([403, 404]).toContain(queue.status);
    // The REST token on the MCP endpoint: refused (issued for /api/v1).
    const onMcp = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${g.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(onMcp.status).toBe(401);
    // Refresh, then the old refresh token is refused (rotation).
    const r1 = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: g.refresh_token,
      client_id: g.clientId,
    });
    expect(r1.status).toBe(200);
    const t1 = (await r1.json()) as { access_token: string; refresh_token: string };
    expect(
      (await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${t1.access_token}` } })).status,
    ).toBe(200);
    // Revoked on the token page.
    await page.goto(`${base}/account/api-tokens`);
    const row = page.locator('section[aria-labelledby="apps-h"] tr', { hasText: 'REST agent' });
    await row.getByText('Revoke', { exact: true }).click();
    await Promise.all([
      page.waitForURL(/done=token-revoked/),
      row.getByRole('button', { name: /Yes, revoke/ }).click(),
    ]);
    expect(
      (await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${t1.access_token}` } })).status,
    ).toBe(401);
    const r2 = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: t1.refresh_token,
      client_id: g.clientId,
    });
    expect(r2.status).toBe(400);
  }, 60_000);

  it('refusals: consent refused, wrong PKCE verifier, no PKCE, a replayed code (its grant revoked), a reused refresh token', async () => {
    // Refused consent: access_denied back to the client, with its state.
    const clientId = await register('Refused agent');
    const { challenge } = pkce();
    const refused = await consent(authorizeUrl({ clientId, challenge, state: 'keep-me' }), { refuse: true });
    expect(refused.searchParams.get('error')).toBe('access_denied');
    expect(refused.searchParams.get('state')).toBe('keep-me');
    expect(refused.searchParams.get('code')).toBeNull();

    // No PKCE: refused before any consent, back to the client.
    const noPkce = await fetch(authorizeUrl({ clientId }), { redirect: 'manual' });
    expect(noPkce.status).toBe(303);
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    // No resource: invalid_target.
    const noResource = authorizeUrl({ clientId, challenge });
    noResource.searchParams.set('resource', 'https://elsewhere.example/api');
    const badTarget = await fetch(noResource, { redirect: 'manual' });
    expect(new URL(badTarget.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
    // An unregistered redirect URI is never redirected to.
    const evil = authorizeUrl({ clientId, challenge });
    evil.searchParams.set('redirect_uri', 'https://evil.example/cb');
    expect((await fetch(evil, { redirect: 'manual' })).status).toBe(400);

    // Wrong verifier: invalid_grant, and the code is spent.
    const p2 = pkce();
    const back = await consent(authorizeUrl({ clientId, challenge: p2.challenge }));
    const code = back.searchParams.get('code')!;
    const base2 = { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: `${cb}/callback` };
    const wrong = await tokenRequest({ ...base2, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.any(String) });
    expect((await tokenRequest({ ...base2, code_verifier: p2.verifier })).status).toBe(400);

    // A replayed code: refused, and the grant it was exchanged for is revoked.
    const g = await restGrant('Replayed agent');
    expect(
      (await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${g.access_token}` } })).status,
    ).toBe(200);
    const replay = await tokenRequest({
      grant_type: 'authorization_code',
      code: g.code,
      client_id: g.clientId,
      redirect_uri: `${cb}/callback`,
      code_verifier: g.verifier,
    });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
    expect(
      (await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${g.access_token}` } })).status,
    ).toBe(401);
    expect(
      (await tokenRequest({ grant_type: 'refresh_token', refresh_token: g.refresh_token, client_id: g.clientId }))
        .status,
    ).toBe(400);

    // A refresh token used twice: the second use revokes the grant.
    const g2 = await restGrant('Twice agent');
    const ok = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: g2.refresh_token,
      client_id: g2.clientId,
    });
    expect(ok.status).toBe(200);
    const fresh = (await ok.json()) as { access_token: string };
    expect(
      (await tokenRequest({ grant_type: 'refresh_token', refresh_token: g2.refresh_token, client_id: g2.clientId }))
        .status,
    ).toBe(400);
    expect(
      (await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${fresh.access_token}` } })).status,
    ).toBe(401);

    // A code for /api/v1 asked to be exchanged for /mcp: invalid_target.
    const p3 = pkce();
    const b3 = await consent(authorizeUrl({ clientId, challenge: p3.challenge }));
    const target = await tokenRequest({
      grant_type: 'authorization_code',
      code: b3.searchParams.get('code')!,
      client_id: clientId,
      redirect_uri: `${cb}/callback`,
      code_verifier: p3.verifier,
      resource: `${base}/mcp`,
    });
    expect(target.status).toBe(400);
    expect(await target.json()).toMatchObject({ error: 'invalid_target' });
  }, 90_000);

  it('access tokens are short-lived: past their expiry refused; expired rows are swept', async () => {
    const g = await restGrant('Short agent');
    const hash = createHash('sha256').update(g.access_token).digest('hex');
    expect(
      (await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${g.access_token}` } })).status,
    ).toBe(200);
    // The verified-token cache keeps the token's own expiry, so no eviction is needed for this.
    await h
      .knex('oauth_tokens')
      .where({ token_hash: hash })
      .update({ expires_at: new Date(Date.now() - 1000) });
    h.app.services.accounts.verifiedTokens.clear();
    const late = await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${g.access_token}` } });
    expect(late.status).toBe(401);
    expect(await late.json()).toMatchObject({ error: expect.stringMatching(/expired/) });
    await h.app.services.deps.repos.oauth.deleteExpired();
    expect(await h.knex('oauth_tokens').where({ token_hash: hash }).first()).toBeUndefined();
    // The refresh token still works: a new access token.
    const r = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: g.refresh_token,
      client_id: g.clientId,
    });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { expires_in: number }).expires_in).toBeGreaterThan(3000);
  });

  it('a client identified by its metadata document: the consent page shows its name and origin', async () => {
    const { verifier, challenge } = pkce();
    const clientId = `${cb}/client.json`;
    await page.goto(authorizeUrl({ clientId, challenge }).href);
    expect(await page.locator('h1').textContent()).toContain('Metadata agent');
    expect(await page.locator('.consent-facts').textContent()).toContain(cb);
    const back = await consent(authorizeUrl({ clientId, challenge }));
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      client_id: clientId,
      redirect_uri: `${cb}/callback`,
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
  });
});
