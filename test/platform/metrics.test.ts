import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { createJob, createLiveEvent, join, matchOf, matchesService } from '../matches/fixtures';
import { startReceiver, type Receiver } from '../webhooks/helpers';

/**
 * The metrics listener (METRICS_PORT, decision 0258), scraped over HTTP after real traffic through
 * the app: a join that the matchmaker matches, both acceptances, a webhook delivered, discovery
 * answers from the cache, a refused and a replayed request. Counters are compared before and
 * after, so the test holds whatever else the process counted.
 */
type Samples = Map<string, number>;

/** `name{a="x",b="y"} 3` lines into a map keyed by the series as written (labels in exposition order). */
function parse(text: string): Samples {
  const out: Samples = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*(?:\{.*\})?) (\S+)/.exec(line);
    if (m) out.set(m[1], Number(m[2]));
  }
  return out;
}

/** Sum of the series of `name` whose labels include every pair of `labels`. */
function sum(s: Samples, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [series, v] of s) {
    const [n, rest = ''] = series.split('{');
    if (n !== name) continue;
    if (Object.entries(labels).every(([k, val]) => rest.includes(`${k}="${val}"`))) total += v;
  }
  return total;
}

/** Every label value of the service's own series (jobfair_*). */
function labelValues(s: Samples): string[] {
  return [...s.keys()]
    .filter((k) => k.startsWith('jobfair_') && k.includes('{'))
    .flatMap((k) => [...k.matchAll(/\w+="([^"]*)"/g)].map((m) => m[1]));
}

describe('metrics', () => {
  let h: Harness;
  let rx: Receiver;
  let url: string;
  const scrape = async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parse(await res.text());
  };

  beforeAll(async () => {
    rx = await startReceiver(() => ({ status: 204 }));
    h = await createHarness({
      env: {
        METRICS_PORT: '0',
        MATCHMAKER_INTERVAL_MS: '50',
        QUEUE_ENTRY_TTL_MS: '600000',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        INTERVIEW_LENGTH_MS: '600000',
        RATE_LIMIT_PUBLIC_PER_MIN: '3',
      },
    });
    url = `http://127.0.0.1:${h.app.metricsServer!.port}/metrics`;
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await rx?.close();
  });

  it("passes promtool's exposition lint (names, units, _total on counters only)", async () => {
    const text = await (await fetch(url)).text();
    const r = spawnSync(process.env.PROMTOOL_BIN ?? '/usr/bin/promtool', ['check', 'metrics'], {
      input: text,
      encoding: 'utf8',
    });
    // prom-client's own defaults name three gauges `nodejs_active_*_total`: theirs, not ours.
    const problems = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.trim() && !l.startsWith('nodejs_active_'));
    expect(problems).toEqual([]);
  });

  it('is served on its own port only: the public listener answers 404 for /metrics', async () => {
    const s = await scrape();
    expect(sum(s, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    const pub = await h.call({ method: 'GET', url: '/metrics' });
    expect(pub.statusCode).toBe(404);
    expect(pub.body).not.toContain('jobfair_');
    // Only /metrics on the metrics port either.
    expect((await fetch(url.replace('/metrics', '/healthz'))).status).toBe(404);
  });

  it('counts a join → match → accept and the webhook it sends, with bounded labels', async () => {
    const before = await scrape();
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
    await createJob(h, { event, title: 'Staff Engineer' });
    const seeker = await h.seeker({ profile: { title: 'Senior TypeScript engineer' } });
    const key = randomUUID();
    const hook = await h.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      token: seeker.token,
      payload: { target_url: rx.url('/metrics-hook'), events: ['match.matched'] },
      headers: { 'idempotency-key': key },
    });
    expect(hook.statusCode).toBe(201);
    // The same key again: the stored answer is replayed (the handler does not run).
    const replay = await h.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      token: seeker.token,
      payload: { target_url: rx.url('/metrics-hook'), events: ['match.matched'] },
      headers: { 'idempotency-key': key },
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');

    await join(h, seeker, event.slug);
    const match = await matchOf(h, seeker.user.id);
    const svc = matchesService(h);
    await svc.accept({ userId: seeker.user.id, matchId: match.id });
    await svc.accept({ userId: rec.user.id, matchId: match.id });
    await eventually(async () => rx.received.some((r) => r.json.type === 'match.matched'));

    // Discovery: a miss, a hit, then the per-IP limit (3 a minute here) refuses the fourth.
    const live = () => h.call({ method: 'GET', url: '/api/v1/live-events/live-now', retry: false });
    const answers = [await live(), await live(), await live(), await live()];
    expect(answers.map((a) => a.headers['x-cache'] ?? a.statusCode)).toEqual(['miss', 'hit', 'hit', 429]);

    const after = await eventually(async () => {
      const s = await scrape();
      const d = (name: string, labels?: Record<string, string>) => sum(s, name, labels) - sum(before, name, labels);
      return d('jobfair_match_outcomes_total', { outcome: 'accepted' }) >= 1 &&
        d('jobfair_webhook_deliveries_total', { outcome: 'delivered', attempt: 'first' }) >= 1
        ? s
        : null;
    });
    const delta = (name: string, labels?: Record<string, string>) =>
      sum(after, name, labels) - sum(before, name, labels);

    // The API's RED histogram: by route pattern, method and status class.
    expect(
      delta('jobfair_http_request_duration_seconds_count', {
        route: '/api/v1/queue/join',
        method: 'POST',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      delta('jobfair_http_request_duration_seconds_count', {
        route: '/api/v1/live-events/live-now',
        method: 'GET',
        status_class: '4xx',
      }),
    ).toBe(1);
    expect(delta('jobfair_rate_limit_refusals_total', { rate_class: 'public' })).toBe(1);
    expect(delta('jobfair_idempotency_replays_total', { route: '/api/v1/webhooks' })).toBe(1);
    expect(
      delta('jobfair_public_cache_requests_total', { route: '/api/v1/live-events/live-now', result: 'miss' }),
    ).toBe(1);
    expect(delta('jobfair_public_cache_requests_total', { route: '/api/v1/live-events/live-now', result: 'hit' })).toBe(
      2,
    );

    // The domain: one offer, its time to match, its acceptance, the webhook delivered first time.
    expect(delta('jobfair_offers_made_total')).toBe(1);
    expect(delta('jobfair_time_to_match_seconds_count')).toBe(1);
    expect(delta('jobfair_match_outcomes_total', { outcome: 'accepted' })).toBe(1);
    expect(delta('jobfair_match_outcomes_total', { outcome: 'declined' })).toBe(0);
    expect(delta('jobfair_webhook_deliveries_total', { outcome: 'delivered', attempt: 'first' })).toBe(1);
    // The worker: activity outcomes by type (the match's projection ran and completed).
    expect(
      delta('jobfair_activity_executions_total', { activity: 'projectMatch', outcome: 'completed' }),
    ).toBeGreaterThan(0);
    expect(sum(after, 'jobfair_activity_duration_seconds_count', { activity: 'projectMatch' })).toBeGreaterThan(0);
    // Both pools are reported with their size.
    expect(sum(after, 'jobfair_db_pool_max', { pool: 'api' })).toBe(h.config.DATABASE_POOL_MAX);
    expect(sum(after, 'jobfair_db_pool_max', { pool: 'worker' })).toBe(h.config.DATABASE_POOL_MAX);

    // Cardinality: no label value is an id, a slug, a URL or an e-mail address.
    const values = labelValues(after);
    expect(values.length).toBeGreaterThan(20);
    const idLike = values.filter(
      (v) =>
        /[0-9a-f]{8}-[0-9a-f]{4}-/i.test(v) || // uuid
        /[0-9a-f]{10,}/i.test(v) || // hex ids (evt_…, dlv_…, slugs' suffixes)
        /^[a-z]{2,5}_[A-Za-z0-9]{8,}/.test(v) || // prefixed ids and tokens
        /\d{5,}/.test(v) ||
        v.includes('@') ||
        v.includes('://') ||
        v.includes(event.slug),
    );
    expect(idLike).toEqual([]);
    // Routes are patterns: a path parameter appears as `:name`, never its value.
    const routes = [...after.keys()].flatMap((k) => [...k.matchAll(/route="([^"]*)"/g)].map((m) => m[1]));
    expect(routes.every((r) => r === 'unmatched' || r.startsWith('/'))).toBe(true);
    expect(routes.filter((r) => r.includes(match.id))).toEqual([]);
  }, 60_000);

  it('reads the state gauges from PostgreSQL at scrape time: waiting entries, the webhook backlog', async () => {
    const rec = await h.recruiter();
    // No job: the seeker waits.
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
    const seeker = await h.seeker();
    await join(h, seeker, event.slug);
    // The state is read at most once per 5 s: poll until the read after the join.
    const s = await eventually(async () => {
      const x = await scrape();
      return sum(x, 'jobfair_queue_waiting_entries') >= 1 ? x : null;
    }, 20_000);
    expect(sum(s, 'jobfair_queue_waiting_events')).toBeGreaterThanOrEqual(1);
    expect(sum(s, 'jobfair_queue_waiting_entries_max_per_event')).toBeGreaterThanOrEqual(1);
    expect(sum(s, 'jobfair_queue_oldest_waiting_seconds')).toBeGreaterThanOrEqual(0);
    for (const name of [
      'jobfair_webhook_first_attempt_backlog',
      'jobfair_webhook_first_attempt_oldest_seconds',
      'jobfair_webhook_dead_letters_24h',
      'jobfair_webhook_paused_subscriptions',
      'jobfair_email_outbox_pending',
      'jobfair_email_outbox_oldest_seconds',
    ])
      expect(s.has(name)).toBe(true);
    // The table is the truth: what the gauge says is what PostgreSQL counts.
    const { n } = (await h.knex('queue_entries').where({ status: 'waiting' }).count<{ n: number }[]>('* as n'))[0];
    expect(sum(s, 'jobfair_queue_waiting_entries')).toBe(Number(n));
  }, 60_000);
});
