import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stopProcess } from '#lib/supervision';
import { freePort } from '../ports';
import { nginxConfig } from '../cluster-config';
import { answers, exited, spawnLogged, tail, until } from './children';
import type { ClusterContext } from './context';

/** 6. nginx: load balancer and edge cache in front of the APIs, kept in step with each API's /readyz. */
export async function startLoadBalancer(ctx: ClusterContext): Promise<void> {
  const { apis, down, programs, log } = ctx;
  const dir = path.join(ctx.dir, 'nginx');
  fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  const configFile = path.join(dir, 'nginx.conf');
  const statusPort = await freePort();
  const writeNginx = () =>
    fs.writeFileSync(
      configFile,
      nginxConfig({
        dir,
        listen: { host: '127.0.0.1', port: ctx.lbPort },
        apis: apis.map((a) => ({ host: '127.0.0.1', port: a.port!, down: down.has(a.name) })),
        statusPort,
      }),
    );
  writeNginx();
  const nginxArgs = ['-p', dir, '-c', configFile, '-e', path.join(dir, 'error.log')];
  const test = spawnSync(programs.nginx, [...nginxArgs, '-t'], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t refused the generated config:\n${test.stderr}`);
  const child = spawnLogged(
    programs.nginx,
    [...nginxArgs, '-g', 'daemon off;'],
    process.env,
    path.join(ctx.logs, 'nginx.log'),
  );
  ctx.supervisor.children.add(child);
  ctx.nginx = { child, dir, configFile, statusPort };
  ctx.supervisor.addStop('the load balancer (nginx)', () => stopProcess(child, 'SIGQUIT', 10_000));
  await until('the load balancer', () => answers(`${ctx.base}/readyz`), {
    timeoutMs: 30_000,
    failed: () => (exited(child) ? tail(path.join(dir, 'error.log')) : null),
  });
  log(`load balancer and edge cache (nginx) at ${ctx.base}`);
  ctx.reloadNginx = () => {
    writeNginx();
    spawnSync(programs.nginx, [...nginxArgs, '-s', 'reload']);
    log(
      `load balancer: ${apis
        .filter((a) => !down.has(a.name))
        .map((a) => a.name)
        .join(', ')} in rotation`,
    );
  };
}

/**
 * The active check open-source nginx lacks: each API's /readyz every second; one that fails is
 * taken out of rotation (nginx reloads gracefully) until it answers again. All failing: all kept.
 */
export function checkApisReady(ctx: ClusterContext): void {
  const { apis, down } = ctx;
  let checking = false;
  const health = setInterval(() => {
    if (checking || exited(ctx.nginx.child)) return;
    checking = true;
    void (async () => {
      const results = await Promise.all(
        apis.map(async (a) => ({
          a,
          ok: !exited(a.child) && (await answers(`http://127.0.0.1:${a.port}/readyz`).catch(() => false)),
        })),
      );
      const next = new Set(results.filter((r) => !r.ok).map((r) => r.a.name));
      if (next.size === apis.length) next.clear();
      if ([...next].join() !== [...down].join()) {
        down.clear();
        for (const n of next) down.add(n);
        ctx.reloadNginx();
      }
    })().finally(() => (checking = false));
  }, ctx.opts.healthEveryMs ?? 1000);
  ctx.supervisor.addStop('the /readyz checks', async () => clearInterval(health));
}

/** nginx's counters (connections, requests) in Prometheus's format, from its stub_status. */
export async function startNginxExporter(ctx: ClusterContext): Promise<void> {
  ctx.exporterPort = await freePort();
  const exporter = spawnLogged(
    ctx.programs.nginxExporter,
    [
      `-nginx.scrape-uri=http://127.0.0.1:${ctx.nginx.statusPort}/stub_status`,
      `-web.listen-address=127.0.0.1:${ctx.exporterPort}`,
    ],
    process.env,
    path.join(ctx.logs, 'nginx-exporter.log'),
  );
  ctx.supervisor.children.add(exporter);
  ctx.supervisor.addStop("nginx's exporter", () => stopProcess(exporter, 'SIGTERM', 5_000));
}
