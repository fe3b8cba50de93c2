import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Client } from '@temporalio/client';
import { createHarness, type Harness } from '../helpers/harness';
import { testEnv } from '../helpers/env';
import { buildTestApp, call } from './helpers';
import { buildApp } from '#apps/api/src/app';
import { connectClosable } from '#lib/temporal-connection';

const failing: FastifyPluginAsyncZod = async (app) => {
  app.get('/test/throws', {
    config: { scope: 'profile:read', rateClass: 'read' },
    schema: { operationId: 'testThrows', response: { 200: z.object({ ok: z.boolean() }) } },
    handler: async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'secret_column') at /srv/app/internal.ts:42");
    },
  });
  app.get('/test/sql', {
    config: { scope: 'profile:read', rateClass: 'read' },
    schema: { operationId: 'testSql', response: { 200: z.object({ ok: z.boolean() }) } },
    handler: async () => {
      await app.knex.raw('SELECT password_hash FROM no_such_table_xyz');
      return { ok: true };
    },
  });
  app.get('/test/bad-shape', {
    config: { scope: 'profile:read', rateClass: 'read' },
    schema: { operationId: 'testBadShape', response: { 200: z.object({ ok: z.boolean() }) } },
    handler: async () => ({ ok: 'internal-token-svc_leak' }) as unknown as { ok: boolean },
  });
};

describe('errors: one envelope for every non-2xx', () => {
  let h: Harness;
  let app: FastifyInstance;
  beforeAll(async () => {
    h = await createHarness({ worker: false });
    app = await buildTestApp(h, { routes: (a) => a.register(failing) });
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('unknown routes and methods → 404 NOT_FOUND in the envelope', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/no-such-thing'],
      ['DELETE', '/api/v1/profile'],
      ['GET', '/nowhere'],
    ] as const) {
      const res = await h.call({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: expect.stringContaining(url), code: 'NOT_FOUND' });
    }
  });

  it(
    'bad JSON → 400 VALIDATION; a body over 1 MiB → 413 PAYLOAD_TOO_LARGE; an unsupported ' + 'content type → 415',
    async () => {
      const s = await h.seeker();
      const bad = await h.call({
        method: 'PATCH',
        url: '/api/v1/profile',
        token: s.token,
        headers: { 'content-type': 'application/json' },
        payload: '{"title": "x",',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        code: 'VALIDATION',
        error: 'Request body is not valid JSON',
        details: { issues: [{ path: 'body' }] },
      });
      // An authenticated answer even though the body never reached the limiter: headers are there.
      expect(bad.headers['x-ratelimit-limit']).toBe('30');

      const big = await h.call({
        method: 'PATCH',
        url: '/api/v1/profile',
        token: s.token,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ summary: 'x'.repeat(1024 * 1024 + 10) }),
      });
      expect(big.statusCode).toBe(413);
      expect(big.json()).toEqual({ error: expect.any(String), code: 'PAYLOAD_TOO_LARGE' });

      const text = await h.call({
        method: 'PATCH',
        url: '/api/v1/profile',
        token: s.token,
        headers: { 'content-type': 'application/xml' },
        payload: '<title>x</title>',
      });
      expect(text.statusCode).toBe(415);
      expect(text.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    },
  );

  it('5xx never leak internals: thrown errors, SQL errors, responses that do not match their schema', async () => {
    const s = await h.seeker();
    for (const url of ['/api/v1/test/throws', '/api/v1/test/sql', '/api/v1/test/bad-shape']) {
      const res = await call(app, { method: 'GET', url, token: s.token });
      expect([url, res.statusCode]).toEqual([url, 500]);
      expect(res.json()).toEqual({ error: 'Internal error; it has been logged', code: 'INTERNAL' });
      expect(res.body).not.toMatch(/secret_column|internal\.ts|no_such_table|password_hash|svc_leak|stack/);
    }
  });

  it('a join caught by the shutdown (its Temporal channel closed) → 503 with Retry-After, not 500', async () => {
    const connection = await connectClosable({ address: testEnv().temporalAddress });
    const temporal = new Client({ connection: connection.connection, namespace: h.config.TEMPORAL_NAMESPACE });
    const closing = await buildApp({ config: h.config, knex: h.knex, temporal, logger: false });
    try {
      const s = await h.seeker();
      await connection.close();
      const res = await call(closing, { method: 'POST', url: '/api/v1/queue/join', token: s.token });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await closing.close();
    }
  });

  it('unknown properties are named in details.issues[].path, one issue per property', async () => {
    const s = await h.seeker();
    const res = await h.call({
      method: 'PATCH',
      url: '/api/v1/profile',
      token: s.token,
      payload: { title: 'Engineer', favourite_color: 'green', salary: 1 },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION');
    expect(body.details.issues).toEqual(
      expect.arrayContaining([
        { path: 'body.favourite_color', message: "unknown property 'favourite_color' is not allowed" },
        { path: 'body.salary', message: "unknown property 'salary' is not allowed" },
      ]),
    );
    expect(body.error).toMatch(/favourite_color/);
    // Nested problems are located precisely.
    const nested = await h.call({
      method: 'PATCH',
      url: '/api/v1/profile',
      token: s.token,
      payload: { skills: ['Go', 7] },
    });
    expect(nested.json().details.issues).toEqual([{ path: 'body.skills.1', message: expect.any(String) }]);
  });
});

describe('PATCH /profile and GET /profile', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      worker: false,
      env: { RATE_LIMIT_WRITE_PER_MIN: '1000', RATE_LIMIT_READ_PER_MIN: '1000' },
    });
  });
  afterAll(async () => h?.close());

  const patch = (token: string, payload: unknown) =>
    h.call({ method: 'PATCH', url: '/api/v1/profile', token, payload: payload as object });
  const get = (token: string) => h.call({ method: 'GET', url: '/api/v1/profile', token });

  it('before onboarding: GET → { profile: null }, PATCH → 409 ONBOARDING_INCOMPLETE and nothing is created', async () => {
    const s = await h.seeker({ onboarded: false });
    expect((await get(s.token)).json()).toEqual({ profile: null });
    const res = await patch(s.token, { title: 'Engineer' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ONBOARDING_INCOMPLETE', error: expect.stringMatching(/onboarding/) });
    expect(await h.knex('profiles').where({ user_id: s.user.id }).first()).toBeUndefined();
  });

  it(
    'updates any of the fields → { profile_id }, with trimmed, de-duplicated skills and nulls ' + 'where allowed',
    async () => {
      const s = await h.seeker();
      const res = await patch(s.token, {
        full_name: '  Ada Lovelace ',
        title: 'Staff Engineer',
        summary: null,
        skills: [' TypeScript ', 'typescript', 'Go', 'go ', 'PostgreSQL', 'Go'],
        experience_years: 60,
        location: null,
        remote_preference: 'fully_remote',
      });
      expect(res.statusCode).toBe(200);
      const { profile_id } = res.json();
      expect(profile_id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await h.knex('profiles').where({ user_id: s.user.id }).first()).id).toBe(profile_id);
      const { profile } = (await get(s.token)).json();
      expect(profile).toMatchObject({
        full_name: 'Ada Lovelace',
        title: 'Staff Engineer',
        summary: null,
        skills: ['TypeScript', 'Go', 'PostgreSQL'],
        experience_years: 60,
        location: null,
        remote_preference: 'fully_remote',
      });
      // Partial updates leave the rest alone; remote_preference can be cleared.
      expect(
        (await patch(s.token, { experience_years: 0, remote_preference: null, location: 'Berlin' })).statusCode,
      ).toBe(200);
      expect((await get(s.token)).json().profile).toMatchObject({
        title: 'Staff Engineer',
        experience_years: 0,
        remote_preference: null,
        location: 'Berlin',
        skills: ['TypeScript', 'Go', 'PostgreSQL'],
      });
    },
  );

  it('refuses bad values with 400 naming the property, and changes nothing', async () => {
    const s = await h.seeker();
    const before = await h.knex('profiles').where({ user_id: s.user.id }).first();
    const cases: Array<[unknown, string]> = [
      [{ experience_years: -1 }, 'body.experience_years'],
      [{ experience_years: 61 }, 'body.experience_years'],
      [{ experience_years: 2.5 }, 'body.experience_years'],
      [{ experience_years: '5' }, 'body.experience_years'],
      [{ remote_preference: 'remote' }, 'body.remote_preference'],
      [{ full_name: null }, 'body.full_name'],
      [{ full_name: '   ' }, 'body.full_name'],
      [{ full_name: 'x'.repeat(201) }, 'body.full_name'],
      [{ title: null }, 'body.title'],
      [{ skills: null }, 'body.skills'],
      [{ skills: Array.from({ length: 51 }, (_, i) => `s${i}`) }, 'body.skills'],
      [{ skills: ['x'.repeat(61)] }, 'body.skills.0'],
      [{ skills: ['  '] }, 'body.skills.0'],
      [{ summary: 'x'.repeat(5001) }, 'body.summary'],
      [{ location: 'x'.repeat(201) }, 'body.location'],
      [{}, 'body'],
      [[], 'body'],
    ];
    for (const [payload, path] of cases) {
      const res = await patch(s.token, payload);
      expect([payload, res.statusCode, res.json().code]).toEqual([payload, 400, 'VALIDATION']);
      expect([payload, res.json().details.issues.map((i: { path: string }) => i.path)]).toEqual([
        payload,
        expect.arrayContaining([path]),
      ]);
    }
    const after = await h.knex('profiles').where({ user_id: s.user.id }).first();
    expect(after).toEqual(before);
  });

  it("is per caller: a PATCH by one user never touches another user's profile; scopes are enforced", async () => {
    const a = await h.seeker();
    const b = await h.seeker();
    const bBefore = (await get(b.token)).json().profile;
    expect((await patch(a.token, { title: 'Only mine' })).statusCode).toBe(200);
    expect((await get(b.token)).json().profile).toEqual(bBefore);
    expect((await get(a.token)).json().profile.title).toBe('Only mine');
    const readOnly = await a.tokenWith(['profile:read']);
    const denied = await patch(readOnly, { title: 'x' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required_scope: 'profile:write' } });
    const writeOnly = await a.tokenWith(['profile:write']);
    expect((await get(writeOnly)).json()).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required_scope: 'profile:read' },
    });
  });

  it(
    'X-Agent-Identity: at most 200 characters of the form <vendor>/<product> (<contact>) on ' +
      'every authenticated call',
    async () => {
      const s = await h.seeker();
      const ok200 = `acme/jobbot (${'o'.repeat(200 - 'acme/jobbot ()'.length)})`;
      expect(ok200).toHaveLength(200);
      for (const good of ['acme/jobbot (ops@acme.example)', 'acme/jobbot-2.1 (https://acme.example/contact)', ok200]) {
        expect([
          good,
          (
            await h.call({
              method: 'GET',
              url: '/api/v1/profile',
              token: s.token,
              headers: { 'x-agent-identity': good },
            })
          ).statusCode,
        ]).toEqual([good, 200]);
      }
      const tooLong = `acme/jobbot (${'o'.repeat(200 - 'acme/jobbot ()'.length + 1)})`;
      for (const bad of [
        tooLong,
        'acme',
        'acme/jobbot',
        'acme/jobbot(ops@acme.example)',
        'acme/jobbot (ops) trailing',
        'ac me/jobbot (ops)',
        '/jobbot (ops)',
      ]) {
        const res = await h.call({
          method: 'PATCH',
          url: '/api/v1/profile',
          token: s.token,
          payload: { title: 'Agent-set' },
          headers: { 'x-agent-identity': bad },
        });
        expect([bad, res.statusCode]).toEqual([bad, 400]);
        expect(res.json()).toMatchObject({
          code: 'VALIDATION',
          details: { issues: [{ path: 'headers.x-agent-identity' }] },
        });
      }
      expect((await get(s.token)).json().profile.title).not.toBe('Agent-set');
    },
  );
});
