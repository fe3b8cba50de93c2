import { createHarness, type Harness } from '../helpers/harness';

const LIMIT = 4;

/** Public discovery routes: per-IP GCRA in process memory (see docs/decisions/0003-rate-limiting.md). */
describe('public route rate limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      worker: false,
      env: { RATE_LIMIT_PUBLIC_PER_MIN: String(LIMIT), PUBLIC_CACHE_TTL_MS: '0' },
    });
  });
  afterAll(async () => h?.close());

  it(
    'every public route declares the class, sends the headers and answers 429 with Retry-After ' + 'per client IP',
    async () => {
      const doc = (await h.call({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      const publicOps: Array<{ method: string; path: string }> = [];
      for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
        for (const [method, op] of Object.entries<any>(item))
          if (op['x-rate-class'] === 'public') publicOps.push({ method: method.toUpperCase(), path });
      }
      // The four discovery routes at least (the spec lists 429 for them).
      expect(publicOps.map((o) => o.path)).toEqual(
        expect.arrayContaining([
          '/api/v1/live-events/live-now',
          '/api/v1/jobs/search',
          '/api/v1/events/{slug}',
          '/api/v1/live-events',
        ]),
      );

      let ipSuffix = 10;
      for (const op of publicOps) {
        const url = op.path.replace(/\{[^}]+\}/g, 'no-such-slug');
        const remoteAddress = `192.0.2.${ipSuffix++}`;
        for (let i = 1; i <= LIMIT; i++) {
          const res = await h.app.inject({ method: op.method as 'GET', url, remoteAddress });
          expect(res.statusCode).not.toBe(429);
          expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
          expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - i));
        }
        const over = await h.app.inject({ method: op.method as 'GET', url, remoteAddress });
        expect(over.statusCode).toBe(429);
        expect(over.json().code).toBe('RATE_LIMITED');
        expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        // Without TRUST_PROXY a client cannot escape its bucket by sending its own X-Forwarded-For.
        const spoofed = await h.app.inject({
          method: op.method as 'GET',
          url,
          remoteAddress,
          headers: { 'x-forwarded-for': '203.0.113.77' },
        });
        expect(spoofed.statusCode).toBe(429);
        // Another client is unaffected.
        const other = await h.app.inject({ method: op.method as 'GET', url, remoteAddress: `198.51.100.${ipSuffix}` });
        expect(other.statusCode).not.toBe(429);
      }
    },
  );
});
