import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createHarness, type Harness } from '../helpers/harness';
import { buildTestApp, call } from './helpers';
import { pageSchema, paginationQuerySchema } from '#apps/api/src/plugins/pagination';

/**
 * The pagination helper through a test-only list route over a real table (created here):
 * `GET /api/v1/test/items?owner=…&limit=…&cursor=…`, newest first, filter-bound cursors.
 */
const itemSchema = z.object({ id: z.uuid(), owner: z.string(), label: z.string() });
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/test/items', {
    config: { scope: 'profile:read', rateClass: 'read' },
    schema: {
      operationId: 'testListItems',
      querystring: paginationQuerySchema().extend({ owner: z.string().min(1) }),
      response: { 200: pageSchema(itemSchema) },
    },
    handler: async (request) => {
      const { owner, limit, cursor } = request.query;
      return app.paginator.page<z.output<typeof itemSchema>>(
        app.knex('test_items').select('id', 'owner', 'label').where({ owner }),
        { limit, cursor, filter: { list: 'test_items', owner } },
      );
    },
  });
};

describe('pagination', () => {
  let h: Harness;
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    h = await createHarness({ worker: false, env: { RATE_LIMIT_READ_PER_MIN: '10000' } });
    await h.knex.schema.createTable('test_items', (t) => {
      t.uuid('id').primary();
      t.text('owner').notNullable();
      t.text('label').notNullable();
      t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable();
      t.index(['owner', 'created_at', 'id']);
    });
    app = await buildTestApp(h, { routes: (a) => a.register(routes) });
    token = (await h.seeker()).token;
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  const list = (owner: string, opts: { limit?: number; cursor?: string } = {}) => {
    const q = new URLSearchParams({
      owner,
      ...(opts.limit ? { limit: String(opts.limit) } : {}),
      ...(opts.cursor ? { cursor: opts.cursor } : {}),
    });
    return call(app, { method: 'GET', url: `/api/v1/test/items?${q}`, token });
  };
  /** Rows whose created_at differ by single microseconds inside one millisecond (some exactly tied). */
  const baseIso = new Date(Date.now() - 3600_000).toISOString().slice(0, 23); // an hour ago, millisecond precision
  const seed = async (owner: string, n: number) => {
    const rows = Array.from({ length: n }, (_, i) => ({
      id: randomUUID(),
      owner,
      label: `${owner}-${i}`,
      created_at: h.knex.raw(`timestamptz '${baseIso}000Z' + ? * interval '1 microsecond'`, [Math.floor(i / 2)]),
    }));
    await h.knex('test_items').insert(rows);
    return rows.map((r) => r.id);
  };
  const expectedOrder = async (owner: string) =>
    (
      await h
        .knex('test_items')
        .where({ owner })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .select('id')
    ).map((r) => r.id);
  const walk = async (owner: string, limit: number, between?: (page: number, lastId: string) => Promise<void>) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 1; page < 100; page++) {
      const res = await list(owner, { limit, cursor });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...body.data.map((r: { id: string }) => r.id));
      if (!body.has_more) {
        expect(body).not.toHaveProperty('next_cursor');
        return seen;
      }
      expect(body.data).toHaveLength(limit);
      cursor = body.next_cursor;
      if (between) await between(page, body.data[body.data.length - 1].id);
    }
    throw new Error('did not end');
  };

  it(
    'walks rows created within the same millisecond (microsecond keys, ties broken by id) ' +
      'exactly once, newest first',
    async () => {
      const ids = await seed('same-ms', 31);
      const seen = await walk('same-ms', 4);
      expect(seen).toHaveLength(31);
      expect(new Set(seen).size).toBe(31);
      expect(seen).toEqual(await expectedOrder('same-ms'));
      expect(new Set(seen)).toEqual(new Set(ids));
    },
  );

  it('new rows between pages cause no repeats and no skips', async () => {
    const ids = await seed('inserts', 20);
    const seen = await walk('inserts', 6, async (page) => {
      // Newer rows arrive while the client pages (one even in the same microsecond as the newest row).
      await h.knex('test_items').insert([
        { id: randomUUID(), owner: 'inserts', label: `new-${page}`, created_at: h.knex.fn.now() },
        {
          id: randomUUID(),
          owner: 'inserts',
          label: `tie-${page}`,
          created_at: h.knex.raw(`timestamptz '${baseIso}009Z'`),
        },
      ]);
    });
    // Exactly the rows that existed when paging started, once each, in order: the new ones sort
    // before the cursor (newest first) and belong to a fresh first page.
    expect(seen).toEqual((await expectedOrder('inserts')).filter((id) => ids.includes(id)));
    expect(seen).toHaveLength(20);
    expect(await h.knex('test_items').where({ owner: 'inserts' })).toHaveLength(26);
  });

  it('a deleted cursor row continues from the next available row', async () => {
    await seed('deletes', 12);
    const order = await expectedOrder('deletes');
    const first = (await list('deletes', { limit: 4 })).json();
    expect(first.data.map((r: { id: string }) => r.id)).toEqual(order.slice(0, 4));
    // The cursor row (last of page 1) and the row right after it are deleted before the next fetch.
    await h.knex('test_items').whereIn('id', [order[3], order[4]]).delete();
    const second = (await list('deletes', { limit: 4, cursor: first.next_cursor })).json();
    expect(second.data.map((r: { id: string }) => r.id)).toEqual(order.slice(5, 9));
  });

  it('cursors are tamper-evident: any alteration → 400 VALIDATION on query.cursor', async () => {
    await seed('tamper', 5);
    const { next_cursor } = (await list('tamper', { limit: 2 })).json();
    const [body, mac] = next_cursor.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, t: String(BigInt(payload.t) + 1n) })).toString('base64url');
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    for (const bad of [
      `${forged}.${mac}`,
      `${body}.${flip(mac, 3)}`,
      flip(next_cursor, 5),
      body,
      'not-a-cursor',
      `${body}.`,
    ]) {
      const res = await list('tamper', { limit: 2, cursor: bad });
      expect([bad, res.statusCode]).toEqual([bad, 400]);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', details: { issues: [{ path: 'query.cursor' }] } });
    }
  });

  it('cursors are bound to the filter: used with another filter → 400', async () => {
    await seed('filter-a', 5);
    await seed('filter-b', 5);
    const { next_cursor } = (await list('filter-a', { limit: 2 })).json();
    const res = await list('filter-b', { limit: 2, cursor: next_cursor });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/different filter/);
    // A different page size is not a different filter.
    expect((await list('filter-a', { limit: 3, cursor: next_cursor })).statusCode).toBe(200);
  });

  it('limit: default 25, maximum 100, at least 1, an integer', async () => {
    await seed('limits', 120);
    const def = (await list('limits')).json();
    expect(def.data).toHaveLength(25);
    expect(def.has_more).toBe(true);
    expect((await list('limits', { limit: 100 })).json().data).toHaveLength(100);
    for (const bad of ['101', '0', '-1', '2.5', 'ten']) {
      const res = await call(app, { method: 'GET', url: `/api/v1/test/items?owner=limits&limit=${bad}`, token });
      expect([bad, res.statusCode]).toEqual([bad, 400]);
      expect(res.json().details.issues[0].path).toBe('query.limit');
    }
    // The end: has_more false and no next_cursor.
    const last = (
      await list('limits', { limit: 100, cursor: (await list('limits', { limit: 100 })).json().next_cursor })
    ).json();
    expect(last).toEqual({ data: expect.any(Array), has_more: false });
    expect(last.data).toHaveLength(20);
  });

  it(
    "the helper selects the table's columns when the query selects none, and can key on " + 'another timestamp column',
    async () => {
      await seed('helper', 3);
      const page = await h.app.paginator.page<{ id: string; label: string; owner: string }>(
        h.knex('test_items').where({ owner: 'helper' }),
        { limit: 2, filter: { owner: 'helper' } },
      );
      expect(page.data[0]).toMatchObject({ owner: 'helper', label: expect.stringMatching(/^helper-/) });
      expect(page.data[0]).not.toHaveProperty('__cursor_t');
      await h.knex.schema.alterTable('test_items', (t) => t.timestamp('published_at', { useTz: true, precision: 6 }));
      await h
        .knex('test_items')
        .where({ owner: 'helper' })
        .update({ published_at: h.knex.raw('created_at') });
      const byPublished = await h.app.paginator.page<{ id: string }>(h.knex('test_items').where({ owner: 'helper' }), {
        limit: 2,
        filter: { owner: 'helper' },
        timeColumn: 'published_at',
      });
      const rest = await h.app.paginator.page<{ id: string }>(h.knex('test_items').where({ owner: 'helper' }), {
        limit: 2,
        filter: { owner: 'helper' },
        timeColumn: 'published_at',
        cursor: byPublished.next_cursor,
      });
      expect([...byPublished.data, ...rest.data].map((r) => r.id)).toEqual(await expectedOrder('helper'));
    },
  );

  it('an empty list is an empty page', async () => {
    expect((await list('nobody')).json()).toEqual({ data: [], has_more: false });
  });
});
