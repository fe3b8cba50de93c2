import fs from 'node:fs';
import path from 'node:path';
import { stopProcess } from '#lib/supervision';
import { freePort } from '../ports';
import { fileSdTargets, prometheusConfig, type Endpoint } from '../cluster-config';
import { answers, exited, spawnLogged, tail, until } from './children';
import type { ClusterContext } from './context';

const ROOT = path.resolve(__dirname, '..', '..');
const local = (port: number): Endpoint => ({ host: '127.0.0.1', port });

/**
 * The APIs' and workers' targets in files Prometheus watches (file_sd_configs), rewritten whole
 * (write, then rename) whenever a process is added or removed.
 */
function targetFiles(ctx: ClusterContext, dir: string) {
  const files = { apis: path.join(dir, 'apis.json'), workers: path.join(dir, 'workers.json') };
  const write = () => {
    for (const [file, list] of [
      [files.apis, ctx.apis],
      [files.workers, ctx.workers],
    ] as const) {
      fs.writeFileSync(`${file}.tmp`, fileSdTargets(list.map((p) => local(p.metricsPort))));
      fs.renameSync(`${file}.tmp`, file);
    }
  };
  return { files, write };
}

/** 7. Prometheus scraping every process, with the alert rules of deploy/prometheus. */
export async function startPrometheus(ctx: ClusterContext): Promise<void> {
  const { opts, logs, temporal } = ctx;
  const promPort = opts.prometheusPort ?? (await freePort());
  const promDir = path.join(ctx.dir, 'prometheus');
  fs.mkdirSync(promDir, { recursive: true });
  const promConf = path.join(promDir, 'prometheus.yml');
  const targets = targetFiles(ctx, promDir);
  ctx.writeTargets = targets.write;
  targets.write();
  fs.writeFileSync(
    promConf,
    prometheusConfig({
      interval: opts.scrapeInterval ?? '5s',
      apis: { file: targets.files.apis },
      workers: { file: targets.files.workers },
      temporal: temporal ? local(ctx.temporalMetricsPort) : null,
      nginx: local(ctx.exporterPort),
      ruleFiles: [path.join(ROOT, 'deploy/prometheus/rules.yml')],
    }),
  );
  const prometheus = spawnLogged(
    ctx.programs.prometheus,
    [
      `--config.file=${promConf}`,
      `--storage.tsdb.path=${path.join(promDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${promPort}`,
      '--storage.tsdb.retention.time=1d',
    ],
    process.env,
    path.join(logs, 'prometheus.log'),
  );
  ctx.supervisor.children.add(prometheus);
  ctx.supervisor.addStop('Prometheus', () => stopProcess(prometheus, 'SIGTERM', 10_000));
  ctx.prometheusUrl = `http://127.0.0.1:${promPort}`;
  await until('Prometheus', () => answers(`${ctx.prometheusUrl}/-/ready`), {
    timeoutMs: 60_000,
    failed: () => (exited(prometheus) ? tail(path.join(logs, 'prometheus.log')) : null),
  });
  ctx.log(
    `Prometheus at ${ctx.prometheusUrl} (${ctx.apis.length + ctx.workers.length + (temporal ? 2 : 1)} targets, rules of deploy/prometheus)`,
  );
}
