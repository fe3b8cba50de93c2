import path from 'node:path';
import { stopProcess } from '#lib/supervision';
import { exited } from './children';
import type { ClusterContext } from './context';
import type { Cluster } from './types';

/** A worker more, from `dist` with `env` over the cluster's: in `workers` at once, scraped once it polls. */
function workerAdder(ctx: ClusterContext): Cluster['addWorker'] {
  return async (o = {}) => {
    if (ctx.supervisor.stopped) throw new Error('the cluster is stopped');
    const { process: p, firstReady } = await ctx.makeProcess('worker', `worker-${++ctx.workersStarted}`, o);
    // In `workers` at once, so stop() ends it even while it starts; scraped once it polls.
    ctx.workers.push(p);
    await firstReady();
    ctx.writeTargets();
    ctx.log(`${p.name} added (metrics :${p.metricsPort}, scraped)`);
    return p;
  };
}

/** Retires a process: out of the targets (and the load balancer) first, then stopped. */
function processRemover(ctx: ClusterContext): Cluster['removeProcess'] {
  return async (p) => {
    const list = p.kind === 'api' ? ctx.apis : ctx.workers;
    if (!list.includes(p)) return;
    list.splice(list.indexOf(p), 1);
    ctx.writeTargets();
    if (p.kind === 'api') ctx.reloadNginx();
    if (!exited(p.child)) await stopProcess(p.child, 'SIGTERM', 35_000);
    ctx.log(`${p.name} removed (no longer scraped)`);
  };
}

/** The running cluster as its callers see it. */
export function clusterHandle(ctx: ClusterContext): Cluster {
  const { apis, down } = ctx;
  return {
    dir: ctx.dir,
    base: ctx.base,
    prometheusUrl: ctx.prometheusUrl,
    apis,
    workers: ctx.workers,
    temporal: ctx.temporal,
    temporalDevServer: ctx.devServer,
    temporalAddress: ctx.temporalAddress,
    appPg: ctx.appPg,
    databaseUrl: ctx.databaseUrl,
    traceQueryUrl: ctx.traceQueryUrl,
    config: ctx.config,
    env: ctx.env,
    nginx: {
      pid: ctx.nginx.child.pid,
      configFile: ctx.nginx.configFile,
      accessLog: path.join(ctx.nginx.dir, 'access.log'),
    },
    demo: ctx.demo,
    inRotation: () => apis.filter((a) => !down.has(a.name)).map((a) => a.name),
    addWorker: workerAdder(ctx),
    removeProcess: processRemover(ctx),
    stop: ctx.supervisor.stopAll,
  };
}
