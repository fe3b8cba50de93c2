import type { ChildProcess } from 'node:child_process';
import type { Config } from '#lib/config';
import type { DemoFair } from '#apps/demo/src/demo-data';
import type { startDemoWebhookReceiver } from '#apps/demo/src/demo-webhooks';
import type { RunningPostgres } from '../postgres-server';
import type { RunningDevServer } from '../temporal-server';
import type { TemporalOnPostgres } from '../temporal-postgres';

export interface ClusterOptions {
  log: (line: string) => void;
  /** Run folder (logs, data, generated configs); default a fresh temporary one, removed by stop() unless `keep`. */
  dir?: string;
  keep?: boolean;
  apis?: number;
  workers?: number;
  /** Temporal history shards (fixed for the life of its database). Default 4. */
  historyShards?: number;
  /** The load balancer's port (default: a free one). */
  port?: number;
  /** Prometheus's port (default: a free one). */
  prometheusPort?: number;
  /** Prometheus scrape and rule interval (default "5s"). */
  scrapeInterval?: string;
  /**
   * An external Temporal (host:port, namespace `default`) instead of the server on PostgreSQL that
   * the cluster builds and runs: a machine without Go 1.25, or a cluster of one's own.
   */
  temporalAddress?: string;
  /**
   * Run the Temporal CLI's dev server (in memory) instead of the server on PostgreSQL: a stand-in
   * for a machine where the server's build is not in the cache (the cluster test); no Temporal
   * server metrics then. Ignored with `temporalAddress`.
   */
  temporalDevServer?: boolean;
  /** A compiled build to run (the output of `npm run build:dist`); default: built now into dist/cluster. */
  dist?: string;
  /** Extra environment of every API and worker (after the cluster's own). */
  env?: Record<string, string>;
  /**
   * A trace store's OTLP endpoint: passed to every API and worker as OTEL_EXPORTER_OTLP_ENDPOINT
   * (with OTEL_SERVICE_NAME jobfair-api / jobfair-worker). Default: the supervisor's own
   * OTEL_EXPORTER_OTLP_ENDPOINT, if set; else the cluster's own trace store (see `traces`).
   */
  otlpEndpoint?: string;
  /**
   * Run the trace store (Jaeger in memory, built once into the cache; decision 0263) and point
   * every API and worker at it, unless an OTLP endpoint is given. Default true; false: no traces.
   */
  traces?: boolean;
  /**
   * A trace store of the caller's (OTLP in, Jaeger's query API out; e.g. the tests' in-process
   * receiver): every API and worker exports to it, the check reads it; the caller stops it.
   */
  traceStore?: { otlpUrl: string; queryUrl: string };
  /**
   * Aborting stops the cluster, also during start-up: what started so far is stopped, and
   * `startCluster` rejects (a test's time limit, a Ctrl-C).
   */
  signal?: AbortSignal;
  /** Seed the demo fair and its webhook receiver as `npm start` does (default true). */
  demo?: boolean;
  /** How often the supervisor checks each API's /readyz for the load balancer (default 1000 ms). */
  healthEveryMs?: number;
}

export interface ClusterProcess {
  name: string;
  kind: 'api' | 'worker';
  /** The public port (APIs only). */
  port: number | null;
  metricsPort: number;
  logFile: string;
  child: ChildProcess;
  /**
   * Starts it again (same ports, same log file, appended) and waits until it is ready; `dist`: from
   * another compiled build (a rolling deploy's next version), which later restarts keep.
   */
  restart: (opts?: { dist?: string }) => Promise<void>;
}

export interface Cluster {
  dir: string;
  /** The load balancer: every public URL goes through it. */
  base: string;
  prometheusUrl: string;
  apis: ClusterProcess[];
  workers: ClusterProcess[];
  /** The Temporal server the cluster runs (null with an external `temporalAddress` or the dev server). */
  temporal: TemporalOnPostgres | null;
  /** The dev server standing in for it (`temporalDevServer`), else null. */
  temporalDevServer: RunningDevServer | null;
  temporalAddress: string;
  appPg: RunningPostgres;
  databaseUrl: string;
  /** The cluster's trace store (Jaeger's query API: /api/traces/<id>); null when it runs none. */
  traceQueryUrl: string | null;
  /** The configuration the processes were given (as `loadConfig` reads their environment). */
  config: Config;
  env: Record<string, string>;
  nginx: { pid: number | undefined; configFile: string; accessLog: string };
  demo: (DemoFair & { receiver: Awaited<ReturnType<typeof startDemoWebhookReceiver>> | null }) | null;
  /** Which APIs the load balancer sends traffic to right now (by name). */
  inRotation: () => string[];
  /**
   * Starts one more worker (`worker-N`, its log in logs/, a metrics port of its own) from `dist`
   * (default the cluster's build) with `env` over the cluster's, and resolves once it polls; from
   * then on it is in `workers`, scraped by Prometheus and stopped with the cluster.
   */
  addWorker: (opts?: { dist?: string; env?: Record<string, string> }) => Promise<ClusterProcess>;
  /**
   * Retires a process for good: out of Prometheus's targets (and the load balancer, for an API)
   * first, then stopped (SIGTERM, 35 s grace) unless it has exited, and dropped from `apis` / `workers`.
   */
  removeProcess: (p: ClusterProcess) => Promise<void>;
  stop: () => Promise<void>;
}
