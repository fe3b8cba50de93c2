import { randomUUID } from 'node:crypto';
import { createHarness, type Harness } from '../helpers/harness';
import { collectRoutes, fillParams, type CollectedRoute } from './helpers';
import { SCOPES, type Scope } from '#lib/scopes';
import { generateToken, hashToken } from '#lib/tokens';

/**
 * The conventions matrix: for EVERY scoped /api/v1 route the app registers (found by an onRoute
 * hook, so routes added later are covered without editing this file), the platform's promises hold:
 * 401 without a token, 403 INSUFFICIENT_SCOPE with a token lacking the scope, rate-limit headers on
 * every authenticated answer, 429 RATE_LIMITED with Retry-After once the class limit is spent.
 * What a route answers to random ids (404, 400, 409…) is its own business; 401/403/429 are ours.
 */
const LIMITS = { read: 3, write: 3, cost: 2, public: 4 } as const;

describe('route matrix: every scoped /api/v1 route', () => {
  let h: Harness;
  let routes: CollectedRoute[];
  let scoped: CollectedRoute[];

  beforeAll(async () => {
    h = await createHarness({
      env: {
        RATE_LIMIT_READ_PER_MIN: String(LIMITS.read),
        RATE_LIMIT_WRITE_PER_MIN: String(LIMITS.write),
        RATE_LIMIT_COST_PER_MIN: String(LIMITS.cost),
        RATE_LIMIT_PUBLIC_PER_MIN: String(LIMITS.public),
        QUEUE_ENTRY_TTL_MS: '600000',
      },
    });
    routes = await collectRoutes(h);
    scoped = routes.filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD' && r.config.scope);
    if (process.env.MATRIX_VERBOSE)
      console.log(
        `route matrix: ${scoped.length} scoped routes\n${scoped.map((r) => `  ${r.method} ${r.url} ${r.config.scope} ${r.config.rateClass}`).join('\n')}`,
      );
  });
  afterAll(async () => h?.close());

  const request = (r: CollectedRoute, token?: string, headers: Record<string, string> = {}) =>
    h.call({
      method: r.method as 'GET',
      url: fillParams(r.url, randomUUID),
      token,
      headers,
      // The matrix counts each answer against the class limit and asserts the 429 itself.
      retry: false,
      idempotencyKey: false,
      ...(['POST', 'PATCH', 'PUT'].includes(r.method) ? { payload: {} } : {}),
    });

  it('finds the routes by enumerating the router, and every scoped route declares a rate class', () => {
    const names = scoped.map((r) => `${r.method} ${r.url}`);
    // The routes that exist since the foundation; anything added later is picked up the same way.
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /api/v1/profile',
        'PATCH /api/v1/profile',
        'POST /api/v1/queue/join',
        'GET /api/v1/queue/status',
      ]),
    );
    for (const r of scoped) {
      expect([r.method, r.url, SCOPES.includes(r.config.scope as Scope)]).toEqual([r.method, r.url, true]);
      expect([r.method, r.url, r.config.rateClass]).toEqual([
        r.method,
        r.url,
        expect.stringMatching(/^(read|write|cost)$/),
      ]);
    }
    // Public routes exist too (OpenAPI document, changelog) and are not in the scoped matrix.
    expect(routes.some((r) => r.url === '/api/v1/openapi.json' && !r.config.scope)).toBe(true);
  });

  it('401 UNAUTHENTICATED without a token, with no rate-limit headers, on every scoped route', async () => {
    const failures: string[] = [];
    for (const r of scoped) {
      const res = await request(r);
      const body = res.json();
      if (
        res.statusCode !== 401 ||
        body.code !== 'UNAUTHENTICATED' ||
        typeof body.error !== 'string' ||
        res.headers['x-ratelimit-limit'] !== undefined
      ) {
        failures.push(`${r.method} ${r.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it(
    '403 INSUFFICIENT_SCOPE naming the scope, with rate-limit headers, for a token lacking it, ' +
      'on every scoped route',
    async () => {
      const failures: string[] = [];
      const s = await h.seeker();
      for (const r of scoped) {
        const scope = r.config.scope!;
        // Every other scope, and a fresh token per route: each token has its own rate-limit bucket.
        const res = await request(r, await s.tokenWith(SCOPES.filter((x) => x !== scope)));
        const body = res.json();
        const ok =
          res.statusCode === 403 &&
          body.code === 'INSUFFICIENT_SCOPE' &&
          body.details?.required_scope === scope &&
          /^\d+$/.test(String(res.headers['x-ratelimit-limit'])) &&
          /^\d+$/.test(String(res.headers['x-ratelimit-remaining'])) &&
          /^\d{10}$/.test(String(res.headers['x-ratelimit-reset']));
        if (!ok)
          failures.push(
            `${r.method} ${r.url}: ${res.statusCode} ` +
              `${JSON.stringify(res.headers['x-ratelimit-limit'])} ${res.body.slice(0, 200)}`,
          );
      }
      expect(failures).toEqual([]);
    },
  );

  it(
    'rate-limit headers on every authenticated answer, then 429 RATE_LIMITED with Retry-After ' +
      'after the class limit, on every scoped route',
    async () => {
      const failures: string[] = [];
      for (const r of scoped) {
        const limit = LIMITS[r.config.rateClass!];
        // A fresh caller per route: each token has its own bucket per class.
        const caller =
          r.config.scope && ['events:write', 'jobs:write', 'candidates:write'].includes(r.config.scope)
            ? await h.recruiter()
            : await h.seeker();
        const statuses: number[] = [];
        for (let i = 1; i <= limit; i++) {
          // Fresh random ids every call: a cost-bearing route's automatic bucket must not turn these into free replays.
          const res = await request(r, caller.token);
          statuses.push(res.statusCode);
          const remaining = Number(res.headers['x-ratelimit-remaining']);
          if (
            res.headers['x-ratelimit-limit'] !== String(limit) ||
            remaining !== limit - i ||
            !/^\d{10}$/.test(String(res.headers['x-ratelimit-reset']))
          ) {
            failures.push(
              `${r.method} ${r.url} call ${i}: ${res.statusCode} limit=${res.headers['x-ratelimit-limit']} ` +
                `remaining=${res.headers['x-ratelimit-remaining']}`,
            );
          }
          // A business refusal (403 with another code, e.g. a seeker on a recruiter route) is the route's answer; ours are not.
          const code = res.statusCode >= 400 ? res.json().code : undefined;
          if (
            res.statusCode === 401 ||
            res.statusCode === 429 ||
            code === 'INSUFFICIENT_SCOPE' ||
            res.statusCode >= 500
          )
            failures.push(`${r.method} ${r.url} call ${i}: unexpected ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
        const over = await request(r, caller.token);
        const body = over.json();
        const retryAfter = Number(over.headers['retry-after']);
        if (
          over.statusCode !== 429 ||
          body.code !== 'RATE_LIMITED' ||
          !(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60) ||
          over.headers['x-ratelimit-remaining'] !== '0' ||
          over.headers['x-ratelimit-limit'] !== String(limit)
        ) {
          failures.push(
            `${r.method} ${r.url} call ${limit + 1}: ${over.statusCode} retry-after=${over.headers['retry-after']} ` +
              `${over.body.slice(0, 200)} (earlier: ${statuses.join(',')})`,
          );
        }
      }
      expect(failures).toEqual([]);
    },
  );

  it(
    '401 for malformed, unknown, expired and revoked tokens (GET /profile), none of them with ' + 'rate-limit headers',
    async () => {
      const s = await h.seeker();
      const expired = await s.tokenWith(['profile:read']);
      await h
        .knex('api_tokens')
        .where({ token_hash: hashToken(expired) })
        .update({ expires_at: new Date(Date.now() - 1000) });
      const revoked = await s.tokenWith(['profile:read']);
      const row = await h
        .knex('api_tokens')
        .where({ token_hash: hashToken(revoked) })
        .first();
      expect(await h.app.services.accounts.tokens.revoke(s.user.id, row.id)).toBe(true);
      const flipped = s.token.slice(0, 10) + (s.token[10] === 'a' ? 'b' : 'a') + s.token.slice(11);

      const cases: Array<[string, Record<string, string>, RegExp]> = [
        ['missing header', {}, /Missing Authorization/],
        ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, /Malformed/],
        ['Bearer without a token', { authorization: 'Bearer' }, /Malformed/],
        ['two tokens', { authorization: `Bearer ${s.token} ${s.token}` }, /Malformed/],
        [
          'not an svc_ token',
          { authorization: 'Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789' },
          /not a valid svc_ token/,
        ],
        ['checksum mismatch', { authorization: `Bearer ${flipped}` }, /not a valid svc_ token/],
        ['unknown (valid checksum)', { authorization: `Bearer ${generateToken()}` }, /unknown/],
        ['expired', { authorization: `Bearer ${expired}` }, /expired/],
        ['revoked', { authorization: `Bearer ${revoked}` }, /revoked/],
      ];
      for (const [name, headers, message] of cases) {
        const res = await h.call({ method: 'GET', url: '/api/v1/profile', headers });
        expect([name, res.statusCode, res.json().code]).toEqual([name, 401, 'UNAUTHENTICATED']);
        expect([name, res.json().error]).toEqual([name, expect.stringMatching(message)]);
        expect([name, res.headers['x-ratelimit-limit']]).toEqual([name, undefined]);
      }
      // The scheme is case-insensitive (RFC 9110) and the right token still works.
      const ok = await h.call({
        method: 'GET',
        url: '/api/v1/profile',
        headers: { authorization: `bearer ${s.token}` },
      });
      expect(ok.statusCode).toBe(200);
    },
  );
});
