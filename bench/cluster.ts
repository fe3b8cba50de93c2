/**
 * `npm run bench -- --cluster [--quick] [--no-build]`: the table's most important rows on the
 * production shape (`startCluster`, dev/cluster.ts; `npm run cluster` runs the same): the real
 * Temporal server on its own PostgreSQL with 4 history shards, the app's PostgreSQL, 2 compiled
 * APIs behind nginx (load balancer and edge cache) and 2 compiled workers. Each row is measured by
 * the same code as its dev-server row, in the same format, beside its ceiling from the same run:
 *
 * - matching: slot freed → offer (bench/support/slot-to-offer.ts), the cluster's workers matching;
 * - webhooks: deliveries/s and commit → first attempt (bench/webhooks.ts `measureWebhooks`), the
 *   emitter in this process, the cluster's workers delivering (woken by the NOTIFY at commit);
 * - queue: POST /queue/join through the load balancer against a bare update-with-start on the same
 *   Temporal (bench/support/joins.ts);
 * - discovery: through the edge and straight to one API against the bare route (bench/support/cluster-discovery.ts);
 * - memory: each process of the cluster after the run.
 *
 * In that order: matching first, while no other event has room (its seekers wait for any event);
 * discovery's data set last. The cluster runs without its trace store (the dev-server rows run
 * untraced too). Writes bench/results/cluster-<time>.{md,json}.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { startCluster, type Cluster } from '#dev/cluster';
import { loadConfig } from '#lib/config';
import { createKnex } from '#db/knex';
import { buildApp } from '#apps/api/src/app';
import { createServices } from '#apps/api/src/services';
import { clusterDiscoveryRows, DISCOVERY_CONNECTIONS, DISCOVERY_ROUNDS } from './support/cluster-discovery';
import { measureWebhooks, parseArgs as webhookArgs, startReceiver, type Say } from './webhooks';
import { SLOT_MATCH_ENV, measureSlotToOffer } from './support/slot-to-offer';
import { joinFirstSeekers, joinOver, joinRows, joinSamples, seedSeekers, seekersFor } from './support/joins';
import { markdown, machineHeader, matchingRows, webhookRows, type Row } from './support/table';
import { loadavg, pssMiB, rssMiB, ROOT } from './support/infra';
import { postgresPids, withChildren } from './support/cpu';
import { runMain, Teardown } from './support/runner';

const quick = process.argv.includes('--quick');
const log = (l: string) => console.log(`[bench:cluster] ${l}`);

/** Slot freed → offer with the cluster's workers matching; the app in this process joins and declines. */
async function matchingOnCluster(c: Cluster, temporal: Client): Promise<Row[]> {
  const config = loadConfig({}, { ...c.env, PORT: '0', LOG_LEVEL: 'silent', DATABASE_POOL_MAX: '20' });
  const knex = createKnex(c.databaseUrl, config.DATABASE_POOL_MAX);
  const app = await buildApp({ config, knex, temporal, logger: false });
  try {
    const slot = await measureSlotToOffer({ config, knex, temporal, app }, { samples: quick ? 8 : 30, log });
    for (const n of slot.notes) log(n);
    return matchingRows({ slotToOfferMs: slot, rounds: [] }, '');
  } finally {
    await app.close();
    await knex.destroy();
  }
}

/** The webhook bench's phases on the cluster: its receiver and emitter here, its deliveries by the cluster's workers. */
async function webhooksOnCluster(c: Cluster, temporal: Client): Promise<Row[]> {
  const o = webhookArgs(quick ? ['--quick'] : []);
  const say: Say = (l) => log(`webhooks: ${l}`);
  const config = loadConfig({}, { ...c.env, LOG_LEVEL: 'silent', DATABASE_POOL_MAX: '20' });
  const teardown = new Teardown();
  try {
    const knex = createKnex(c.databaseUrl, config.DATABASE_POOL_MAX);
    teardown.add(() => knex.destroy());
    const secrets = new Map<string, string>();
    const rx = await startReceiver(secrets);
    teardown.add(() => rx.close());
    const { result, failed } = await measureWebhooks(
      {
        o,
        say,
        temporalServer: `Temporal ${c.temporal?.version ?? 'external server'} (the cluster's)`,
        workers: `the cluster's ${c.workers.length} worker processes`,
        temporalAddress: c.temporalAddress,
        config,
        knex,
        temporal,
        rx,
        secrets,
        services: createServices({ knex, temporal, config }),
      },
      teardown,
    );
    for (const n of result.notes) log(`webhooks: ${n}`);
    if (failed) throw new Error('webhooks on the cluster: lost, duplicated, badly signed or unrecorded deliveries');
    return webhookRows(result, '');
  } finally {
    await teardown.run();
  }
}

/** POST /queue/join through the load balancer, against a bare update-with-start on the cluster's Temporal. */
async function joinsOnCluster(c: Cluster): Promise<Row[]> {
  const joins = { rounds: 3, samples: joinSamples(quick), log };
  const knex = createKnex(c.databaseUrl, 10);
  try {
    const { seekers, holdSlug } = await seedSeekers(knex, c.env, seekersFor(joins), log);
    const target = { temporalAddress: c.temporalAddress, seekers, joinHttp: joinOver(c.base, holdSlug) };
    await joinFirstSeekers(target);
    const rows = await joinRows(target, joins);
    return rows.map((r) => ({ ...r, name: r.name.replace('POST /queue/join', 'POST /queue/join through nginx') }));
  } finally {
    await knex.destroy();
  }
}

/** RSS of each Node and Temporal process; PSS (shared pages once) of nginx, Prometheus and each PostgreSQL with its children. */
function memoryOnCluster(c: Cluster): Row[] {
  const row = (name: string, mib: number, note = ''): Row => ({
    section: 'memory',
    name,
    unit: 'MiB',
    ours: mib,
    ceiling: null,
    ratio: null,
    note,
  });
  const byArg = (arg: string) =>
    fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number)
      .filter((p) => {
        try {
          return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(arg);
        } catch {
          return false;
        }
      });
  const pgNote = 'PSS of the postmaster and its children (shared buffers counted once)';
  const rows = [
    ...c.apis.map((a) => row(`${a.name} RSS after the run (compiled, the image's Node flags)`, rssMiB(a.child.pid))),
    ...c.workers.map((w) =>
      row(`${w.name} RSS after the run (compiled, prebuilt workflow bundle)`, rssMiB(w.child.pid)),
    ),
    row('Temporal server RSS after the run', rssMiB(c.temporal?.pid), 'history cache bounded in bytes'),
    row(
      "Temporal's PostgreSQL after the run",
      c.temporal ? pssMiB(postgresPids(c.temporal.postgresDataDir)) : NaN,
      pgNote,
    ),
    row("the app's PostgreSQL after the run", pssMiB(postgresPids(c.appPg.dataDir)), pgNote),
    row(
      'nginx after the run',
      c.nginx.pid ? pssMiB(withChildren(c.nginx.pid)) : NaN,
      'PSS of the master and its workers',
    ),
    row('Prometheus after the run', pssMiB(byArg(`--config.file=${path.join(c.dir, 'prometheus')}`)), 'PSS'),
  ];
  return rows;
}

export async function clusterMain(): Promise<void> {
  const t0 = Date.now();
  const loadStart = loadavg();
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const distDir = path.join(ROOT, 'dist', 'cluster');
  const reuse = fs.existsSync(path.join(distDir, 'workflow-bundle.js')) && process.argv.includes('--no-build');
  let cluster: Cluster | null = null;
  const rows: Row[] = [];
  try {
    cluster = await startCluster({
      log,
      demo: false,
      traces: false,
      dist: reuse ? distDir : undefined,
      env: {
        // One client address makes every request: the limiter would measure itself.
        RATE_LIMIT_PUBLIC_PER_MIN: '100000000',
        RATE_LIMIT_READ_PER_MIN: '100000000',
        RATE_LIMIT_WRITE_PER_MIN: '100000000',
        QUEUE_ENTRY_TTL_MS: String(6 * 60 * 60 * 1000),
        ...SLOT_MATCH_ENV,
      },
    });
    const connection = await Connection.connect({ address: cluster.temporalAddress });
    try {
      const temporal = new Client({ connection, namespace: cluster.config.TEMPORAL_NAMESPACE });
      rows.push(...(await matchingOnCluster(cluster, temporal)));
      rows.push(...(await webhooksOnCluster(cluster, temporal)));
    } finally {
      await connection.close();
    }
    rows.push(...(await joinsOnCluster(cluster)));
    rows.push(...(await clusterDiscoveryRows(cluster, { quick, log })));
    rows.push(...memoryOnCluster(cluster));

    const h = {
      ...machineHeader(ROOT),
      temporal: `${cluster.temporal?.version ?? 'external server'}, 4 history shards`,
      mode: quick ? 'quick' : 'full',
      shape:
        `the production shape (\`npm run cluster\`): the real Temporal server on PostgreSQL (4 shards), the app's ` +
        `PostgreSQL, ${cluster.apis.length} compiled APIs behind nginx (load balancer and edge cache), ` +
        `${cluster.workers.length} compiled workers, Prometheus scraping every 5 s; no trace store`,
      loadStart,
      loadEnd: loadavg(),
      date: new Date().toISOString(),
      rounds: DISCOVERY_ROUNDS,
      connections: DISCOVERY_CONNECTIONS,
    };
    const md = markdown(h, rows);
    console.log(`\n${md}\n`);
    const dir = path.join(ROOT, 'bench', 'results');
    fs.mkdirSync(dir, { recursive: true });
    const stamp = h.date.replace(/[:.]/g, '-');
    fs.writeFileSync(path.join(dir, `cluster-${stamp}.md`), `${md}\n`);
    const seconds = ((Date.now() - t0) / 1000).toFixed(0);
    fs.writeFileSync(
      path.join(dir, `cluster-${stamp}.json`),
      `${JSON.stringify({ header: { ...h, seconds }, rows }, null, 2)}\n`,
    );
    log(`written to bench/results/cluster-${stamp}.{md,json} in ${seconds} s`);
  } finally {
    await cluster?.stop();
  }
}

runMain(clusterMain, module);
