import { setTimeout as sleep } from 'node:timers/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { listen } from './mcp/helpers';
import { startReceiver, type Receiver } from '../webhooks/helpers';
import { createJob, createLiveEvent, kick } from '../matches/fixtures';
import {
  createJobfairClient,
  verifyWebhook,
  WebhookVerificationError,
  type RateLimitInfo,
  type WebhookEvent,
} from '#clients/typescript/src/index';
import { runAgentFlow } from '#clients/typescript/examples/agent-flow';

const GENERATOR = path.resolve(__dirname, '../../clients/typescript/scripts/generate.ts');
const SCHEMA_FILE = path.resolve(__dirname, '../../clients/typescript/src/openapi.d.ts');

describe('the typed client: generated types', () => {
  // Default configuration: the document's descriptions name the configured rate limits.
  let d: Harness;
  beforeAll(async () => {
    d = await createHarness({ worker: false });
  });
  afterAll(async () => d?.close());

  it('its generated types match the served OpenAPI document (drift test)', async () => {
    const docFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-openapi-')), 'openapi.json');
    fs.writeFileSync(docFile, (await d.call({ method: 'GET', url: '/api/v1/openapi.json' })).body);
    const { stdout: fresh } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', GENERATOR, docFile, '--stdout'],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    // UPDATE_CLIENT_TYPES=1 rewrites the file from the test stack (same as `npm run client:generate`).
    if (process.env.UPDATE_CLIENT_TYPES === '1') fs.writeFileSync(SCHEMA_FILE, fresh);
    const committed = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
    if (committed !== fresh)
      throw new Error(
        `clients/typescript/src/openapi.d.ts is out of date with GET /api/v1/openapi.json: run ` +
          `UPDATE_CLIENT_TYPES=1 npm test -- test/platform/typed-client.test.ts (or npm run ` +
          `client:generate against a running service)`,
      );
  });
});

describe('the typed client (clients/typescript) against the real stack', () => {
  let h: Harness;
  let base: string;
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver(() => ({ status: 204 }));
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '50',
        QUEUE_ENTRY_TTL_MS: '600000',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        RATE_LIMIT_READ_PER_MIN: '30',
      },
    });
    base = await listen(h);
  });
  afterAll(async () => {
    await h?.close();
    await rx?.close();
  });

  it('runs the example agent flow green: discover → search → join → poll → matches', async () => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1, visibility: 'open_invite' });
    await createJob(h, { event, title: 'Typed Client Engineer', essential_skills: ['TypeScript'] });
    const s = await h.seeker();
    const token = await s.tokenWith(['queue:read', 'queue:write', 'matches:read']);
    const lines: string[] = [];
    // The matchmaker runs on its own schedule; nudging it keeps the test short.
    let done = false;
    const nudger = (async () => {
      while (!done) {
        await kick(h).catch(() => undefined);
        await sleep(200);
      }
    })();
    try {
      const out = await runAgentFlow({
        baseUrl: base,
        token,
        skills: ['TypeScript'],
        pollIntervalMs: 200,
        timeoutMs: 30_000,
        say: (l) => lines.push(l),
        logger: { warn: () => undefined, info: () => undefined },
      });
      expect(out.events.map((e) => e.slug)).toContain(event.slug);
      expect(out.joined.join_url).toMatch(/^http:\/\/jobfair\.test\//);
      expect(out.entry.status).toBe('matched');
      expect(out.match).toMatchObject({ id: out.entry.match_id, status: 'matched' });
      expect(lines.join('\n')).toMatch(/hand this to the human/);
      // The human is handed the match page (details_url), not the queue page, to accept.
      expect(out.entry.details_url).toBe(`http://jobfair.test/matches/${out.entry.match_id}`);
      expect(lines.join('\n')).toContain(out.entry.details_url);
    } finally {
      done = true;
      await nudger;
    }
  });

  it('sets an Idempotency-Key on every POST (yours wins), so a repeated call with your key acts once', async () => {
    const s = await h.seeker();
    const { api, must } = createJobfairClient({ baseUrl: base, token: s.token });
    const a = must(
      await api.POST('/api/v1/webhooks', { body: { target_url: rx.url('/a'), events: ['match.matched'] } }),
    );
    const b = must(
      await api.POST('/api/v1/webhooks', { body: { target_url: rx.url('/a'), events: ['match.matched'] } }),
    );
    expect(a.id).not.toBe(b.id);
    const key = randomUUID();
    const c = await api.POST('/api/v1/webhooks', {
      body: { target_url: rx.url('/c'), events: ['match.matched'] },
      headers: { 'Idempotency-Key': key },
    });
    const d = await api.POST('/api/v1/webhooks', {
      body: { target_url: rx.url('/c'), events: ['match.matched'] },
      headers: { 'Idempotency-Key': key },
    });
    expect(d.data!.id).toBe(c.data!.id);
    expect(d.response.headers.get('idempotent-replayed')).toBe('true');
  });

  it('walks cursor pagination as an async iterator', async () => {
    const s = await h.seeker();
    const { api, paginate, must } = createJobfairClient({ baseUrl: base, token: s.token });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        must(await api.POST('/api/v1/webhooks', { body: { target_url: rx.url(`/p${i}`), events: ['match.matched'] } }))
          .id,
      );
    const seen: string[] = [];
    for await (const w of paginate('/api/v1/webhooks', { query: { limit: 1 } })) seen.push(w.id);
    expect(seen.sort()).toEqual(ids.sort());
  });

  it('honours Retry-After on 429 and reports the rate-limit headers', async () => {
    const s = await h.seeker();
    const infos: RateLimitInfo[] = [];
    const retries: string[] = [];
    const { api, must } = createJobfairClient({
      baseUrl: base,
      token: await s.tokenWith(['profile:read']),
      onRateLimit: (i) => infos.push(i),
      logger: { warn: () => undefined, info: (l: string) => retries.push(l) },
    });
    // 30/min = a burst of 30, then one every 2 s: calls in a row are answered 429 with Retry-After soon after the
    // 30th and retried (not exactly the 31st: on a loaded machine 31 calls can take long enough to earn a token).
    const started = Date.now();
    for (let i = 0; retries.length === 0 && i < 100; i++) must(await api.GET('/api/v1/profile'));
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries[0]).toMatch(/answered 429; retrying in \d+ s/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(infos.at(-1)).toMatchObject({ limit: 30 });
  });

  it('verify() accepts real deliveries in both schemes and refuses a wrong secret', async () => {
    const s = await h.seeker();
    const { api, must } = createJobfairClient({ baseUrl: base, token: s.token });
    const hook = must(
      await api.POST('/api/v1/webhooks', { body: { target_url: rx.url('/verify'), events: ['match.matched'] } }),
    );
    const test = must(await api.POST('/api/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
    const [d] = await eventually(async () => rx.forEvent(test.event.id).length > 0 && rx.forEvent(test.event.id));
    const headers = d.headers as Record<string, string>;
    expect(verifyWebhook({ payload: d.rawBody, headers, secret: hook.secret })).toMatchObject({
      scheme: 'svc-signature',
      event: { id: test.event.id },
    });
    const { 'svc-signature': _svc, ...standardOnly } = headers;
    expect(verifyWebhook({ payload: d.rawBody, headers: standardOnly, secret: hook.secret })).toMatchObject({
      scheme: 'standard-webhooks',
      event: { id: test.event.id },
    });
    // The payload types come from the document's webhooks section: the test event's fields are typed.
    const { event } = verifyWebhook<WebhookEvent<'webhook.test'>>({ payload: d.rawBody, headers, secret: hook.secret });
    const typed: { webhook_id: string; test: true } = event.data;
    expect(typed).toMatchObject({ webhook_id: hook.id, test: true });
    expect(() => verifyWebhook({ payload: d.rawBody, headers, secret: 'svc_whsec_wrong' })).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook({ payload: d.rawBody, headers: standardOnly, secret: 'svc_whsec_wrong' })).toThrow(
      WebhookVerificationError,
    );
  });
});
