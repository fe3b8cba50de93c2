import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '#apps/api/src/app';
import { createKnex } from '#db/knex';
import { createHarness, type Harness } from '../helpers/harness';
import { gcraParams } from '#apps/api/src/plugins/rate-limit';
import { rateHeaders } from './helpers';

describe('rate limiting (GCRA in PostgreSQL)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      worker: false,
      // The suite counts every answer against the limits: no retries, no keys it did not send.
      client: { retry: false, idempotencyKey: false },
      env: { RATE_LIMIT_READ_PER_MIN: '5', RATE_LIMIT_WRITE_PER_MIN: '4', RATE_LIMIT_COST_PER_MIN: '3' },
    });
  });
  afterAll(async () => h?.close());

  const take = async (bucket: string, intervalMs: number, horizonMs: number) =>
    (
      await h.knex.raw<{ rows: Array<{ allowed: boolean }> }>('SELECT * FROM rate_limit_take(?, ?, ?)', [
        bucket,
        intervalMs,
        horizonMs,
      ])
    ).rows[0].allowed;

  it(
    'headers: Limit, Remaining counting down, Reset in Unix seconds; then 429 with Retry-After ' +
      'of one emission interval',
    async () => {
      const s = await h.seeker();
      const interval = 60 / 5; // seconds between requests once the burst of 5 is spent
      const seen: Array<ReturnType<typeof rateHeaders>> = [];
      for (let i = 1; i <= 5; i++) {
        const before = Date.now() / 1000;
        const res = await h.call({ method: 'GET', url: '/api/v1/profile', token: s.token });
        expect(res.statusCode).toBe(200);
        const hd = rateHeaders(res);
        seen.push(hd);
        expect(hd.limit).toBe('5');
        expect(hd.remaining).toBe(String(5 - i));
        // Reset: when the bucket is full again = now + i intervals (Unix seconds, not "seconds remaining").
        const reset = Number(hd.reset);
        expect(reset).toBeGreaterThanOrEqual(Math.floor(before + i * interval) - 1);
        expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000 + i * interval) + 1);
      }
      expect(seen.map((x) => Number(x.reset))).toEqual([...seen.map((x) => Number(x.reset))].sort((a, b) => a - b));

      const over = await h.call({ method: 'GET', url: '/api/v1/profile', token: s.token });
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after_seconds: expect.any(Number) } });
      const retryAfter = Number(over.headers['retry-after']);
      // GCRA frees one request per interval (12 s here), not at the end of a window.
      expect(retryAfter).toBeGreaterThanOrEqual(interval - 2);
      expect(retryAfter).toBeLessThanOrEqual(interval);
      expect(rateHeaders(over)).toMatchObject({ limit: '5', remaining: '0', reset: seen[4].reset });

      // Classes are separate buckets: writes still have their own 4.
      const write = await h.call({
        method: 'PATCH',
        url: '/api/v1/profile',
        token: s.token,
        payload: { title: 'Engineer' },
      });
      expect(write.statusCode).toBe(200);
      expect(rateHeaders(write)).toMatchObject({ limit: '4', remaining: '3' });
      // …and tokens are separate callers.
      const other = await h.call({ method: 'GET', url: '/api/v1/profile', token: await s.tokenWith(['profile:read']) });
      expect(rateHeaders(other)).toMatchObject({ limit: '5', remaining: '4' });
    },
  );

  it('smooth: after a burst, one request per interval — no 2x burst when a "window" turns over', async () => {
    // rate_limit_take with small parameters: 10 per 5 s (interval 500 ms). Bounds use the database
    // clock the function reports, so a slow machine cannot make the test pass or fail by accident.
    const T = 500;
    const takeAt = async (bucket: string) => {
      const { rows } = await h.knex.raw<{ rows: Array<{ allowed: boolean; now_ms: number }> }>(
        'SELECT * FROM rate_limit_take(?, ?, ?)',
        [bucket, T, 10 * T],
      );
      return { allowed: rows[0].allowed, now: Number(rows[0].now_ms) };
    };
    const bucket = `smooth-${Date.now()}`;
    const burst = await Promise.all(Array.from({ length: 14 }, () => takeAt(bucket)));
    expect(burst.filter((b) => b.allowed)).toHaveLength(10);
    const burstEnd = Math.max(...burst.map((b) => b.now));
    // A fixed window would hand out 10 more as soon as the next window starts. GCRA hands out one
    // per elapsed interval: after ~600 ms, one (a second only if the machine stalled past 1 s).
    await sleep(600);
    const edge = [];
    for (let i = 0; i < 10; i++) edge.push(await takeAt(bucket));
    const edgeAllowed = edge.filter((e) => e.allowed).length;
    const elapsed = edge[edge.length - 1].now - burstEnd;
    expect(edge[0].allowed).toBe(true);
    expect(edgeAllowed).toBeLessThanOrEqual(Math.floor(elapsed / T) + 1);
    expect(edgeAllowed).toBeLessThan(10);
    // Sustained pressure converges on the rate: never more than one per elapsed interval.
    const start = edge[edge.length - 1].now;
    let passed = 0;
    let last = start;
    while (Date.now() - start < 1600 || passed === 0) {
      const r = await takeAt(bucket);
      last = r.now;
      if (r.allowed) passed++;
      await sleep(20);
    }
    expect(passed).toBeGreaterThanOrEqual(1);
    expect(passed).toBeLessThanOrEqual(Math.floor((last - start) / T) + 1);
  });

  it('the burst equals the limit even when 60 s is not a multiple of it (7/min)', async () => {
    const { intervalMs, horizonMs } = gcraParams(7);
    expect(intervalMs).toBe(8572);
    const bucket = `seven-${Date.now()}`;
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await take(bucket, intervalMs, horizonMs));
    expect(results).toEqual([true, true, true, true, true, true, true, false]);
  });

  it('is correct under concurrency: 20 simultaneous requests on one token, exactly the limit pass', async () => {
    const s = await h.seeker();
    const res = await Promise.all(
      Array.from({ length: 20 }, () => h.call({ method: 'GET', url: '/api/v1/profile', token: s.token })),
    );
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(5);
    expect(res.filter((r) => r.statusCode === 429)).toHaveLength(15);
    expect(
      res
        .map((r) => r.headers['x-ratelimit-remaining'])
        .filter((x) => x !== '0')
        .sort(),
    ).toEqual(['1', '2', '3', '4']);
  });

  it(
    'decides in lock order: concurrent takers on one bucket never see the same "now" go ' +
      'backwards (distinct remaining counts)',
    async () => {
      // 10 takers at once on a fresh 5/min bucket, 20 rounds: with the clock read before waiting for
      // the row lock, a later taker could decide with an older "now" and report a duplicate count.
      const { intervalMs, horizonMs } = gcraParams(5);
      for (let round = 0; round < 20; round++) {
        const bucket = `lock-order-${round}-${Date.now()}`;
        const rows = await Promise.all(
          Array.from(
            { length: 10 },
            async () =>
              (
                await h.knex.raw<{ rows: Array<{ allowed: boolean; tat_ms: string; now_ms: string }> }>(
                  'SELECT * FROM rate_limit_take(?, ?, ?)',
                  [bucket, intervalMs, horizonMs],
                )
              ).rows[0],
          ),
        );
        const allowed = rows.filter((r) => r.allowed).sort((a, b) => Number(a.tat_ms) - Number(b.tat_ms));
        expect(allowed).toHaveLength(5);
        const remaining = allowed.map((r) =>
          Math.floor((Number(r.now_ms) + horizonMs - Number(r.tat_ms)) / intervalMs),
        );
        expect(remaining).toEqual([4, 3, 2, 1, 0]);
        // In lock order (TAT grows with it) the clock never runs backwards.
        const nows = allowed.map((r) => Number(r.now_ms));
        expect(nows).toEqual([...nows].sort((x, y) => x - y));
      }
    },
  );

  it('one budget across two API instances on one database', async () => {
    // A second, independent app instance: its own Fastify, its own knex pool, the same database.
    const knexB = createKnex(h.dbUrl, 3);
    const appB = await buildApp({ config: h.config, knex: knexB, temporal: h.temporal, logger: false });
    try {
      const s = await h.seeker();
      const viaB = (token: string) =>
        appB.inject({ method: 'GET', url: '/api/v1/profile', headers: { authorization: `Bearer ${token}` } });
      const viaA = (token: string) => h.call({ method: 'GET', url: '/api/v1/profile', token });
      // Alternating A, B, A, B, A: one bucket counts down across both.
      const remaining = [];
      for (let i = 0; i < 5; i++) {
        const r = i % 2 === 0 ? await viaA(s.token) : await viaB(s.token);
        expect(r.statusCode).toBe(200);
        remaining.push(r.headers['x-ratelimit-remaining']);
      }
      expect(remaining).toEqual(['4', '3', '2', '1', '0']);
      expect((await viaB(s.token)).statusCode).toBe(429);
      expect((await viaA(s.token)).statusCode).toBe(429);

      // Simultaneous requests split over both instances still share one budget of 5.
      const t = await s.tokenWith(['profile:read']);
      const all = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? viaA(t) : viaB(t))));
      expect(all.filter((r) => r.statusCode === 200)).toHaveLength(5);
      expect(all.filter((r) => r.statusCode === 429)).toHaveLength(7);
    } finally {
      await appB.close();
      await knexB.destroy();
    }
  });
});
