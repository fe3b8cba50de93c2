import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildDist, startCluster, type Cluster } from '#dev/cluster';
import { CHECK_OPTIONS, CLUSTER_CHECKS, newCheckState } from '#dev/cluster-check';
import { defaultCacheDir } from '#dev/temporal-server';
import { cachedTemporalServer } from '#dev/temporal-postgres';
import { existingJaeger, type RunningTraceStore } from '#dev/trace-store';
import { imageApiNodeFlags } from '#dev/image-command';
import { startOtlpReceiver } from '../helpers/otlp-receiver';

/**
 * The production shape of `npm run cluster`, brought up and proven by the checks of
 * `npm run cluster -- --check` (dev/cluster-check.ts, one test each, in order): the compiled build,
 * nginx in front of two APIs (run with the image's Node flags), two workers, the app's PostgreSQL,
 * Prometheus; one join → match → accept → webhook through the load balancer, that journey's
 * metrics from Prometheus's query API, the join's trace (API, Temporal client, workflow, activity
 * and PostgreSQL spans under one trace id), the edge cache, a worker added later scraped through
 * file-based service discovery, and a kill -9 of one API.
 *
 * Temporal and the trace store are Go builds made once per machine into the cache (tens of minutes
 * each on 2 cores, so `npm test` never builds them): the Temporal server on its own PostgreSQL and
 * Jaeger when they are cached; otherwise the CLI's dev server (which `npm test` runs anyway) and an
 * in-process OTLP receiver answering Jaeger's query API stand in, and the title says so.
 * JOBFAIR_TEST_CLUSTER_STAND_INS=1 uses the stand-ins even when the builds are cached;
 * JOBFAIR_TEST_KEEP_CLUSTER=1 keeps the run folder (logs, configs) for a look.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = defaultCacheDir(process.env.CACHE_DIR);
const standIns = process.env.JOBFAIR_TEST_CLUSTER_STAND_INS === '1';
const SERVER = !standIns && cachedTemporalServer(CACHE) !== null;
const JAEGER = !standIns && existingJaeger(CACHE) !== undefined;
const TEMPORAL = SERVER
  ? 'the Temporal server on PostgreSQL'
  : "the CLI's dev server standing in for the Temporal server";
const STORE = JAEGER ? 'Jaeger' : 'an OTLP receiver standing in for Jaeger';

describe(`the cluster (${TEMPORAL}, ${STORE}): one journey through the load balancer, read back from Prometheus and the trace store`, () => {
  const lines: string[] = [];
  const log = (l: string) => lines.push(`${new Date().toISOString().slice(11, 23)} ${l}`);
  const abort = new AbortController();
  const state = newCheckState();
  const timings: Record<string, number> = {};
  const dist = path.join(ROOT, 'dist', `test-cluster-${randomBytes(4).toString('hex')}`);
  let starting: Promise<Cluster> | undefined;
  let cluster: Cluster | undefined;
  let store: RunningTraceStore | undefined;
  let failed = false;
  const t0 = Date.now();

  beforeAll(async () => {
    // Inside the repository (git-ignored dist/), as in the image: webpack finds the workflow packages from there.
    buildDist(dist, log);
    timings.build = Date.now() - t0;
    if (!JAEGER) store = await startOtlpReceiver();
    starting = startCluster({
      ...CHECK_OPTIONS,
      log,
      dist,
      signal: abort.signal,
      keep: process.env.JOBFAIR_TEST_KEEP_CLUSTER === '1',
      temporalDevServer: !SERVER,
      traceStore: store,
    });
    cluster = await starting;
    timings.up = Date.now() - t0 - timings.build;
    log(`cluster up: ${cluster.base}, Prometheus ${cluster.prometheusUrl}, traces ${cluster.traceQueryUrl}`);
  }, 600_000);

  afterAll(async () => {
    const t = Date.now();
    // A cluster still starting (beforeAll out of time) is stopped too: what started so far, in order.
    abort.abort();
    await starting?.catch(() => undefined);
    await cluster?.stop();
    await store?.stop();
    fs.rmSync(dist, { recursive: true, force: true });
    timings.stop = Date.now() - t;
    timings.total = Date.now() - t0;
    const s = (ms = 0) => `${(ms / 1000).toFixed(1)} s`;
    const summary =
      `cluster test: ${s(timings.total)} in all (build ${s(timings.build)}, up ${s(timings.up)}, ` +
      `checks ${s(timings.checks)}, stop ${s(timings.stop)}); load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;
    console.log(failed || !cluster ? `${summary}\n${lines.join('\n')}` : summary);
  }, 180_000);

  it("runs each API as the image does: node with the Dockerfile CMD's flags on the compiled entry", () => {
    if (!cluster) throw new Error('the cluster did not start');
    const flags = imageApiNodeFlags(ROOT);
    expect(flags).toContain('--max-semi-space-size=8');
    for (const a of cluster.apis) {
      const argv = fs.readFileSync(`/proc/${a.child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      expect(argv.slice(1)).toEqual([...flags, path.join(dist, 'apps/api/src/server.js')]);
    }
  });

  for (const check of CLUSTER_CHECKS) {
    it(
      check.what,
      async () => {
        if (!cluster) throw new Error(`the cluster did not start:\n${lines.slice(-20).join('\n')}`);
        const t = Date.now();
        try {
          // Every check applies here: the cluster always has a trace store (Jaeger or its stand-in).
          expect(check.skip?.(cluster) ?? null).toBeNull();
          log(`ok   ${check.what}: ${await check.run(cluster, state)}`);
        } catch (e) {
          failed = true;
          log(`FAIL ${check.what}: ${(e as Error).message}`);
          throw e;
        } finally {
          timings.checks = (timings.checks ?? 0) + Date.now() - t;
        }
      },
      240_000,
    );
  }
});
