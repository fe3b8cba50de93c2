import type { ChildProcess } from 'node:child_process';
import type { Config } from '#lib/config';
import type { DemoFair } from '#apps/demo/src/demo-data';
import type { openServices } from '#apps/ops/src/services';
import type { RunningPostgres } from '../postgres-server';
import type { RunningDevServer } from '../temporal-server';
import type { TemporalOnPostgres } from '../temporal-postgres';
import type { Step } from '../steps';
import type { clusterPrograms } from './programs';
import type { ClusterSupervisor } from './supervision';
import type { Cluster, ClusterOptions, ClusterProcess } from './types';

/** One cluster's start-up: what the steps have found and started so far, each field set by the step named. */
export class ClusterContext {
  readonly log: (line: string) => void;
  readonly nApis: number;
  readonly nWorkers: number;
  constructor(
    readonly opts: ClusterOptions,
    readonly programs: ReturnType<typeof clusterPrograms>,
    /** The run folder and its logs/. */
    readonly dir: string,
    readonly logs: string,
    readonly supervisor: ClusterSupervisor,
  ) {
    this.log = opts.log;
    this.nApis = opts.apis ?? 2;
    this.nWorkers = opts.workers ?? 2;
  }
  /** load balancer port: where every public URL goes. */
  lbPort!: number;
  base!: string;
  /** compiled build */
  dist!: string;
  /** Temporal: its server's metrics port (used when the cluster runs the server on PostgreSQL). */
  temporalMetricsPort!: number;
  temporal: TemporalOnPostgres | null = null;
  devServer: RunningDevServer | null = null;
  temporalAddress!: string;
  /** app PostgreSQL */
  appPg!: RunningPostgres;
  databaseUrl!: string;
  /** trace store: the OTLP endpoint every API and worker exports to (none: no traces). */
  otlp: string | undefined;
  traceQueryUrl: string | null = null;
  /** environment: every API's and worker's, and the configuration it makes. */
  env!: Record<string, string>;
  config!: Config;
  /** demo seeding (null without the demo): closed once, after the demo is live or by stop(). */
  seeding: { services: ReturnType<typeof openServices>['services']; close: () => Promise<void> } | null = null;
  demoFair: DemoFair | null = null;
  /** APIs and workers: started and stopped with the cluster, added and removed while it runs. */
  readonly apis: ClusterProcess[] = [];
  readonly workers: ClusterProcess[] = [];
  workersStarted = 0;
  /** A new API or worker process (started, not yet ready) and how to wait for its first readiness. */
  makeProcess!: (
    kind: 'api' | 'worker',
    name: string,
    o?: { dist?: string; env?: Record<string, string> },
  ) => Promise<{ process: ClusterProcess; firstReady: () => Promise<void> }>;
  /** load balancer */
  nginx!: { child: ChildProcess; dir: string; configFile: string; statusPort: number };
  /** The APIs out of rotation (their /readyz failing). */
  readonly down = new Set<string>();
  /** Rewrites nginx's config from `apis` and `down` and reloads it. */
  reloadNginx!: () => void;
  /** nginx's exporter's port. */
  exporterPort!: number;
  /** Prometheus */
  prometheusUrl!: string;
  /** Rewrites the APIs' and workers' scrape targets. */
  writeTargets!: () => void;
  /** demo live */
  demo: Cluster['demo'] = null;
}

export type ClusterStep = Step<ClusterContext>;
