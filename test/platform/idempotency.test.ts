import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '#lib/errors';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { buildTestApp, call, rateHeaders } from './helpers';

/**
 * Idempotency against test-only routes on the real app plugin (so no other capability is needed):
 * each route's side effect is a row in a table this file creates.
 */
/** Requests sent with `hold: true` wait in their handler (after the side effect) until the test releases them, by `n`. */
const held = new Map<number, () => void>();

const testRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/test/effects', {
    config: { scope: 'profile:write', rateClass: 'write' },
    schema: {
      operationId: 'testCreateEffect',
      body: z.strictObject({
        n: z.number().int(),
        delay_ms: z.number().int().min(0).max(3000).optional(),
        hold: z.boolean().optional(),
      }),
      response: { 201: z.object({ id: z.number().int(), n: z.number().int(), nonce: z.string() }) },
    },
    handler: async (request, reply) => {
      const [row] = await app
        .knex('test_effects')
        .insert({ kind: 'effect', n: request.body.n, token_id: request.auth!.tokenId })
        .returning('id');
      if (request.body.delay_ms) await sleep(request.body.delay_ms);
      if (request.body.hold) await new Promise<void>((resolve) => held.set(request.body.n, resolve));
      return reply.code(201).send({ id: row.id, n: request.body.n, nonce: randomUUID() });
    },
  });
  app.post('/test/boom', {
    config: { scope: 'profile:write', rateClass: 'write' },
    schema: {
      operationId: 'testBoom',
      body: z.strictObject({ n: z.number().int() }),
      response: { 200: z.object({ ok: z.boolean() }) },
    },
    handler: async (request) => {
      await app.knex('test_effects').insert({ kind: 'boom', n: request.body.n, token_id: request.auth!.tokenId });
      throw new Error('connection to db-internal.example:5432 failed for user admin password=hunter2');
    },
  });
  app.get('/test/rooms/:id', {
    config: { scope: 'profile:read', rateClass: 'cost', costBucketMs: 60_000 },
    schema: {
      operationId: 'testIssueRoom',
      params: z.object({ id: z.uuid() }),
      response: { 200: z.object({ room_url: z.string(), nonce: z.string() }) },
    },
    handler: async (request) => {
      await app
        .knex('test_effects')
        .insert({ kind: 'room', n: 0, ref: request.params.id, token_id: request.auth!.tokenId });
      return { room_url: `https://rooms.example/${request.params.id}`, nonce: randomUUID() };
    },
  });
  // Refuses until a row "ready" exists for the id: models 409 MATCH_NOT_ACCEPTED before acceptance.
  app.get('/test/gated-rooms/:id', {
    config: { scope: 'profile:read', rateClass: 'cost', costBucketMs: 60_000 },
    schema: {
      operationId: 'testGatedRoom',
      params: z.object({ id: z.uuid() }),
      response: { 200: z.object({ room_url: z.string() }) },
    },
    handler: async (request) => {
      const ready = await app.knex('test_effects').where({ kind: 'ready', ref: request.params.id }).first();
      if (!ready) throw new AppError(409, 'NOT_READY', `room ${request.params.id} is not ready`);
      return { room_url: `https://rooms.example/${request.params.id}` };
    },
  });
  app.post('/test/charges', {
    config: { scope: 'billing:write', rateClass: 'cost', costBucketMs: 60_000 },
    schema: {
      operationId: 'testCharge',
      body: z.strictObject({ plan: z.enum(['pro', 'team']) }),
      response: { 200: z.object({ charge: z.string(), plan: z.string() }) },
    },
    handler: async (request) => {
      await app
        .knex('test_effects')
        .insert({ kind: 'charge', n: 0, ref: request.body.plan, token_id: request.auth!.tokenId });
      return { charge: `ch_${randomUUID()}`, plan: request.body.plan };
    },
  });
};

describe('idempotency', () => {
  let h: Harness;
  let app: FastifyInstance;
  const effects = (kind: string, tokenless?: { ref?: string }) =>
    h.knex('test_effects').where({ kind, ...(tokenless ?? {}) });

  beforeAll(async () => {
    h = await createHarness({
      worker: false,
      env: { RATE_LIMIT_WRITE_PER_MIN: '200', RATE_LIMIT_READ_PER_MIN: '200', RATE_LIMIT_COST_PER_MIN: '2' },
    });
    await h.knex.schema.createTable('test_effects', (t) => {
      t.increments('id');
      t.text('kind').notNullable();
      t.integer('n').notNullable();
      t.text('ref');
      t.uuid('token_id');
    });
    app = await buildTestApp(h, { routes: (a) => a.register(testRoutes) });
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  const post = (token: string, key: string | undefined, payload: unknown, url = '/api/v1/test/effects') =>
    call(app, {
      method: 'POST',
      url,
      token,
      payload: payload as object,
      headers: key ? { 'idempotency-key': key } : {},
    });

  it('replays the first status and body with Idempotent-Replayed: true, and applies the side effect once', async () => {
    const s = await h.seeker();
    const key = randomUUID();
    const first = await post(s.token, key, { n: 1 });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await post(s.token, key, { n: 1 });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json()); // the nonce too: the handler did not run again
    expect(second.headers['content-type']).toMatch(/^application\/json/);
    expect(rateHeaders(second).limit).toBe('200');
    // Key order in the body does not matter; the key's case does not either.
    const third = await post(s.token, key.toUpperCase(), { n: 1 });
    expect(third.json()).toEqual(first.json());
    expect(await effects('effect').where({ n: 1 })).toHaveLength(1);
    // Without a key every call is new.
    await post(s.token, undefined, { n: 1 });
    await post(s.token, undefined, { n: 1 });
    expect(await effects('effect').where({ n: 1 })).toHaveLength(3);
  });

  it('the same key with a different body → 422 IDEMPOTENCY_KEY_REUSED, no side effect', async () => {
    const s = await h.seeker();
    const key = randomUUID();
    expect((await post(s.token, key, { n: 10 })).statusCode).toBe(201);
    const reused = await post(s.token, key, { n: 11 });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', details: { idempotency_key: key } });
    // …or on another route.
    const elsewhere = await post(s.token, key, { n: 10 }, '/api/v1/test/boom');
    expect(elsewhere.statusCode).toBe(422);
    expect(await effects('effect').where({ n: 11 })).toHaveLength(0);
    expect(await effects('boom').where({ n: 10 })).toHaveLength(0);
  });

  it('the same key while the first request still runs → 409 IDEMPOTENCY_KEY_IN_USE; afterwards it replays', async () => {
    const s = await h.seeker();
    const key = randomUUID();
    // The first request holds the key until the test releases it (no race with a fixed delay).
    const slow = post(s.token, key, { n: 20, hold: true });
    await eventually(async () => held.has(20));
    const busy = await post(s.token, key, { n: 20, hold: true });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    expect(busy.headers['retry-after']).toBe('1');
    expect(rateHeaders(busy).limit).toBe('200'); // an authenticated answer: headers even though the limiter did not run
    held.get(20)!();
    const first = await slow;
    expect(first.statusCode).toBe(201);
    const later = await post(s.token, key, { n: 20, hold: true });
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(later.json()).toEqual(first.json());
    expect(await effects('effect').where({ n: 20 })).toHaveLength(1);
  });

  it('two (and ten) simultaneous requests with one key apply the side effect once', async () => {
    for (const n of [2, 10]) {
      const s = await h.seeker();
      const key = randomUUID();
      const results = await Promise.all(
        Array.from({ length: n }, () => post(s.token, key, { n: 300 + n, delay_ms: 100 })),
      );
      const fresh = results.filter((r) => r.statusCode === 201 && !r.headers['idempotent-replayed']);
      expect(fresh).toHaveLength(1);
      for (const r of results) {
        expect([201, 409]).toContain(r.statusCode);
        if (r.statusCode === 201) expect(r.json()).toEqual(fresh[0].json());
        else expect(r.json().code).toBe('IDEMPOTENCY_KEY_IN_USE');
      }
      expect(await effects('effect').where({ n: 300 + n })).toHaveLength(1);
    }
  });

  it('a key that is not a UUID v4 → 400 VALIDATION naming the header, no side effect', async () => {
    const s = await h.seeker();
    for (const bad of ['abc', '123', '6ba7b810-9dad-11d1-80b4-00c04fd430c8' /* v1 */, `${randomUUID()}x`, '']) {
      const res = await post(s.token, bad === '' ? undefined : bad, { n: 40 }, '/api/v1/test/effects');
      if (bad === '') continue;
      expect([bad, res.statusCode]).toEqual([bad, 400]);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION',
        details: { issues: [{ path: 'headers.idempotency-key' }] },
      });
    }
    expect(await effects('effect').where({ n: 40 })).toHaveLength(1); // only the call without a key
  });

  it('validation failures are not stored: the key stays usable with a corrected body', async () => {
    const s = await h.seeker();
    const key = randomUUID();
    const bad = await post(s.token, key, { n: 'fifty' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION');
    const good = await post(s.token, key, { n: 50 });
    expect(good.statusCode).toBe(201); // not 422: the failed attempt left nothing behind
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });

  it('5xx is not stored (the retry runs again) and never leaks internals', async () => {
    const s = await h.seeker();
    const key = randomUUID();
    const first = await post(s.token, key, { n: 60 }, '/api/v1/test/boom');
    expect(first.statusCode).toBe(500);
    expect(first.json()).toEqual({ error: 'Internal error; it has been logged', code: 'INTERNAL' });
    expect(first.body).not.toMatch(/hunter2|db-internal|5432/);
    const retry = await post(s.token, key, { n: 60 }, '/api/v1/test/boom');
    expect(retry.statusCode).toBe(500);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await effects('boom').where({ n: 60 })).toHaveLength(2);
  });

  it('auth failures are not stored: 403 for a token lacking the scope leaves the key free', async () => {
    const s = await h.seeker();
    const key = randomUUID();
    const readOnly = await s.tokenWith(['profile:read']);
    expect((await post(readOnly, key, { n: 70 })).statusCode).toBe(403);
    expect(await h.knex('idempotency_keys').where({ key })).toHaveLength(0);
    expect((await post(s.token, key, { n: 70 })).statusCode).toBe(201);
  });

  it('keys belong to the token: another token with the same key is a new request', async () => {
    const s = await h.seeker();
    const other = await s.tokenWith(['profile:write']);
    const key = randomUUID();
    const a = await post(s.token, key, { n: 80 });
    const b = await post(other, key, { n: 80 });
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().id).not.toBe(a.json().id);
  });

  it('the window is 24 hours: an older key runs anew', async () => {
    const s = await h.seeker();
    const key = randomUUID();
    const first = await post(s.token, key, { n: 90 });
    await h
      .knex('idempotency_keys')
      .where({ key })
      .update({ created_at: h.knex.raw("now() - interval '24 hours 1 minute'") });
    const again = await post(s.token, key, { n: 90 });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json().id).not.toBe(first.json().id);
  });

  it('cost-bearing routes bucket automatically by token + resource + interval; a replay costs no quota', async () => {
    const s = await h.seeker();
    const room = randomUUID();
    const get = (id: string, token = s.token) => call(app, { method: 'GET', url: `/api/v1/test/rooms/${id}`, token });
    const first = await get(room);
    expect(first.statusCode).toBe(200);
    expect(rateHeaders(first)).toMatchObject({ limit: '2', remaining: '1' });
    // Five more asks for the same room: the first answer again, no handler run, no quota used.
    for (let i = 0; i < 5; i++) {
      const again = await get(room);
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      expect(rateHeaders(again)).toMatchObject({ limit: '2', remaining: '1' });
    }
    expect(await effects('room', { ref: room })).toHaveLength(1);
    // Another resource is another bucket and does use quota: the second fits, the third is 429.
    expect((await get(randomUUID())).statusCode).toBe(200);
    const over = await get(randomUUID());
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(29);
    // The first room is still answered from its bucket even though the quota is spent.
    expect((await get(room)).statusCode).toBe(200);
    // Another token is another caller.
    const otherToken = await s.tokenWith(['profile:read']);
    const other = await get(room, otherToken);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.json().nonce).not.toBe(first.json().nonce);
  });

  it('an automatic cost bucket keeps only successes: a refusal is not replayed once the state has changed', async () => {
    const s = await h.seeker();
    const id = randomUUID();
    const get = () => call(app, { method: 'GET', url: `/api/v1/test/gated-rooms/${id}`, token: s.token });
    const refused = await get();
    expect(refused.statusCode).toBe(409);
    await h.knex('test_effects').insert({ kind: 'ready', n: 0, ref: id });
    const ok = await get();
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
    const replay = await get();
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('the resource of a cost-bearing POST includes its body; an explicit Idempotency-Key takes precedence', async () => {
    const s = await h.seeker();
    const charge = (plan: string, key?: string) =>
      call(app, {
        method: 'POST',
        url: '/api/v1/test/charges',
        token: s.token,
        payload: { plan },
        headers: key ? { 'idempotency-key': key } : {},
      });
    const pro = await charge('pro');
    const proAgain = await charge('pro');
    expect(proAgain.json()).toEqual(pro.json());
    expect(proAgain.headers['idempotent-replayed']).toBe('true');
    const team = await charge('team');
    expect(team.statusCode).toBe(200);
    expect(team.json().plan).toBe('team');
    expect(await effects('charge')).toHaveLength(2);
    // Invalid bodies are not stored and do consume quota (both are spent now).
    const key = randomUUID();
    const viaKey = await charge('pro', key);
    expect(viaKey.statusCode).toBe(429);
    expect(await h.knex('idempotency_keys').where({ key })).toHaveLength(0);
  });

  it('works on a real route: PATCH /profile with Idempotency-Key', async () => {
    const s = await h.seeker();
    const key = randomUUID();
    const first = await h.call({
      method: 'PATCH',
      url: '/api/v1/profile',
      token: s.token,
      payload: { title: 'Staff Engineer' },
      headers: { 'idempotency-key': key },
    });
    expect(first.statusCode).toBe(200);
    const before = await h.knex('profiles').where({ user_id: s.user.id }).first();
    const replay = await h.call({
      method: 'PATCH',
      url: '/api/v1/profile',
      token: s.token,
      payload: { title: 'Staff Engineer' },
      headers: { 'idempotency-key': key },
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    const after = await h.knex('profiles').where({ user_id: s.user.id }).first();
    expect(after.updated_at.getTime()).toBe(before.updated_at.getTime()); // not written again
    const reused = await h.call({
      method: 'PATCH',
      url: '/api/v1/profile',
      token: s.token,
      payload: { title: 'Principal' },
      headers: { 'idempotency-key': key },
    });
    expect(reused.statusCode).toBe(422);
  });
});
