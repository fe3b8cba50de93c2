import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { buildTestApp, call } from './helpers';
import { createKnex } from '#db/knex';
import { loadChangelog, type ChangelogEntry } from '#apps/api/src/changelog/changelog-service';
import { createServices } from '#apps/api/src/services';
import { changelogEventId } from '#workflows/changelog/contract';

const SINCE = new Date('2026-11-01T00:00:00Z');
const SUNSET = new Date('2027-06-30T00:00:00Z');

const legacy: FastifyPluginAsyncZod = async (app) => {
  app.get('/test/legacy', {
    config: {
      scope: 'profile:read',
      rateClass: 'read',
      deprecated: { since: SINCE, sunset: SUNSET, link: 'http://jobfair.test/api/v1/changelog#legacy' },
    },
    schema: { operationId: 'testLegacy', response: { 200: z.object({ ok: z.boolean() }) } },
    handler: async () => ({ ok: true }),
  });
};

describe('versioning: deprecation headers and the API changelog', () => {
  let h: Harness;
  let app: FastifyInstance;
  const entries = loadChangelog();

  beforeAll(async () => {
    h = await createHarness();
    app = await buildTestApp(h, { routes: (a) => a.register(legacy) });
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it(
    'a route marked for removal answers every call with Deprecation (RFC 9745) and Sunset, and ' +
      'is deprecated in OpenAPI',
    async () => {
      const s = await h.seeker();
      const expectHeaders = (res: { headers: Record<string, unknown> }) => {
        expect(res.headers.deprecation).toBe(`@${SINCE.getTime() / 1000}`);
        expect(res.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
        expect(res.headers.link).toBe('<http://jobfair.test/api/v1/changelog#legacy>; rel="deprecation"');
      };
      const ok = await call(app, { method: 'GET', url: '/api/v1/test/legacy', token: s.token });
      expect(ok.statusCode).toBe(200);
      expectHeaders(ok);
      // Refusals too: 401 (before anything else runs) and 403.
      const anon = await call(app, { method: 'GET', url: '/api/v1/test/legacy' });
      expect(anon.statusCode).toBe(401);
      expectHeaders(anon);
      const noScope = await call(app, {
        method: 'GET',
        url: '/api/v1/test/legacy',
        token: await s.tokenWith(['queue:read']),
      });
      expect(noScope.statusCode).toBe(403);
      expectHeaders(noScope);
      // Routes not marked carry neither.
      const profile = await h.call({ method: 'GET', url: '/api/v1/profile', token: s.token });
      expect(profile.headers.deprecation).toBeUndefined();
      expect(profile.headers.sunset).toBeUndefined();

      const doc = (await call(app, { method: 'GET', url: '/api/v1/openapi.json' })).json();
      const op = doc.paths['/api/v1/test/legacy'].get;
      expect(op.deprecated).toBe(true);
      expect(op.description).toMatch(/Deprecated since 2026-11-01; removed after 2027-06-30/);
      expect(op.responses['200'].headers).toMatchObject({
        Deprecation: { $ref: '#/components/headers/Deprecation' },
        Sunset: { $ref: '#/components/headers/Sunset' },
      });
      expect(doc.paths['/api/v1/profile'].get.deprecated).toBeUndefined();
    },
  );

  it('serves the changelog publicly at GET /api/v1/changelog, cacheable, newest first', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/changelog' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.json();
    expect(body.entries).toEqual(entries);
    expect(body.entries.length).toBeGreaterThanOrEqual(2);
    expect(body.entries[0]).toMatchObject({
      id: expect.any(String),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      kind: expect.stringMatching(/^(added|changed|deprecated|removed|fixed)$/),
      title: expect.any(String),
    });
    const sorted = [...body.entries].sort((a: ChangelogEntry, b: ChangelogEntry) => b.date.localeCompare(a.date));
    expect(body.entries.map((e: ChangelogEntry) => e.date)).toEqual(sorted.map((e: ChangelogEntry) => e.date));
    const cached = await h.call({
      method: 'GET',
      url: '/api/v1/changelog',
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);
    // Every operationId an entry names exists in the OpenAPI document.
    const doc = (await h.call({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const ids = new Set(
      Object.values<Record<string, { operationId?: string }>>(doc.paths).flatMap((item) =>
        Object.values(item).map((op) => op.operationId),
      ),
    );
    expect(entries.flatMap((e) => e.operations).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('announces every entry once at API start: one broadcast changelog.api event per entry', async () => {
    const rows = await eventually(async () => {
      const r = await h.knex('domain_events').where({ type: 'changelog.api' });
      return r.length >= entries.length && r;
    });
    expect(rows.map((r) => r.id).sort()).toEqual(entries.map((e) => changelogEventId(e.id)).sort());
    for (const r of rows) {
      expect(r.owner_user_ids).toEqual([]);
      expect(r.owner_team_id).toBeNull();
    }
    const v1 = rows.find((r) => r.id === changelogEventId('2026-11-21-v1'))!;
    expect(v1.data).toMatchObject({
      entry_id: '2026-11-21-v1',
      kind: 'added',
      title: 'API v1',
      changelog_url: 'http://jobfair.test/api/v1/changelog#2026-11-21-v1',
    });
    // The API marks its claim started right after Temporal accepted the start (the event may be recorded first).
    await eventually(
      async () => (await h.knex('changelog_announcements').where({ state: 'started' })).length === entries.length,
    );
    expect(await h.knex('changelog_announcements').where({ state: 'pending' })).toHaveLength(0);
    // The test app above (a second "replica" on the same database) started too, and announced nothing twice.
    expect(await h.knex('domain_events').where({ type: 'changelog.api' })).toHaveLength(entries.length);
  });

  it('adding an entry announces it once, however many replicas start at the same time', async () => {
    const added: ChangelogEntry = {
      id: '2099-01-01-new-thing',
      date: '2099-01-01',
      kind: 'added',
      title: 'A new thing',
      description: 'Something new.',
      operations: [],
    };
    const next = [added, ...entries];
    // Three replicas with their own connection pools start at once with the new file.
    const pools = [createKnex(h.dbUrl, 2), createKnex(h.dbUrl, 2), createKnex(h.dbUrl, 2)];
    try {
      const started = await Promise.all(
        pools.map((knex) =>
          createServices({
            knex,
            temporal: h.temporal,
            config: h.config,
            changelogEntries: next,
          }).changelog.announcePending(),
        ),
      );
      // Nothing else was pending, so only the new entry's workflow was started (by one or more replicas; the id is one).
      expect(started.flat().every((id) => id === added.id)).toBe(true);
      const row = await h.knex('changelog_announcements').where({ entry_id: added.id }).first();
      expect(row).toMatchObject({
        state: 'started',
        workflow_id: expect.stringMatching(/^changelog-announcement:2099-01-01-new-thing:[0-9a-f]{8}$/),
      });
      const result = await h.temporal.workflow.getHandle(row.workflow_id).result();
      expect(result).toEqual({ eventId: changelogEventId(added.id), recorded: true });
      const desc = await h.temporal.workflow.getHandle(row.workflow_id).describe();
      expect(desc.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value])).toEqual(
        expect.arrayContaining([
          ['JobfairEntity', 'changelog_announcement'],
          ['JobfairStatus', 'announced'],
        ]),
      );
      // Later starts find nothing to do.
      expect(
        await createServices({
          knex: h.knex,
          temporal: h.temporal,
          config: h.config,
          changelogEntries: next,
        }).changelog.announcePending(),
      ).toEqual([]);
      // The one announcement has finished (result above) and the later start began none: nothing can add an event now.
      const events = await h.knex('domain_events').where({ id: changelogEventId(added.id) });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: 'changelog.api',
        owner_user_ids: [],
        owner_team_id: null,
        data: { entry_id: added.id, title: 'A new thing', date: '2099-01-01' },
      });
    } finally {
      await Promise.all(pools.map((k) => k.destroy()));
    }
  });

  it('a webhook subscribed to changelog.api receives a new entry once', async () => {
    const received: Array<{
      headers: http.IncomingHttpHeaders;
      body: { id: string; type: string; data: Record<string, unknown> };
    }> = [];
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(raw) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const s = await h.seeker();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const sub = await h.call({
        method: 'POST',
        url: '/api/v1/webhooks',
        token: s.token,
        payload: { target_url: url, events: ['changelog.api'] },
      });
      expect(sub.statusCode).toBe(201);
      const added: ChangelogEntry = {
        id: '2099-03-01-announced',
        date: '2099-03-01',
        kind: 'added',
        title: 'Announced to subscribers',
        description: 'Delivered by webhook.',
        operations: [],
      };
      const service = createServices({
        knex: h.knex,
        temporal: h.temporal,
        config: h.config,
        changelogEntries: [added, ...entries],
      }).changelog;
      await Promise.all([service.announcePending(), service.announcePending()]);
      const mine = () => received.filter((r) => r.body.id === changelogEventId(added.id));
      await eventually(async () => mine().length >= 1);
      // Quiet, proven rather than waited for: the delivery reached its final state and every
      // announcement run has finished, so no second delivery can still be on its way.
      const subId = (sub.json() as { id: string }).id;
      await eventually(async () =>
        h
          .knex('webhook_deliveries')
          .where({ subscription_id: subId, event_id: changelogEventId(added.id), state: 'delivered' })
          .first(),
      );
      for (const r of await h.knex('changelog_announcements').where({ entry_id: added.id }).whereNotNull('workflow_id'))
        await h.temporal.workflow.getHandle(r.workflow_id).result();
      expect(
        await h.knex('webhook_deliveries').where({ subscription_id: subId, event_id: changelogEventId(added.id) }),
      ).toHaveLength(1);
      expect(mine()).toHaveLength(1);
      expect(mine()[0].headers['svc-event']).toBe('changelog.api');
      expect(mine()[0].body).toMatchObject({
        type: 'changelog.api',
        data: { entry_id: added.id, title: 'Announced to subscribers' },
      });
      // The entries announced at start, before the subscription existed, are not delivered to it.
      expect(received.filter((r) => r.body.id === changelogEventId('2026-11-21-v1'))).toHaveLength(0);
    } finally {
      server.close();
    }
  });

  it('a replica that died between claiming and starting is repaired by the next start', async () => {
    const orphan: ChangelogEntry = {
      id: '2099-02-01-orphan',
      date: '2099-02-01',
      kind: 'deprecated',
      title: 'Orphaned claim',
      description: 'Claimed, never started.',
      operations: [],
    };
    await h.knex('changelog_announcements').insert({
      entry_id: orphan.id,
      workflow_id: 'changelog-announcement:2099-02-01-orphan:deadbeef',
      state: 'pending',
    });
    const started = await createServices({
      knex: h.knex,
      temporal: h.temporal,
      config: h.config,
      changelogEntries: [orphan, ...entries],
    }).changelog.announcePending();
    expect(started).toEqual([orphan.id]);
    expect(await h.temporal.workflow.getHandle('changelog-announcement:2099-02-01-orphan:deadbeef').result()).toEqual({
      eventId: changelogEventId(orphan.id),
      recorded: true,
    });
    expect(await h.knex('domain_events').where({ id: changelogEventId(orphan.id) })).toHaveLength(1);
  });
});
