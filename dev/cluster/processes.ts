import fs from 'node:fs';
import path from 'node:path';
import { stopProcess } from '#lib/supervision';
import { freePort } from '../ports';
import { imageApiNodeFlags } from '../image-command';
import { answers, exited, spawnLogged, tail, until } from './children';
import type { ClusterContext } from './context';
import type { ClusterProcess } from './types';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * How the cluster makes an API or a worker, as the image runs them: plain node on the compiled
 * entries, the API with the Node flags of the image's CMD (the Dockerfile is their one source).
 */
export function processMaker(ctx: ClusterContext): void {
  const apiNodeFlags = imageApiNodeFlags(ROOT);
  const procEnv = (kind: 'api' | 'worker', own: Record<string, string>) => ({
    ...process.env,
    ...ctx.env,
    ...(ctx.otlp ? { OTEL_SERVICE_NAME: `jobfair-${kind}` } : {}),
    ...own,
  });
  ctx.makeProcess = async (kind, name, o = {}) => {
    let port = kind === 'api' ? await freePort() : null;
    let metricsPort = await freePort();
    const logFile = path.join(ctx.logs, `${name}.log`);
    let from = o.dist ?? ctx.dist;
    const entry = () => path.join(from, kind === 'api' ? 'apps/api/src/server.js' : 'apps/worker/src/main.js');
    const own = () => ({ ...o.env, METRICS_PORT: String(metricsPort), ...(port ? { PORT: String(port) } : {}) });
    const p: ClusterProcess = {
      name,
      kind,
      port,
      metricsPort,
      logFile,
      child: undefined as unknown as ReturnType<typeof spawnLogged>,
      restart: async (r = {}) => {
        if (!exited(p.child)) await stopProcess(p.child, 'SIGTERM', 35_000);
        from = r.dist ?? from;
        start();
        await ready();
      },
    };
    // A restarted worker is ready on its own "worker running" line, not the one before it in the log.
    let logFrom = 0;
    const logSince = () => fs.readFileSync(logFile).subarray(logFrom).toString('utf8');
    const start = () => {
      logFrom = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
      const args = kind === 'api' ? [...apiNodeFlags, entry()] : [entry()];
      p.child = spawnLogged(process.execPath, args, procEnv(kind, own()), logFile);
      ctx.supervisor.children.add(p.child);
    };
    const ready = () =>
      until(
        `${name} (log: ${logFile})`,
        async () => (kind === 'api' ? answers(`http://127.0.0.1:${port}/readyz`) : /worker running/.test(logSince())),
        {
          failed: () =>
            exited(p.child) ? `exited (${p.child.exitCode ?? p.child.signalCode}):\n${tail(logFile)}` : null,
        },
      );
    // A free port can be taken by another process (an outgoing connection's ephemeral port, a
    // parallel test) between freePort() and the child's bind: the first start then takes new
    // ports and tries again, before anything (nginx, Prometheus) has been told the old ones.
    const firstReady = async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await ready();
        } catch (err) {
          const lostPort = exited(p.child) && /EADDRINUSE/.test(logSince());
          if (!lostPort || attempt >= 3) throw err;
          ctx.log(`${name}: a port was taken before it could bind; starting it on new ports`);
          port = kind === 'api' ? await freePort() : null;
          metricsPort = await freePort();
          p.port = port;
          p.metricsPort = metricsPort;
          start();
        }
      }
    };
    start();
    return { process: p, firstReady };
  };
}

/** 5. The workers and the APIs, started together; resolves once all are ready. */
export async function startApisAndWorkers(ctx: ClusterContext): Promise<void> {
  const { apis, workers, nApis, nWorkers } = ctx;
  // Stopped in this order after the load balancer: the APIs, then the workers (those added later too).
  const stopAll = (list: ClusterProcess[]) => async () =>
    void (await Promise.all(list.map((p) => stopProcess(p.child, 'SIGTERM', 35_000))));
  ctx.supervisor.addStop('the workers', stopAll(workers));
  ctx.supervisor.addStop('the APIs', stopAll(apis));
  const firstReady: Array<() => Promise<void>> = [];
  const make = async (list: ClusterProcess[], kind: 'api' | 'worker', name: string) => {
    const made = await ctx.makeProcess(kind, name);
    list.push(made.process);
    firstReady.push(made.firstReady);
  };
  for (let i = 0; i < nWorkers; i++) await make(workers, 'worker', `worker-${i + 1}`);
  for (let i = 0; i < nApis; i++) await make(apis, 'api', `api-${i + 1}`);
  ctx.workersStarted = nWorkers;
  const t = Date.now();
  await Promise.all(firstReady.map((ready) => ready()));
  ctx.log(`${nApis} APIs and ${nWorkers} workers ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}
