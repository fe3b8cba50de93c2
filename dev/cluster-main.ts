import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_PASSWORD } from '#apps/demo/src/demo-data';
import { redactUrl } from './stack';
import { startCluster, type Cluster } from './cluster';
import { CHECK_OPTIONS, checkCluster } from './cluster-check';

/**
 * `npm run cluster`: the production shape on one machine (dev/cluster.ts, decision 0262), with a
 * banner saying where each piece is; Ctrl-C stops it in order. `--check` brings it up on free
 * ports, runs the cluster proof (dev/cluster-check.ts, which test/platform/cluster.test.ts runs
 * too), stops it and exits 0 only if every check passed.
 *
 *   npm run cluster [-- --port 8080 --prometheus-port 9090 --apis 2 --workers 2 --shards 4 --dir <dir> --keep --no-build --no-traces --temporal-address host:port --check]
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'prometheus-port': { type: 'string' },
    apis: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
    shards: { type: 'string', default: '4' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'no-traces': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    'temporal-address': { type: 'string' },
  },
});
const log = (l: string) => console.log(`[cluster] ${l}`);
const ROOT = path.resolve(__dirname, '..');

function banner(c: Cluster, seconds: number): string {
  const proc = (p: Cluster['apis'][number]) =>
    `${p.name} pid ${p.child.pid}${p.port ? ` :${p.port}` : ''}, metrics http://127.0.0.1:${p.metricsPort}/metrics, log ${p.logFile}`;
  const d = c.demo;
  return [
    '',
    `Job fair cluster is up (ready in ${seconds.toFixed(1)} s): the production shape, compiled, on one machine.`,
    `  Load balancer:  ${c.base}/  (nginx, edge cache: X-Cache-Status; config ${c.nginx.configFile})`,
    `  API:            ${c.base}/api/v1   OpenAPI: ${c.base}/api/v1/openapi.json`,
    ...c.apis.map((a) => `  ${proc(a)}`),
    ...c.workers.map((w) => `  ${proc(w)}`),
    c.temporal
      ? `  Temporal:       ${c.temporal.address} (${c.temporal.version}), metrics http://${c.temporal.metricsAddress}/metrics\n` +
        `                  no UI (the server has none): temporal workflow list --address ${c.temporal.address}`
      : `  Temporal:       ${c.temporalAddress} (${c.temporalDevServer ? "the CLI's dev server, standing in" : 'external: --temporal-address'})`,
    `  PostgreSQL:     ${redactUrl(c.databaseUrl)} (app)${c.temporal ? `; Temporal's own on port ${c.temporal.postgresPort}` : ''}`,
    `  Prometheus:     ${c.prometheusUrl}/  (targets: ${c.prometheusUrl}/targets, alerts: ${c.prometheusUrl}/alerts)`,
    c.traceQueryUrl
      ? `  Traces:         ${c.traceQueryUrl}/api/traces/<trace_id> (Jaeger, in memory; a log line's trace_id: JAEGER_QUERY_URL=${c.traceQueryUrl} npx tsx dev/trace-store.ts show <trace_id>)`
      : `  Traces:         ${c.env.OTEL_EXPORTER_OTLP_ENDPOINT ? `exported to ${c.env.OTEL_EXPORTER_OTLP_ENDPOINT}` : 'off (--no-traces)'}`,
    `  Run folder:     ${c.dir}`,
    '',
    ...(d
      ? [
          `  Live now:       ${d.events.map((e) => e.company).join(', ')} (${d.events.length} open-invite events)`,
          `  Webhooks:       demo receiver at ${d.receiver?.url} — the ${d.events[0].company} team is subscribed`,
          `  Demo seeker     ${d.seekerEmail} / ${DEMO_PASSWORD}`,
          `    agent token: ${d.seekerToken}`,
          `  Demo recruiter  ${d.recruiterEmail} / ${DEMO_PASSWORD}`,
          `    token: ${d.recruiterToken}`,
          '',
          `  Try: curl -si ${c.base}/api/v1/live-events/live-now | grep -i x-cache-status   (twice: MISS, then HIT)`,
        ]
      : []),
    '  Ctrl-C stops everything: load balancer, APIs, workers, trace store, Temporal, databases.',
    '',
  ].join('\n');
}

async function main() {
  const t0 = Date.now();
  const check = values.check;
  const distDir = path.join(ROOT, 'dist', 'cluster');
  const reuse = values['no-build'] && fs.existsSync(path.join(distDir, 'workflow-bundle.js'));
  let cluster: Cluster | null = null;
  let starting: Promise<unknown> = Promise.resolve();
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    // A Ctrl-C during start-up: the servers started so far are stopped once start-up returns (or fails).
    await starting.catch(() => undefined);
    await cluster?.stop();
    log('stopped');
    process.exit(code);
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => void stop(0));
  try {
    const started = startCluster({
      ...(check ? CHECK_OPTIONS : {}),
      log,
      dir: values.dir,
      keep: values.keep,
      apis: Number(values.apis),
      workers: Number(values.workers),
      historyShards: Number(values.shards),
      port: values.port ? Number(values.port) : check ? undefined : 8080,
      prometheusPort: values['prometheus-port'] ? Number(values['prometheus-port']) : check ? undefined : 9090,
      dist: reuse ? distDir : undefined,
      temporalAddress: values['temporal-address'],
      traces: !values['no-traces'],
    });
    starting = started;
    cluster = await started;
  } catch (err) {
    if (stopping) return;
    console.error(`[cluster] could not start: ${(err as Error).message}`);
    return stop(1);
  }
  if (stopping) return;
  console.log(banner(cluster, (Date.now() - t0) / 1000));
  if (!check) return;
  const lines = await checkCluster(cluster, log);
  const failed = lines.filter((l) => !l.ok);
  console.log(
    `\n${lines.map((l) => `${l.ok ? 'ok  ' : 'FAIL'} ${l.what}: ${l.detail}`).join('\n')}\n\n` +
      `${lines.length - failed.length} of ${lines.length} cluster checks passed; load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  if (failed.length && values.keep) log(`kept for a look: ${cluster.dir}`);
  await stop(failed.length ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
