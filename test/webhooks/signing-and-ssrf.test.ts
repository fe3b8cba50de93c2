import { verifyWebhookSignature, computeSignature } from '#domain/webhooks/index';
import { buildEnvelope, signatureHeader, parseSignatureHeader } from '#domain/webhooks/signing';
import { classifyAddress, checkTargetUrl } from '#lib/outbound-http/address-policy';
import { createOutboundHttpClient as createWebhookHttpClient, type Resolver } from '#lib/outbound-http/http-client';
import { base62Bytes } from '#lib/base62';
import { deriveWebhookSecret, hashWebhookSecret } from '#domain/webhooks/secrets';
import { startReceiver, type Receiver, type Responder } from './helpers';

describe('signatures: the receiver helper', () => {
  const secret = 'svc_whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
  const body = buildEnvelope({
    id: 'evt_1',
    type: 'match.matched',
    createdAtMs: 1_790_000_000_000,
    data: { match_id: 'm1' },
  });
  const now = 1_790_000_100;

  it('verifies t=<t>,v1=<hex> over "<t>.<raw body>" with lowercase hex and no spaces', () => {
    const header = signatureHeader([secret], now, body);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(parseSignatureHeader(header)).toEqual({ t: now, v1: [computeSignature(secret, now, body)] });
    expect(verifyWebhookSignature({ payload: body, header, secret, nowSeconds: now })).toBe(true);
    expect(verifyWebhookSignature({ payload: Buffer.from(body), header, secret, nowSeconds: now })).toBe(true);
  });

  it('accepts any matching v1 among several, and either of two secrets', () => {
    const other = 'svc_whsec_other';
    const header = signatureHeader([other, secret], now, body);
    expect(header.split(',').filter((p) => p.startsWith('v1='))).toHaveLength(2);
    expect(verifyWebhookSignature({ payload: body, header, secret, nowSeconds: now })).toBe(true);
    expect(
      verifyWebhookSignature({
        payload: body,
        header: signatureHeader([secret], now, body),
        secret: ['svc_whsec_new', secret],
        nowSeconds: now,
      }),
    ).toBe(true);
    expect(
      verifyWebhookSignature({ payload: body, header: signatureHeader([other], now, body), secret, nowSeconds: now }),
    ).toBe(false);
  });

  it('allows ±300 s and refuses older or later timestamps, tampered bodies and malformed headers', () => {
    const at = (t: number) => signatureHeader([secret], t, body);
    expect(verifyWebhookSignature({ payload: body, header: at(now - 300), secret, nowSeconds: now })).toBe(true);
    expect(verifyWebhookSignature({ payload: body, header: at(now + 300), secret, nowSeconds: now })).toBe(true);
    expect(verifyWebhookSignature({ payload: body, header: at(now - 301), secret, nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature({ payload: body, header: at(now + 301), secret, nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature({ payload: body + ' ', header: at(now), secret, nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature({ payload: body, header: undefined, secret, nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature({ payload: body, header: 'v1=abc', secret, nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature({ payload: body, header: `t=${now}`, secret, nowSeconds: now })).toBe(false);
  });

  it('derives secrets deterministically from the master key, id and salt (nothing to store)', () => {
    const a = deriveWebhookSecret('master-key-master-key-master-key-00', 'whk_1', 'salt1');
    expect(a).toMatch(/^svc_whsec_[0-9A-Za-z]{43}$/);
    expect(deriveWebhookSecret('master-key-master-key-master-key-00', 'whk_1', 'salt1')).toBe(a);
    expect(deriveWebhookSecret('master-key-master-key-master-key-00', 'whk_1', 'salt2')).not.toBe(a);
    expect(deriveWebhookSecret('master-key-master-key-master-key-01', 'whk_1', 'salt1')).not.toBe(a);
    expect(hashWebhookSecret(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(base62Bytes(Buffer.from([0, 0, 1]))).toBe('00001');
  });
});

describe('SSRF policy: addresses and target URLs', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['2001:db8::1', 'documentation'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['::ffff:8.8.4.4', 'public'],
    ['2606:4700:4700::1111', 'public'],
  ])('%s is %s', (ip, category) => {
    expect(classifyAddress(ip)).toBe(category);
  });

  it('checks target URLs at create time: https only, no internal hosts, loopback/http only with the dev flag', () => {
    const strict = { allowLoopback: false };
    const dev = { allowLoopback: true };
    expect(checkTargetUrl('https://hooks.example.com/x', strict).ok).toBe(true);
    const bad = (u: string, p = strict) => {
      const r = checkTargetUrl(u, p);
      return r.ok ? null : r.message;
    };
    expect(bad('http://hooks.example.com/x')).toMatch(/https:/);
    expect(bad('ftp://hooks.example.com/x')).toMatch(/https:/);
    expect(bad('not a url')).toMatch(/absolute URL/);
    expect(bad('https://user:pw@hooks.example.com/')).toMatch(/credentials/);
    expect(bad('https://10.0.0.1/')).toMatch(/private/);
    expect(bad('https://169.254.169.254/latest/meta-data')).toMatch(/metadata/);
    expect(bad('https://[::ffff:10.0.0.1]/')).toMatch(/private/);
    expect(bad('https://[fe80::1]/')).toMatch(/link-local/);
    expect(bad('https://2130706433/')).toMatch(/loopback/); // 127.0.0.1 in decimal, normalised by the URL parser
    expect(bad('https://localhost/')).toMatch(/loopback/);
    expect(bad('https://metadata.google.internal/')).toMatch(/internal/);
    expect(bad('https://intranet/')).toMatch(/internal/);
    expect(checkTargetUrl('http://127.0.0.1:8080/hook', dev).ok).toBe(true);
    expect(checkTargetUrl('http://localhost:8080/hook', dev).ok).toBe(true);
    expect(bad('http://hooks.example.com/', dev)).toMatch(/loopback targets in development only/);
    expect(bad('https://192.168.0.10/', dev)).toMatch(/private/);
  });
});

describe('SSRF-safe HTTP client (only 127.0.0.1 is ever contacted)', () => {
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver((r): ReturnType<Responder> => {
      if (r.url === '/redirect') return { status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } };
      if (r.url === '/slow') return { status: 200, delayMs: 1500 };
      if (r.url === '/big') return { status: 500, body: 'x'.repeat(100_000) };
      // Close each connection so every request needs a new connect (and a new lookup).
      return { status: 200, body: 'fine', headers: { connection: 'close' } };
    });
  });
  afterAll(async () => rx.close());

  const resolverCalls: string[] = [];
  const table: Record<string, string[]> = {};
  const resolver: Resolver = async (host) => {
    resolverCalls.push(host);
    const addrs = table[host];
    if (!addrs) throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
    return addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it('refuses IP literals outside the policy before connecting', async () => {
    const client = createWebhookHttpClient({ policy: { allowLoopback: true }, timeoutMs: 2000, resolve: resolver });
    for (const target of [
      'http://10.0.0.1/x',
      'https://10.0.0.1/x',
      'https://169.254.169.254/',
      'https://[::ffff:192.168.0.1]/',
      'https://[fd00:ec2::254]/',
      'https://100.64.0.1/',
      'https://0.0.0.0/',
    ]) {
      const r = await client.post(target, '{}', {});
      expect(r).toMatchObject({ ok: false, errorKind: 'blocked_address', httpStatus: null });
    }
    client.close();
  });

  it('resolves names at connect time and refuses private answers (DNS rebinding)', async () => {
    const client = createWebhookHttpClient({ policy: { allowLoopback: true }, timeoutMs: 2000, resolve: resolver });
    table['rebind.test'] = ['127.0.0.1'];
    const first = await client.post(`http://rebind.test.localhost:${rx.port}/ok`, '{}', {});
    expect(first.errorKind).toBe('dns_error'); // not in the table: shows the injected resolver is the one used
    table['rebind.test.localhost'] = ['127.0.0.1'];
    const ok = await client.post(`http://rebind.test.localhost:${rx.port}/ok`, '{}', {});
    expect(ok).toMatchObject({ ok: true, httpStatus: 200, responseSnippet: 'fine' });
    const before = rx.received.length;
    // The same name now answers with a private address: refused before any packet is sent.
    table['rebind.test.localhost'] = ['10.20.30.40'];
    const refused = await client.post(`http://rebind.test.localhost:${rx.port}/ok`, '{}', {});
    expect(refused).toMatchObject({ ok: false, errorKind: 'blocked_address' });
    expect(refused.errorMessage).toMatch(/private/);
    // A mixed answer (one good, one bad address) is refused as a whole.
    table['rebind.test.localhost'] = ['127.0.0.1', '169.254.169.254'];
    expect((await client.post(`http://rebind.test.localhost:${rx.port}/ok`, '{}', {})).errorKind).toBe(
      'blocked_address',
    );
    expect(rx.received.length).toBe(before);
    client.close();
  });

  it(
    'without the dev flag: http: and loopback are refused, even when a public-looking name ' + 'resolves to loopback',
    async () => {
      const client = createWebhookHttpClient({ policy: { allowLoopback: false }, timeoutMs: 2000, resolve: resolver });
      expect((await client.post(rx.url('/ok'), '{}', {})).errorKind).toBe('invalid_target');
      table['hooks.example.test'] = ['127.0.0.1'];
      const r = await client.post(`https://hooks.example.test:${rx.port}/ok`, '{}', {});
      expect(r).toMatchObject({ ok: false, errorKind: 'blocked_address' });
      expect(resolverCalls).toContain('hooks.example.test');
      client.close();
    },
  );

  it('does not follow redirects, times out, and reads only a capped snippet of the body', async () => {
    const client = createWebhookHttpClient({ policy: { allowLoopback: true }, timeoutMs: 500 });
    const redirected = await client.post(rx.url('/redirect'), '{}', {});
    expect(redirected).toMatchObject({ ok: false, httpStatus: 302, errorKind: 'redirect_not_followed' });
    expect(rx.received.filter((r) => r.url === '/elsewhere')).toHaveLength(0);
    const slow = await client.post(rx.url('/slow'), '{}', {});
    expect(slow).toMatchObject({ ok: false, errorKind: 'timeout', httpStatus: null });
    expect(slow.latencyMs).toBeGreaterThanOrEqual(450);
    expect(slow.latencyMs).toBeLessThan(1400);
    const big = await client.post(rx.url('/big'), '{}', {});
    expect(big).toMatchObject({ ok: false, httpStatus: 500, errorKind: 'http_error' });
    expect(big.responseSnippet!.length).toBe(256);
    const refused = await client.post('http://127.0.0.1:1/closed', '{}', {});
    expect(refused).toMatchObject({ ok: false, errorKind: 'connection_refused' });
    client.close();
  });
});
