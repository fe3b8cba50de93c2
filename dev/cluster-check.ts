import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { DEMO_PASSWORD } from '#apps/demo/src/demo-data';
import type { Cluster, ClusterOptions } from './cluster';
import { fetchTrace, formatTrace, type JaegerSpan, type JaegerTrace } from './trace-store';

/**
 * The proof that the production shape works, run against a cluster `startCluster` brought up with
 * CHECK_OPTIONS: by `npm run cluster -- --check` (all checks, one line each) and by
 * test/platform/cluster.test.ts (one test per check), the same steps. Everything goes through the
 * load balancer, as a client would:
 *
 * 1. the demo seeker's agent joins an event (API token), is matched, and both humans accept in the
 *    web application (signed in, CSRF form posts); the demo webhook receiver gets `match.matched`
 *    and `match.accepted`, signatures verified;
 * 2. the join's trace (the check sends a W3C traceparent of its own, as a traced client does) is in
 *    the cluster's trace store, Jaeger's query API: the API's request span, its Temporal client
 *    call, the workflow's update handler, the activity and the activity's SQL under that one trace
 *    id, and the API's log line of the request names it (skipped when the cluster runs no store);
 * 3. Prometheus's own query API (`/api/v1/query`) shows every target up and the resulting metrics:
 *    the offer, the accepted match, the delivered webhooks, requests served by both APIs, the
 *    Temporal SDK's and the Temporal server's metrics;
 * 4. the edge cache answers repeated discovery questions itself (`X-Cache-Status: HIT`), keyed on
 *    the full query, with the routes' own Cache-Control;
 * 5. a worker started later (as a rolling deploy's next version is) is scraped by Prometheus from
 *    its start (file-based service discovery), and no longer once it is removed;
 * 6. killing one API (kill -9) leaves the load balancer answering every request, the /readyz check
 *    takes it out of rotation, and a restarted API comes back into it.
 *
 * Each check runs after the ones before it (the trace and the metrics are the journey's) and throws
 * with what it saw; `checkCluster` prints the lines and the command exits non-zero on a failure.
 */
export interface CheckLine {
  what: string;
  ok: boolean;
  detail: string;
}

/** What the checks need of the cluster: the demo fair, Prometheus scraping every second, no rate limit for the bursts. */
export const CHECK_OPTIONS = {
  demo: true,
  scrapeInterval: '1s',
  // The check makes its burst of requests from one address.
  env: { RATE_LIMIT_PUBLIC_PER_MIN: '100000', RATE_LIMIT_READ_PER_MIN: '100000' },
} satisfies Partial<ClusterOptions>;

/** What one check leaves for the next: the journey's match and the join's trace id. */
export interface CheckState {
  matchId: string;
  joinTraceId: string;
}

export interface ClusterCheck {
  what: string;
  /** Why the check does not apply to this cluster (e.g. it runs no trace store), or null. */
  skip?: (c: Cluster) => string | null;
  /** Runs the check; resolves with what it saw, throws with what went wrong. */
  run: (c: Cluster, state: CheckState) => Promise<string>;
}

export function newCheckState(): CheckState {
  // The join's trace: a sampled W3C traceparent of the check's own, which the API's span continues.
  return { matchId: '', joinTraceId: randomBytes(16).toString('hex') };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually<T>(
  what: string,
  f: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      const v = await f();
      if (v) return v;
    } catch (e) {
      last = (e as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (${last})` : ''}`);
    await sleep(250);
  }
}

/** A browser without JavaScript: cookies kept, redirects not followed, forms posted with the page's CSRF token. */
class WebSession {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}
  private keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (value === '' || attrs.some((a) => /max-age=0/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async get(p: string): Promise<{ status: number; body: string }> {
    const res = await fetch(`${this.base}${p}`, { headers: { cookie: this.cookieHeader() }, redirect: 'manual' });
    this.keep(res);
    return { status: res.status, body: await res.text() };
  }
  async submit(
    page: string,
    action: string,
    form: Record<string, string>,
  ): Promise<{ status: number; location: string | null }> {
    const { body } = await this.get(page);
    const m = /name="csrf-token" content="([^"]+)"/.exec(body) ?? /name="_csrf" value="([^"]+)"/.exec(body);
    if (!m) throw new Error(`no CSRF token on ${page}`);
    const res = await fetch(`${this.base}${action}`, {
      method: 'POST',
      headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form, _csrf: m[1] }).toString(),
      redirect: 'manual',
    });
    this.keep(res);
    await res.arrayBuffer();
    return { status: res.status, location: res.headers.get('location') };
  }
}

async function signIn(base: string, email: string, password: string): Promise<WebSession> {
  const s = new WebSession(base);
  const r = await s.submit('/login', '/login', { email, password });
  if (r.status !== 303) throw new Error(`sign-in of ${email}: ${r.status}`);
  return s;
}

/** One instant query of Prometheus's HTTP API: the vector's samples as [labels, value]. */
export async function promQuery(
  prometheusUrl: string,
  query: string,
): Promise<Array<[Record<string, string>, number]>> {
  const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = (await res.json()) as {
    status: string;
    error?: string;
    data?: { resultType: string; result: Array<{ metric: Record<string, string>; value: [number, string] }> };
  };
  if (body.status !== 'success') throw new Error(`${query}: ${body.error ?? res.status}`);
  return (body.data?.result ?? []).map((r) => [r.metric, Number(r.value[1])]);
}

function demoOf(c: Cluster): NonNullable<Cluster['demo']> {
  if (!c.demo) throw new Error('the check needs the demo fair (startCluster with CHECK_OPTIONS)');
  return c.demo;
}

/** A call of the public API through the load balancer with a bearer token. */
const apiCall = (c: Cluster, p: string, token: string, init: RequestInit = {}) =>
  fetch(`${c.base}/api/v1${p}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });

/** The checks, in the order they run. */
export const CLUSTER_CHECKS: ClusterCheck[] = [
  // 1. join → match → accept → webhook, through the load balancer.
  {
    what: 'join → match → accept → webhook through the load balancer',
    run: async (c, state) => {
      const demo = demoOf(c);
      const api = (p: string, token: string, init: RequestInit = {}) => apiCall(c, p, token, init);
      const event = demo.events[0];
      const { joinTraceId } = state;
      const join = await api('/queue/join', demo.seekerToken, {
        method: 'POST',
        body: JSON.stringify({ live_event_slug: event.slug }),
        headers: { traceparent: `00-${joinTraceId}-${randomBytes(8).toString('hex')}-01` },
      });
      if (join.status >= 300) throw new Error(`join: ${join.status} ${await join.text()}`);
      await join.arrayBuffer().catch(() => undefined);
      const match = await eventually(
        'a match for the demo seeker',
        async () => {
          const res = await api('/matches', demo.seekerToken);
          const { matches } = (await res.json()) as { matches: Array<{ id: string; status: string }> };
          return matches.find((m) => m.status === 'matched');
        },
        90_000,
      );
      state.matchId = match.id;
      const seeker = await signIn(c.base, demo.seekerEmail, DEMO_PASSWORD);
      const recruiter = await signIn(c.base, demo.recruiterEmail, DEMO_PASSWORD);
      for (const [who, s] of [
        ['seeker', seeker],
        ['recruiter', recruiter],
      ] as const) {
        const r = await s.submit(`/matches/${match.id}`, `/matches/${match.id}/accept`, {});
        if (r.status !== 303) throw new Error(`the ${who}'s accept: ${r.status}`);
      }
      await eventually('the match accepted', async () => {
        const res = await api('/matches', demo.seekerToken);
        const { matches } = (await res.json()) as { matches: Array<{ id: string; status: string }> };
        return matches.find((m) => m.id === match.id && m.status === 'accepted');
      });
      const got = await eventually(
        'match.matched and match.accepted at the demo receiver',
        async () => {
          const types = new Set((demo.receiver?.received ?? []).filter((d) => d.verified).map((d) => d.type));
          return types.has('match.matched') && types.has('match.accepted') ? [...types] : null;
        },
        60_000,
      );
      return `match ${match.id} accepted by both; webhooks received (signatures verified): ${got.join(', ')}`;
    },
  },

  // 2. The join's trace in the trace store, and the API's log line naming it.
  {
    what: "the join's trace in the trace store (Jaeger's query API)",
    skip: (c) =>
      c.traceQueryUrl ? null : "the cluster runs no trace store (--no-traces, or an OTLP endpoint of one's own)",
    run: async (c, { joinTraceId }) => {
      const queryUrl = c.traceQueryUrl!;
      const operation = 'POST /api/v1/queue/join';
      const service = (t: JaegerTrace, s: JaegerSpan) => t.processes[s.processID]?.serviceName ?? '?';
      const tag = (s: JaegerSpan, key: string) => s.tags.find((x) => x.key === key)?.value;
      const isSql = (s: JaegerSpan) => tag(s, 'db.system') === 'postgresql';
      const want: Array<[string, string, (s: JaegerSpan) => boolean]> = [
        ['API request', 'jobfair-api', (s) => s.operationName === operation],
        ['Temporal client', 'jobfair-api', (s) => s.operationName.startsWith('UpdateWithStartWorkflow:')],
        ['workflow', 'jobfair-worker', (s) => s.operationName === 'HandleUpdate:join'],
        ['activity', 'jobfair-worker', (s) => s.operationName === 'RunActivity:projectQueueEntry'],
        ['PostgreSQL', 'jobfair-worker', isSql],
      ];
      let last: JaegerTrace | null = null;
      const trace = await eventually(
        `spans of trace ${joinTraceId}`,
        async () => {
          last = await fetchTrace(queryUrl, joinTraceId);
          const t = last;
          return t && want.every(([, svc, f]) => t.spans.some((s) => service(t, s) === svc && f(s))) && t;
        },
        60_000,
      ).catch((e: Error) => {
        throw new Error(`${e.message}; so far:\n${last ? formatTrace(last) : '(no trace)'}`);
      });
      // The SQL under the activity's span: the context reaches pg inside the activity.
      const byId = new Map(trace.spans.map((s) => [s.spanID, s]));
      const parent = (s: JaegerSpan) => byId.get(s.references.find((r) => r.refType === 'CHILD_OF')?.spanID ?? '');
      const underActivity = trace.spans.filter((s) => {
        if (!isSql(s)) return false;
        for (let p = parent(s); p; p = parent(p)) if (p.operationName === 'RunActivity:projectQueueEntry') return true;
        return false;
      });
      if (!underActivity.length) throw new Error(`no SQL span under the activity:\n${formatTrace(trace)}`);
      // The API that took the join logged the request with the same trace id (JSON lines).
      const loggedJoin = (line: string) => {
        if (!line.startsWith('{') || !line.includes(joinTraceId)) return false;
        const l = JSON.parse(line) as { trace_id?: string; msg?: string };
        return l.trace_id === joinTraceId && (l.msg ?? '').startsWith(`${operation} 2`);
      };
      const logged = c.apis.filter((a) => fs.readFileSync(a.logFile, 'utf8').split('\n').some(loggedJoin));
      if (!logged.length) throw new Error(`no API log line of the join with trace_id ${joinTraceId}`);
      const services = [...new Set(trace.spans.map((s) => service(trace, s)))];
      return (
        `trace ${joinTraceId}: ${trace.spans.length} spans from ${services.join(', ')} ` +
        `(${want.map(([w]) => w).join(', ')}; ${underActivity.length} SQL spans under the activity); ` +
        `${logged.map((a) => a.name).join(', ')} logged the join with that trace_id`
      );
    },
  },

  // 3. Prometheus's query API: the processes and what that journey left in the metrics.
  {
    what: "the journey's metrics from Prometheus's query API",
    run: async (c) => {
      const scalar = async (q: string) => (await promQuery(c.prometheusUrl, q))[0]?.[1] ?? NaN;
      const want: Array<[string, string, (v: number) => boolean]> = [
        ['APIs up', 'count(up{job="jobfair-api"} == 1)', (v) => v === c.apis.length],
        ['workers up', 'count(up{job="jobfair-worker"} == 1)', (v) => v === c.workers.length],
        ...(c.temporal
          ? ([
              ['Temporal server up', 'count(up{job="temporal"} == 1)', (v: number) => v === 1],
              ['Temporal server series', 'count({job="temporal"})', (v: number) => v > 0],
            ] as Array<[string, string, (v: number) => boolean]>)
          : []),
        ['load balancer up (its exporter)', 'sum(nginx_up{job="nginx"})', (v) => v === 1],
        ['requests the load balancer took', 'sum(nginx_http_requests_total{job="nginx"})', (v) => v >= 1],
        ['offers made', 'sum(jobfair_offers_made_total)', (v) => v >= 1],
        ['matches accepted', 'sum(jobfair_match_outcomes_total{outcome="accepted"})', (v) => v >= 1],
        ['webhooks delivered', 'sum(jobfair_webhook_deliveries_total{outcome="delivered"})', (v) => v >= 2],
        [
          'APIs that served requests',
          'count(sum by (instance) (jobfair_http_request_duration_seconds_count{job="jobfair-api"}) > 0)',
          (v) => v === c.apis.length,
        ],
        ['Temporal SDK series (workers)', 'count({job="jobfair-worker", __name__=~"temporal_.+"})', (v) => v > 0],
      ];
      const seen: string[] = [];
      await eventually(
        'every metric',
        async () => {
          seen.length = 0;
          let all = true;
          for (const [name, q, ok] of want) {
            const v = await scalar(q);
            seen.push(`${name} ${Number.isNaN(v) ? 'none' : v}`);
            if (!ok(v)) all = false;
          }
          return all;
        },
        90_000,
      ).catch((e: Error) => {
        throw new Error(`${e.message}; last seen: ${seen.join(', ')}`);
      });
      const rules = (await (await fetch(`${c.prometheusUrl}/api/v1/rules`)).json()) as {
        data: { groups: Array<{ rules: unknown[] }> };
      };
      const nRules = rules.data.groups.reduce((n, g) => n + g.rules.length, 0);
      if (nRules === 0) throw new Error('no alert rules loaded');
      return `${seen.join(', ')}; ${nRules} alert rules loaded`;
    },
  },

  // 4. The edge cache.
  {
    what: 'discovery served by the edge cache',
    run: async (c) => {
      const twice = async (p: string) => {
        const statuses: string[] = [];
        let cacheControl = '';
        for (let i = 0; i < 2; i++) {
          const res = await fetch(`${c.base}${p}`);
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
          statuses.push(res.headers.get('x-cache-status') ?? 'none');
          cacheControl = res.headers.get('cache-control') ?? '';
        }
        if (statuses[1] !== 'HIT') throw new Error(`${p}: X-Cache-Status ${statuses.join(' then ')}`);
        return `${p} ${statuses.join('→')} (${cacheControl})`;
      };
      const q = `skills=typescript&limit=7&salary_min=${Math.floor(Math.random() * 1e6)}`;
      const out = [
        await twice('/api/v1/live-events/live-now'),
        await twice(`/api/v1/jobs/search?${q}`),
        await twice('/api/v1/openapi.json'),
      ];
      // Keyed on the full query: another query is a miss of its own.
      const other = await fetch(`${c.base}/api/v1/jobs/search?${q.replace('limit=7', 'limit=8')}`);
      await other.arrayBuffer();
      if (other.headers.get('x-cache-status') !== 'MISS')
        throw new Error(`another query: X-Cache-Status ${other.headers.get('x-cache-status')}`);
      const openapiCc = out[2];
      if (!/max-age=3600/.test(openapiCc) || !/stale-while-revalidate=86400/.test(openapiCc))
        throw new Error(`openapi.json Cache-Control: ${openapiCc}`);
      return `${out.join('; ')}; another query MISS`;
    },
  },

  // 5. A worker added later is scraped (file-based service discovery), and no longer once removed.
  {
    what: 'a worker added later is scraped by Prometheus, and dropped when removed',
    run: async (c) => {
      const workersUp = async () =>
        (await promQuery(c.prometheusUrl, 'count(up{job="jobfair-worker"} == 1)'))[0]?.[1] ?? 0;
      const targets = async () =>
        (await promQuery(c.prometheusUrl, 'up{job="jobfair-worker"}')).map(([m]) => m.instance).sort();
      const before = c.workers.length;
      const added = await c.addWorker();
      const instance = `127.0.0.1:${added.metricsPort}`;
      try {
        await eventually(
          `${added.name} (${instance}) up in Prometheus`,
          async () => (await workersUp()) === before + 1 && (await targets()).includes(instance),
          30_000,
        );
      } finally {
        await c.removeProcess(added);
      }
      await eventually(
        `${added.name} gone from Prometheus's targets`,
        async () => !(await targets()).includes(instance) && (await workersUp()) === before,
        30_000,
      );
      return `${added.name} (${instance}) scraped from its start (${before + 1} workers up), gone once removed (${before})`;
    },
  },

  // 6. One API killed: the load balancer keeps answering, the check takes it out, a restart brings it back.
  {
    what: 'kill -9 of one API: the load balancer keeps answering',
    run: async (c) => {
      const victim = c.apis[0];
      victim.child.kill('SIGKILL');
      let ok = 0;
      let failed = 0;
      const t = Date.now();
      while (Date.now() - t < 4000) {
        const batch = await Promise.all(
          Array.from({ length: 8 }, async (_, i) => {
            try {
              // A query of its own (never cached) reaches an API; so does /readyz.
              const p = i % 2 ? '/readyz' : `/api/v1/jobs/search?limit=3&salary_min=${Math.floor(Math.random() * 1e6)}`;
              const res = await fetch(`${c.base}${p}`);
              await res.arrayBuffer();
              return res.status === 200;
            } catch {
              return false;
            }
          }),
        );
        for (const b of batch)
          if (b) ok++;
          else failed++;
      }
      if (failed > 0) throw new Error(`${failed} of ${ok + failed} requests failed after the kill`);
      await eventually('the killed API out of rotation', async () => !c.inRotation().includes(victim.name), 15_000);
      await victim.restart();
      await eventually(
        'the restarted API back in rotation',
        async () => c.inRotation().length === c.apis.length,
        15_000,
      );
      return `${ok} requests, 0 failed, while ${victim.name} was down; taken out of rotation, back after its restart`;
    },
  },
];

/** `npm run cluster -- --check`: every check in turn, one line each (a failed one does not stop the rest). */
export async function checkCluster(c: Cluster, log: (l: string) => void): Promise<CheckLine[]> {
  demoOf(c);
  const state = newCheckState();
  const lines: CheckLine[] = [];
  for (const check of CLUSTER_CHECKS) {
    const skipped = check.skip?.(c);
    if (skipped) {
      log(`skipped: ${check.what} (${skipped})`);
      continue;
    }
    const t = Date.now();
    try {
      const detail = await check.run(c, state);
      lines.push({ what: check.what, ok: true, detail: `${detail} (${Date.now() - t} ms)` });
      log(`ok   ${check.what}: ${detail}`);
    } catch (e) {
      lines.push({ what: check.what, ok: false, detail: (e as Error).message });
      log(`FAIL ${check.what}: ${(e as Error).message}`);
    }
  }
  return lines;
}
