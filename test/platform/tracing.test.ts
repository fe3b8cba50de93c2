import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { processEnv, runProcess, startApi, type RunningProcess } from '../helpers/processes';
import { defaultCacheDir } from '#dev/temporal-server';
import { startOtlpReceiver } from '../helpers/otlp-receiver';
import {
  cachedJaegerPath,
  fetchTrace,
  formatTrace,
  startTraceStore,
  type JaegerSpan,
  type JaegerTrace,
  type RunningTraceStore,
} from '#dev/trace-store';

/**
 * Traces end to end (decision 0263): the API and the worker as separate processes with tracing on,
 * exporting over OTLP/HTTP to the real trace store (Jaeger, in memory). One queue join is one trace:
 * the API's request span (named by its route), the Temporal client call, the entry workflow, its
 * projection activity and that activity's SQL, under one trace id; and the API's log line of the
 * request carries that trace id. Under tsx (as `npm start` runs them) and compiled (as the image runs
 * them: plain node, the prebuilt traced workflow bundle), since the instrumentations must be in place
 * before `pg` and `http` load in either.
 *
 * The trace store is the Jaeger build `npm test` makes once per machine for this file (dev/test.ts);
 * run without it (plain jest, nothing cached), an in-process OTLP receiver with the same query API
 * stands in, and the test's title says so.
 */
const cached = cachedJaegerPath(defaultCacheDir(process.env.CACHE_DIR));
const JAEGER_BIN = process.env.JOBFAIR_TEST_JAEGER_BIN ?? (fs.existsSync(cached) ? cached : undefined);
const STORE = JAEGER_BIN ? 'Jaeger' : 'an OTLP receiver standing in for Jaeger';

describe.each(['tsx', 'compiled'] as const)(
  `tracing (%s, ${STORE}): one trace from the API request to the activity SQL`,
  (mode) => {
    let h: Harness;
    let store: RunningTraceStore;
    let api: RunningProcess | undefined;
    let worker: RunningProcess | undefined;
    let base: string;
    let dist: string | undefined;

    beforeAll(async () => {
      if (mode === 'compiled') {
        // Inside the repository (git-ignored dist/), as in the image: webpack finds the workflow packages from there.
        const root = path.resolve(__dirname, '..', '..');
        dist = path.join(root, 'dist', `test-tracing-${randomBytes(4).toString('hex')}`);
        const r = spawnSync(
          process.execPath,
          ['--import', 'tsx', path.join(root, 'dev/build-dist.ts'), '--out', dist],
          {
            cwd: root,
            encoding: 'utf8',
          },
        );
        if (r.status !== 0) throw new Error(`build:dist failed: ${r.stderr}`);
        expect(fs.existsSync(path.join(dist, 'workflow-bundle-traced.js'))).toBe(true);
      }
      store = JAEGER_BIN ? await startTraceStore({ bin: JAEGER_BIN }) : await startOtlpReceiver();
      h = await createHarness({ worker: false });
      const p = await processEnv(h, {
        OTEL_EXPORTER_OTLP_ENDPOINT: store.otlpUrl,
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
      });
      base = p.base;
      worker = runProcess('apps/worker/src/main.ts', p.env, { dist });
      api = await startApi(p.env, base, 60_000, { dist });
      await eventually(async () => /worker running/.test(worker!.output()), 90_000, 200);
    }, 400_000);

    afterAll(async () => {
      for (const c of [api, worker]) if (c && c.exitCode === null) c.kill('SIGKILL');
      await h?.close();
      await store?.stop();
      if (dist) fs.rmSync(dist, { recursive: true, force: true });
    });

    it('carries one trace id through API, Temporal client, workflow, activity and PostgreSQL', async () => {
      const seeker = await h.seeker();
      const res = await fetch(`${base}/api/v1/queue/join`, {
        method: 'POST',
        headers: { authorization: `Bearer ${seeker.token}` },
      });
      expect(res.status).toBe(200);

      // The request's span, found as an operator would: by service and route name.
      const operation = 'POST /api/v1/queue/join';
      const traceId = await eventually(async () => {
        const q = new URLSearchParams({ service: 'jobfair-api', operation, limit: '5', lookback: '1h' });
        const found = (await (await fetch(`${store.queryUrl}/api/traces?${q}`)).json()) as {
          data: JaegerTrace[] | null;
        };
        return found.data?.[0]?.traceID ?? false;
      }, 30_000);

      // Workflow spans leave the worker through its sink, activity and SQL spans through its exporter:
      // wait until the trace has all of them.
      const has = (t: JaegerTrace, service: string, match: (s: JaegerSpan) => boolean) =>
        t.spans.some((s) => t.processes[s.processID]?.serviceName === service && match(s));
      const tag = (s: JaegerSpan, key: string) => s.tags.find((x) => x.key === key)?.value;
      const isSql = (s: JaegerSpan) => tag(s, 'db.system') === 'postgresql';
      const trace = await eventually(
        async () => {
          const t = await fetchTrace(store.queryUrl, traceId);
          if (!t) return false;
          const complete =
            has(t, 'jobfair-api', (s) => s.operationName === operation) &&
            has(t, 'jobfair-api', (s) => s.operationName.startsWith('UpdateWithStartWorkflow:')) &&
            // The entry workflow runs on (its RunWorkflow span ends with it): the join's update handler is its span here.
            has(t, 'jobfair-worker', (s) => s.operationName === 'HandleUpdate:join') &&
            has(t, 'jobfair-worker', (s) => s.operationName === 'RunActivity:projectQueueEntry') &&
            has(t, 'jobfair-worker', isSql);
          return complete && t;
        },
        60_000,
        250,
      ).catch(async (err: Error) => {
        const t = await fetchTrace(store.queryUrl, traceId);
        throw new Error(`${err.message}\ntrace ${traceId} so far:\n${t ? formatTrace(t) : '(none)'}`);
      });

      // The activity's SQL is under the activity's span (the context reaches pg inside the activity).
      const byId = new Map(trace.spans.map((s) => [s.spanID, s]));
      const parentOf = (s: JaegerSpan) => byId.get(s.references.find((r) => r.refType === 'CHILD_OF')?.spanID ?? '');
      const ancestors = (s: JaegerSpan) => {
        const names: string[] = [];
        for (let p = parentOf(s); p; p = parentOf(p)) names.push(p.operationName);
        return names;
      };
      const activitySql = trace.spans.filter((s) => isSql(s) && ancestors(s).includes('RunActivity:projectQueueEntry'));
      expect(activitySql.length).toBeGreaterThan(0);
      // The statement is recorded, never its parameters; no span name carries an id.
      for (const s of trace.spans) {
        expect(s.tags.some((t) => t.key === 'db.postgresql.values')).toBe(false);
        expect(s.operationName).not.toContain(seeker.user.id);
      }

      // The API's JSON log line of the request names the same trace.
      const lines = api!
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { trace_id?: string; msg?: string });
      expect(lines.filter((l) => l.trace_id === traceId).map((l) => l.msg)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^POST \/api\/v1\/queue\/join 200/)]),
      );
    }, 120_000);
  },
);
