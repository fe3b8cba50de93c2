import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Cluster } from '#dev/cluster';
import { freePort } from '#dev/ports';
import { stopProcess } from '#lib/supervision';
import { createKnex } from '#db/knex';
import { seed, searchPaths } from '../discovery';
import { load, type LoadResult } from './load';
import { ROOT } from './infra';
import { median } from './stats';
import type { Row } from './table';

/**
 * The discovery rows on the production shape (bench/cluster.ts, `npm run bench -- --cluster`):
 * the same data set as the table's discovery rows (1,000 events, 100,000 jobs; `--quick` 10,000
 * jobs), the same request mixes, three ways each, interleaved:
 *
 * - through the load balancer, where nginx's edge cache answers repeated questions itself;
 * - straight to one API (no nginx; the API's own short cache, as the dev-server table's "cached" row);
 * - the bare Fastify route answering a same-size body (the table's ceiling).
 */
export const DISCOVERY_ROUNDS = 3;
export const DISCOVERY_CONNECTIONS = 50;

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

/** The ceiling process (bench/support/ceiling-server.ts) answering the median-size bodies of one API. */
async function startCeiling(
  cluster: Cluster,
  api1: string,
  scenarios: Scenario[],
): Promise<{ child: ChildProcess; base: string }> {
  const bodies: Record<string, unknown> = {};
  for (const sc of scenarios) bodies[sc.key] = await medianBody(api1, sc.paths);
  const bodiesFile = path.join(cluster.dir, 'bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
  const ceilingPort = await freePort();
  const ceiling = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/support/ceiling-server.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...cluster.env, PORT: String(ceilingPort), BENCH_BODIES_FILE: bodiesFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (const deadline = Date.now() + 60_000; ;) {
    const base = `http://127.0.0.1:${ceilingPort}`;
    const ok = await fetch(`${base}/bare/live-now`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child: ceiling, base };
    if (Date.now() > deadline) {
      await stopProcess(ceiling, 'SIGTERM', 5000);
      throw new Error('the ceiling server did not answer within 60 s');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Seeds the discovery data set into the cluster's database, then measures each scenario through
 * the edge and straight to one API, each beside the bare route in the same rounds.
 */
export async function clusterDiscoveryRows(
  cluster: Cluster,
  o: { quick: boolean; log: (line: string) => void },
): Promise<Row[]> {
  const durationS = o.quick ? 1 : 4;
  const jobs = o.quick ? 10_000 : 100_000;
  const knex = createKnex(cluster.databaseUrl, 4);
  const ts = Date.now();
  try {
    await seed(knex, { events: 1000, jobs });
  } finally {
    await knex.destroy();
  }
  o.log(`seeded 1,000 events and ${jobs.toLocaleString('en')} jobs in ${((Date.now() - ts) / 1000).toFixed(1)} s`);

  const api1 = `http://127.0.0.1:${cluster.apis[0].port}`;
  const scenarios: Scenario[] = [
    { key: 'live-now', name: 'GET /live-events/live-now', paths: ['/api/v1/live-events/live-now'] },
    {
      key: 'jobs-search',
      name: 'GET /jobs/search (skills, 160 distinct)',
      paths: searchPaths(200).filter((p) => p.includes('skills=')),
    },
  ];
  const ceiling = await startCeiling(cluster, api1, scenarios);
  try {
    const ways: Way[] = [
      { name: 'edge (nginx cache)', base: cluster.base, paths: (sc) => sc.paths },
      { name: 'one API, no edge', base: api1, paths: (sc) => sc.paths },
      { name: 'bare route', base: ceiling.base, paths: (sc) => [`/bare/${sc.key}`] },
    ];
    const run = (w: Way, sc: Scenario) =>
      load({ url: w.base, paths: w.paths(sc), connections: DISCOVERY_CONNECTIONS, durationS });
    const results = new Map<string, LoadResult[]>();
    const hits: Record<string, string> = {};
    for (const sc of scenarios) {
      for (const w of ways) await run(w, sc); // warm-up: JIT, pools, both caches
      hits[sc.key] = await edgeHits(cluster.base, sc.paths);
      for (let r = 0; r < DISCOVERY_ROUNDS; r++)
        for (const w of ways) {
          const res = await run(w, sc);
          const k = `${sc.key}|${w.name}`;
          results.set(k, [...(results.get(k) ?? []), res]);
          o.log(
            `round ${r + 1} ${sc.name} via ${w.name}: ${res.rps.toFixed(0)} req/s, p99 ${res.p99} ms` +
              `${res.errors + res.non2xx ? `, ${res.errors + res.non2xx} failed` : ''}`,
          );
        }
    }
    const med = (xs: LoadResult[], k: 'rps' | 'p50' | 'p99') => median(xs.map((x) => x[k]));
    const rows: Row[] = [];
    for (const sc of scenarios) {
      const bare = results.get(`${sc.key}|bare route`)!;
      for (const w of ways.slice(0, 2)) {
        const xs = results.get(`${sc.key}|${w.name}`)!;
        const failed = xs.reduce((n, x) => n + x.errors + x.non2xx, 0);
        rows.push({
          section: 'discovery',
          name: `${sc.name} via ${w.name} vs bare route`,
          unit: 'req/s',
          ours: med(xs, 'rps'),
          ceiling: med(bare, 'rps'),
          ratio: med(xs, 'rps') / med(bare, 'rps'),
          oursP50: med(xs, 'p50'),
          oursP99: med(xs, 'p99'),
          ceilingP50: med(bare, 'p50'),
          ceilingP99: med(bare, 'p99'),
          note:
            `${w.base === cluster.base ? `edge HIT on the 2nd request for ${hits[sc.key]} sampled paths; ` : ''}` +
            `${failed} failed; ${jobs.toLocaleString('en')} jobs`,
        });
      }
    }
    return rows;
  } finally {
    await stopProcess(ceiling.child, 'SIGTERM', 5000);
  }
}
