import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startCluster, type Cluster } from '../dev/cluster';
import { freePort } from '../dev/ports';
import { stopProcess } from '../lib/supervision';
import { createKnex } from '../db/knex';
import { seed, searchPaths } from './discovery';
import { load, type LoadResult } from './support/load';
import { loadavg, ROOT } from './support/infra';
import { median } from './support/stats';

/**
 * `npm run bench -- --cluster [--quick]`: the discovery rows on the production shape
 * (`startCluster`, dev/cluster.ts): the same data set as the table's discovery rows (1,000 events,
 * 100,000 jobs; `--quick` 10,000 jobs), the same request mixes, three ways each, interleaved:
 *
 * - through the load balancer, where nginx's edge cache answers repeated questions itself;
 * - straight to one API (no nginx; the API's own short cache, as the dev-server table's "cached" row);
 * - the bare Fastify route answering a same-size body (the table's ceiling).
 *
 * The cluster runs without its trace store (tracing costs every request a span; the dev-server rows
 * run untraced too). This is a subset of the table on this shape: joins, webhooks, matching and
 * memory on the cluster are not measured here.
 */
const quick = process.argv.includes('--quick');
const ROUNDS = 3;
const CONNECTIONS = 50;
const DURATION_S = quick ? 1 : 4;
const log = (l: string) => console.log(`[bench:cluster] ${l}`);

interface Way {
  name: string;
  base: string;
  paths: (sc: Scenario) => string[];
}
interface Scenario {
  key: string;
  name: string;
  paths: string[];
}

async function medianBody(base: string, paths: string[]): Promise<unknown> {
  const bodies = await Promise.all(paths.slice(0, 40).map(async (p) => (await fetch(base + p)).text()));
  bodies.sort((a, b) => a.length - b.length);
  return JSON.parse(bodies[Math.floor(bodies.length / 2)]);
}

/** How the edge answered the second of two identical requests for a sample of the paths. */
async function edgeHits(base: string, paths: string[]): Promise<string> {
  let hits = 0;
  const sample = paths.slice(0, 20);
  for (const p of sample) {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(base + p);
      await res.arrayBuffer();
      if (i === 1 && res.headers.get('x-cache-status') === 'HIT') hits++;
    }
  }
  return `${hits}/${sample.length}`;
}

export async function clusterDiscoveryMain(): Promise<void> {
  const t0 = Date.now();
  const loadStart = loadavg();
  const distDir = path.join(ROOT, 'dist', 'cluster');
  const reuse = fs.existsSync(path.join(distDir, 'workflow-bundle.js')) && process.argv.includes('--no-build');
  let cluster: Cluster | null = null;
  let ceiling: ChildProcess | null = null;
  try {
    cluster = await startCluster({
      log,
      demo: false,
      traces: false,
      dist: reuse ? distDir : undefined,
      // One client address makes every request: the limiter would measure itself.
      env: { RATE_LIMIT_PUBLIC_PER_MIN: '100000000', RATE_LIMIT_READ_PER_MIN: '100000000' },
    });
    const jobs = quick ? 10_000 : 100_000;
    const knex = createKnex(cluster.databaseUrl, 4);
    const ts = Date.now();
    try {
      await seed(knex, { events: 1000, jobs });
    } finally {
      await knex.destroy();
    }
    log(`seeded 1,000 events and ${jobs.toLocaleString('en')} jobs in ${((Date.now() - ts) / 1000).toFixed(1)} s`);

    const api1 = `http://127.0.0.1:${cluster.apis[0].port}`;
    const scenarios: Scenario[] = [
      { key: 'live-now', name: 'GET /live-events/live-now', paths: ['/api/v1/live-events/live-now'] },
      {
        key: 'jobs-search',
        name: 'GET /jobs/search (skills, 160 distinct)',
        paths: searchPaths(200).filter((p) => p.includes('skills=')),
      },
    ];
    const bodies: Record<string, unknown> = {};
    for (const sc of scenarios) bodies[sc.key] = await medianBody(api1, sc.paths);
    const bodiesFile = path.join(cluster.dir, 'bodies.json');
    fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
    const ceilingPort = await freePort();
    ceiling = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/support/ceiling-server.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...cluster.env, PORT: String(ceilingPort), BENCH_BODIES_FILE: bodiesFile },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const ceilingBase = `http://127.0.0.1:${ceilingPort}`;
    for (const deadline = Date.now() + 60_000; ;) {
      const ok = await fetch(`${ceilingBase}/bare/live-now`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error('the ceiling server did not answer within 60 s');
      await new Promise((r) => setTimeout(r, 250));
    }

    const ways: Way[] = [
      { name: 'edge (nginx cache)', base: cluster.base, paths: (sc) => sc.paths },
      { name: 'one API, no edge', base: api1, paths: (sc) => sc.paths },
      { name: 'bare route', base: ceilingBase, paths: (sc) => [`/bare/${sc.key}`] },
    ];
    const run = (w: Way, sc: Scenario) =>
      load({ url: w.base, paths: w.paths(sc), connections: CONNECTIONS, durationS: DURATION_S });
    const results = new Map<string, LoadResult[]>();
    const hits: Record<string, string> = {};
    for (const sc of scenarios) {
      for (const w of ways) await run(w, sc); // warm-up: JIT, pools, both caches
      hits[sc.key] = await edgeHits(cluster.base, sc.paths);
      for (let r = 0; r < ROUNDS; r++)
        for (const w of ways) {
          const res = await run(w, sc);
          const k = `${sc.key}|${w.name}`;
          results.set(k, [...(results.get(k) ?? []), res]);
          log(
            `round ${r + 1} ${sc.name} via ${w.name}: ${res.rps.toFixed(0)} req/s, p99 ${res.p99} ms` +
              `${res.errors + res.non2xx ? `, ${res.errors + res.non2xx} failed` : ''}`,
          );
        }
    }

    const lines = [
      `# Discovery on the cluster (npm run bench -- --cluster${quick ? ' --quick' : ''})`,
      '',
      `${new Date().toISOString()}; ${cluster.apis.length} APIs and ${cluster.workers.length} workers behind nginx, ` +
        `Temporal on PostgreSQL; 1,000 events, ${jobs.toLocaleString('en')} jobs; ${CONNECTIONS} connections, ` +
        `${ROUNDS} rounds of ${DURATION_S} s (medians); load average ${loadStart} → ${loadavg()}`,
      '',
      '| Scenario | Way | req/s | p50 ms | p99 ms | ÷ bare route | failed | note |',
      '|---|---|---:|---:|---:|---:|---:|---|',
    ];
    const json: Array<Record<string, unknown>> = [];
    for (const sc of scenarios) {
      const bare = median(results.get(`${sc.key}|bare route`)!.map((x) => x.rps));
      for (const w of ways) {
        const xs = results.get(`${sc.key}|${w.name}`)!;
        const row = {
          scenario: sc.name,
          way: w.name,
          rps: median(xs.map((x) => x.rps)),
          p50: median(xs.map((x) => x.p50)),
          p99: median(xs.map((x) => x.p99)),
          failed: xs.reduce((n, x) => n + x.errors + x.non2xx, 0),
        };
        json.push(row);
        const note = w.base === cluster.base ? `edge HIT on the 2nd request for ${hits[sc.key]} sampled paths` : '';
        lines.push(
          `| ${sc.name} | ${w.name} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ` +
            `${(row.rps / bare).toFixed(2)}× | ${row.failed} | ${note} |`,
        );
      }
    }
    const table = lines.join('\n');
    console.log(`\n${table}\n`);
    const dir = path.join(ROOT, 'bench', 'results');
    fs.mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    fs.writeFileSync(path.join(dir, `cluster-${stamp}.md`), `${table}\n`);
    fs.writeFileSync(path.join(dir, `cluster-${stamp}.json`), JSON.stringify({ loadStart, rows: json }, null, 2));
    log(`written to bench/results/cluster-${stamp}.{md,json} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  } finally {
    if (ceiling) await stopProcess(ceiling, 'SIGTERM', 5000);
    await cluster?.stop();
  }
}
