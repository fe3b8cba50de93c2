import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#apps/api/src/app';
import { createKnex } from '#db/knex';
import { hashToken } from '#lib/tokens';
import { createHarness, type Harness } from '../helpers/harness';
import { buildTestApp, call, rateHeaders } from './helpers';

/**
 * Budget leases (decision 0230) through the real app: an API process takes several cells of the
 * shared GCRA bucket in one statement (a quarter of what is left, at most
 * RATE_LIMIT_LEASE_MAX_CELLS) and serves the next requests from them; unused cells go back after
 * RATE_LIMIT_LEASE_TTL_MS and at shutdown. Reads are 12/min here: T = 5 s, so the bucket refills
 * one cell per 5 s and every bound below allows for the refills of the elapsed database time.
 */
describe('rate limiting with budget leases', () => {
  const LIMIT = 12;
  const T = 5000;
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      worker: false,
      env: { RATE_LIMIT_READ_PER_MIN: String(LIMIT), RATE_LIMIT_LEASE_MAX_CELLS: '8', RATE_LIMIT_LEASE_TTL_MS: '300' },
    });
  });
  afterAll(async () => h?.close());

  const dbNow = async () =>
    Number(
      (
        await h.knex.raw<{ rows: Array<{ n: string }> }>(
          'SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint AS n',
        )
      ).rows[0].n,
    );
  /** The shared bucket's TAT for a token's reads (what every replica sees). */
  const tatOf = async (token: string) => {
    const { rows } = await h.knex.raw<{ rows: Array<{ tat_ms: string }> }>(
      "SELECT b.tat_ms FROM rate_limit_buckets b JOIN api_tokens t ON b.bucket = t.id || ':read' " +
        'WHERE t.token_hash = ?',
      [hashToken(token)],
    );
    return rows.length ? Number(rows[0].tat_ms) : null;
  };
  const refillsSince = async (startMs: number) => Math.floor(((await dbNow()) - startMs) / T);
  const read = (app: FastifyInstance, token: string) => call(app, { method: 'GET', url: '/api/v1/profile', token });

  it(
    'one statement serves several requests; the headers are those of one request per ' +
      'statement; the burst is the limit',
    async () => {
      // A long TTL, so the lease cannot expire between two requests on a slow machine.
      const app = await buildTestApp(h, { config: { ...h.config, RATE_LIMIT_LEASE_TTL_MS: 10_000 } });
      try {
        const s = await h.seeker();
        const start = await dbNow();
        const first = await read(app, s.token);
        expect(first.statusCode).toBe(200);
        expect(rateHeaders(first)).toMatchObject({ limit: '12', remaining: '11' });
        // A quarter of the 12 cells left: 3 taken from the shared bucket at once.
        const tat1 = (await tatOf(s.token))!;
        expect(tat1 - start).toBeGreaterThan(2 * T);
        expect(tat1 - start).toBeLessThanOrEqual(3 * T + ((await dbNow()) - start));
        // The next two are served from the lease: no statement, the shared TAT does not move.
        const second = await read(app, s.token);
        const third = await read(app, s.token);
        expect([second, third].map((r) => r.statusCode)).toEqual([200, 200]);
        expect(await tatOf(s.token)).toBe(tat1);
        // Remaining counts down as it would with a statement per request (plus any refill).
        const refills = await refillsSince(start);
        expect(Number(rateHeaders(second).remaining)).toBeGreaterThanOrEqual(10);
        expect(Number(rateHeaders(third).remaining)).toBeGreaterThanOrEqual(9);
        expect(Number(rateHeaders(third).remaining)).toBeLessThanOrEqual(9 + refills);
        // The fourth needs a new lease: a quarter of the 9 left = 2 cells.
        const fourth = await read(app, s.token);
        expect(fourth.statusCode).toBe(200);
        expect(await tatOf(s.token)).toBe(tat1 + 2 * T);

        // Spend the rest: exactly the limit in all (plus refills), then 429 with the usual headers.
        let allowed = 4;
        let over = await read(app, s.token);
        while (over.statusCode === 200) {
          allowed += 1;
          expect(allowed).toBeLessThanOrEqual(LIMIT + (await refillsSince(start)));
          over = await read(app, s.token);
        }
        expect(allowed).toBeGreaterThanOrEqual(LIMIT);
        expect(over.statusCode).toBe(429);
        expect(rateHeaders(over)).toMatchObject({ limit: '12', remaining: '0' });
        const retryAfter = Number(over.headers['retry-after']);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(T / 1000);
      } finally {
        await app.close();
      }
    },
  );

  it('two instances on one database never exceed one budget together', async () => {
    const knexB = createKnex(h.dbUrl, 3);
    const appB = await buildApp({ config: h.config, knex: knexB, temporal: h.temporal, logger: false });
    try {
      const s = await h.seeker();
      const start = await dbNow();
      // 30 at once, split over both instances (each leases and serves its own share).
      const all = await Promise.all(Array.from({ length: 30 }, (_, i) => read(i % 2 ? h.app : appB, s.token)));
      const ok = all.filter((r) => r.statusCode === 200).length;
      expect(all.filter((r) => r.statusCode !== 200 && r.statusCode !== 429)).toEqual([]);
      expect(ok).toBeGreaterThanOrEqual(1);
      expect(ok).toBeLessThanOrEqual(LIMIT + (await refillsSince(start)));
      // Every 429 carries the headers and a Retry-After within one emission interval.
      for (const r of all.filter((x) => x.statusCode === 429)) {
        expect(rateHeaders(r)).toMatchObject({ limit: '12', remaining: '0' });
        expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(T / 1000);
      }
      // Then, alternating, until both refuse with no lease out anywhere (both given back after
      // the 300 ms TTL): still never more than the budget, and all of it is reached.
      let total = ok;
      const deadline = Date.now() + 20_000;
      for (;;) {
        const [a, b] = [await read(h.app, s.token), await read(appB, s.token)];
        total += [a, b].filter((r) => r.statusCode === 200).length;
        expect(total).toBeLessThanOrEqual(LIMIT + (await refillsSince(start)));
        if (total >= LIMIT) break;
        if (Date.now() > deadline) throw new Error(`only ${total} of ${LIMIT} allowed after 20 s`);
      }
    } finally {
      await appB.close();
      await knexB.destroy();
    }
  });

  it('unused cells go back to the shared bucket when the lease expires', async () => {
    const s = await h.seeker();
    expect((await read(h.app, s.token)).statusCode).toBe(200);
    const tat1 = (await tatOf(s.token))!; // 3 cells taken, 1 served
    const deadline = Date.now() + 10_000;
    while ((await tatOf(s.token)) === tat1) {
      if (Date.now() > deadline) throw new Error('the unused cells were not given back within 10 s');
      await sleep(50);
    }
    // tat − 2·T, never below now (a bucket cannot be fuller than full).
    const now = await dbNow();
    const tat2 = (await tatOf(s.token))!;
    expect(tat2).toBeGreaterThanOrEqual(tat1 - 2 * T);
    expect(tat2).toBeLessThanOrEqual(Math.max(tat1 - 2 * T, now));
  });

  it(
    'a request refused while another instance holds unused cells gets them once that instance ' +
      'gives them back (shutdown)',
    async () => {
      // A holds its lease for 10 s (long TTL); B (the harness app, 300 ms TTL) drains the rest.
      const knexA = createKnex(h.dbUrl, 3);
      const appA = await buildApp({
        config: { ...h.config, RATE_LIMIT_LEASE_TTL_MS: 10_000 },
        knex: knexA,
        temporal: h.temporal,
        logger: false,
      });
      let closed = false;
      try {
        const s = await h.seeker();
        const start = await dbNow();
        expect((await read(appA, s.token)).statusCode).toBe(200); // A: 3 cells leased, 2 unused
        let viaB = 0;
        let refused = await read(h.app, s.token);
        while (refused.statusCode === 200) {
          viaB += 1;
          refused = await read(h.app, s.token);
        }
        expect(refused.statusCode).toBe(429);
        // The 2 cells A holds were not B's to spend (the unfairness the TTL bounds).
        expect(viaB).toBeLessThanOrEqual(LIMIT - 3 + (await refillsSince(start)));
        // A stops: its unused cells go back before it closes, and B gets them at once.
        await appA.close();
        closed = true;
        const after = [await read(h.app, s.token), await read(h.app, s.token)];
        expect(after.map((r) => r.statusCode)).toEqual([200, 200]);
      } finally {
        if (!closed) await appA.close();
        await knexA.destroy();
      }
    },
  );
});
