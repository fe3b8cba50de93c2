import { createHarness, eventually, type Harness } from '../helpers/harness';
import { hashToken } from '#lib/tokens';

/**
 * The verified-token cache (decision 0211): a token is read from PostgreSQL once and then served
 * from memory, and every change that refuses or narrows it reaches the cache by notification —
 * including changes made straight in the database, as another replica or an operator would. The
 * TTL here is 10 minutes, longer than any wait below, so each 401/403 is the notification's doing.
 */
describe('verified-token cache', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ worker: false, env: { AUTH_CACHE_TTL_MS: '600000', RATE_LIMIT_READ_PER_MIN: '1000' } });
    await eventually(async () => h.app.services.accounts.verifiedTokens.active);
  });
  afterAll(async () => h?.close());

  const cache = () => h.app.services.accounts.verifiedTokens;
  const profile = (token: string) => h.call({ method: 'GET', url: '/api/v1/profile', token });

  it('a used token is served from memory: no token read on the next request', async () => {
    const s = await h.seeker();
    const token = await s.tokenWith(['profile:read']);
    expect(cache().get(hashToken(token))).toBeUndefined();
    expect((await profile(token)).statusCode).toBe(200);
    expect(cache().get(hashToken(token))).toMatchObject({ userId: s.user.id, scopes: new Set(['profile:read']) });
    // The app shares the harness's knex: every statement it sends is seen here.
    const sql: string[] = [];
    const onQuery = (q: { sql: string }) => sql.push(q.sql);
    h.knex.on('query', onQuery);
    try {
      for (let i = 0; i < 5; i++) expect((await profile(token)).statusCode).toBe(200);
    } finally {
      h.knex.off('query', onQuery);
    }
    expect(sql.length).toBeGreaterThan(0); // the profile itself and the rate limiter
    expect(sql.filter((q) => q.includes('api_tokens'))).toEqual([]);
  });

  it(
    'revoked in the database by another process: refused once the notification arrives, long ' + 'before the TTL',
    async () => {
      const s = await h.seeker();
      const token = await s.tokenWith(['profile:read']);
      expect((await profile(token)).statusCode).toBe(200);
      expect(cache().get(hashToken(token))).toBeDefined();
      await h
        .knex('api_tokens')
        .where({ token_hash: hashToken(token) })
        .update({ revoked_at: h.knex.fn.now() });
      const refused = await eventually(async () => {
        const r = await profile(token);
        return r.statusCode === 401 && r;
      });
      expect(refused.json()).toMatchObject({ code: 'UNAUTHENTICATED', error: expect.stringMatching(/revoked/) });
      expect(cache().get(hashToken(token))).toBeUndefined();
    },
  );

  it('revoked through this API: refused on the very next request', async () => {
    const s = await h.seeker();
    const token = await s.tokenWith(['profile:read']);
    expect((await profile(token)).statusCode).toBe(200);
    const row = await h
      .knex('api_tokens')
      .where({ token_hash: hashToken(token) })
      .first();
    expect(await h.app.services.accounts.tokens.revoke(s.user.id, row.id)).toBe(true);
    expect((await profile(token)).statusCode).toBe(401);
  });

  it('scopes narrowed in the database: 403 once the notification arrives', async () => {
    const s = await h.seeker();
    const token = await s.tokenWith(['profile:read', 'queue:read']);
    expect((await h.call({ method: 'GET', url: '/api/v1/queue/status', token })).statusCode).not.toBe(403);
    await h
      .knex('api_tokens')
      .where({ token_hash: hashToken(token) })
      .update({ scopes: ['profile:read'] });
    const r = await eventually(async () => {
      const res = await h.call({ method: 'GET', url: '/api/v1/queue/status', token });
      return res.statusCode === 403 && res;
    });
    expect(r.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
  });

  it(
    'listener connection lost: the cache is off (a revocation is seen at once), then back when ' + 'it reconnects',
    async () => {
      const s = await h.seeker();
      const token = await s.tokenWith(['profile:read']);
      expect((await profile(token)).statusCode).toBe(200);
      const { rows } = await h.knex.raw<{ rows: Array<{ ok: boolean }> }>(
        'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = ' +
          "current_database() AND query = 'LISTEN jobfair_auth_changed'",
      );
      expect(rows).toEqual([{ ok: true }]);
      await eventually(async () => !cache().active);
      expect(cache().get(hashToken(token))).toBeUndefined();
      // Revoked while nobody listens: the next request reads the database (nothing is cached now, and
      // a reconnect empties the cache before it is used again).
      await h
        .knex('api_tokens')
        .where({ token_hash: hashToken(token) })
        .update({ revoked_at: h.knex.fn.now() });
      expect((await profile(token)).statusCode).toBe(401);
      await eventually(async () => cache().active, 15_000);
      const other = await s.tokenWith(['profile:read']);
      expect((await profile(other)).statusCode).toBe(200);
      expect(cache().get(hashToken(other))).toBeDefined();
    },
  );
});
