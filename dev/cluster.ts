import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSteps } from './steps';
import { ClusterContext, type ClusterStep } from './cluster/context';
import { superviseCluster } from './cluster/supervision';
import { clusterPrograms } from './cluster/programs';
import { chooseLoadBalancerPort, compiledBuild } from './cluster/build';
import { startTemporal } from './cluster/temporal';
import { startAppPostgres } from './cluster/app-postgres';
import { startTraces } from './cluster/trace-store';
import { migrate, processEnvironment } from './cluster/environment';
import { openDemo, seedDemo } from './cluster/demo';
import { processMaker, startApisAndWorkers } from './cluster/processes';
import { checkApisReady, startLoadBalancer, startNginxExporter } from './cluster/load-balancer';
import { startPrometheus } from './cluster/prometheus';
import { clusterHandle } from './cluster/handle';
import type { Cluster, ClusterOptions } from './cluster/types';

export type { Cluster, ClusterOptions, ClusterProcess } from './cluster/types';
export { buildDist, clusterPrograms } from './cluster/programs';

/**
 * The production shape on one machine (`npm run cluster`; decision 0262): the compiled build
 * (`npm run build:dist`) run as the image runs it, the app's PostgreSQL, the Temporal server (built
 * once with `go install`) on its own PostgreSQL with several history shards, migrations by the
 * compiled migrator, N API processes (with the image's Node flags, read from the Dockerfile's CMD)
 * and M workers (each with its METRICS_PORT), nginx from Debian as load balancer and edge cache,
 * Prometheus from Debian scraping every process with the alert rules of deploy/prometheus loaded
 * (the APIs and workers through file-based service discovery, rewritten as processes are added
 * and removed), and the demo fair seeded as `npm start` seeds it.
 *
 * Every process runs in its own process group with its output in `<dir>/logs/`, so a terminal's
 * Ctrl-C reaches the supervisor alone; `stop()` ends them in order: Prometheus and the load
 * balancer, the APIs (in-flight requests finish), the workers (in-flight activities finish),
 * Temporal, then both PostgreSQL servers. Used by `npm run cluster` and meant for the chaos matrix
 * and the bench on this shape: `apis[i].kill('SIGKILL')` / `restart()`, `temporal.pid`, `appPg`,
 * `addWorker()` / `removeProcess()` (a rolling deploy's new workers, scraped like the first ones).
 *
 * The start-up is the steps below, in order (dev/cluster/); each registers how what it started
 * stops, and a failure or an abort stops what started so far.
 */
const CLUSTER_STEPS: readonly ClusterStep[] = [
  { name: 'load balancer port', run: chooseLoadBalancerPort },
  { name: 'compiled build', run: compiledBuild },
  { name: 'Temporal', run: startTemporal },
  { name: "the app's PostgreSQL", run: startAppPostgres },
  { name: 'trace store', run: startTraces },
  { name: 'environment', run: processEnvironment },
  { name: 'migrations', run: migrate },
  { name: 'demo seeding', run: seedDemo },
  { name: 'process maker', run: processMaker },
  { name: 'APIs and workers', run: startApisAndWorkers },
  { name: 'load balancer', run: startLoadBalancer },
  { name: '/readyz checks', run: checkApisReady },
  { name: "nginx's exporter", run: startNginxExporter },
  { name: 'Prometheus', run: startPrometheus },
  { name: 'demo live', run: openDemo },
];

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const programs = clusterPrograms(opts.log);
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-cluster-'));
  fs.mkdirSync(dir, { recursive: true });
  // Readable by the postgres user (embedded PostgreSQL refuses root) and nginx's workers.
  fs.chmodSync(dir, 0o755);
  const logs = path.join(dir, 'logs');
  fs.mkdirSync(logs, { recursive: true });
  const supervisor = superviseCluster({ log: opts.log, dir, removeDir: !opts.dir && !opts.keep, signal: opts.signal });
  const ctx = new ClusterContext(opts, programs, dir, logs, supervisor);
  try {
    if (!(await runSteps(CLUSTER_STEPS, ctx, () => supervisor.stopped)))
      throw new Error('the cluster was stopped during start-up');
    return clusterHandle(ctx);
  } catch (err) {
    await supervisor.abandon();
    throw err;
  }
}
