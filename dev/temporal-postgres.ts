/**
 * A real Temporal server persisting to PostgreSQL, for the benches (`--temporal-postgres`; decision
 * 0220) and the production-shaped cluster of `npm run cluster` (decision 0262). The dev server of `npm start` and the tests (the CLI's `server start-dev`) only
 * does SQLite; production runs Temporal on PostgreSQL, MySQL or Cassandra. This brings up:
 *
 * 1. the Temporal server and its SQL schema tool, built once per machine with `go install` into the
 *    cache (same server version as the CLI's, so both rows run the same server code; the build runs
 *    at nice 19, one package at a time — dev/go-install.ts), then reused;
 * 2. its own embedded PostgreSQL (throw-away data dir, free port, fsync on), separate from the
 *    app's database as in production;
 * 3. the `temporal` and `temporal_visibility` databases and schemas with the schema tool, from the
 *    schemas embedded in the tool (`postgresql/v12/temporal`, `postgresql/v12/visibility`);
 * 4. a minimal config (PostgreSQL persistence through the `postgres12` plugin, one cluster, every
 *    port free, no pprof) and the dev server's own settings (1 history shard, the same dynamic config
 *    values), so that persistence is the difference between the two bench rows; the cluster asks for
 *    more history shards and the server's Prometheus metrics (`historyShards`, `metricsPort`);
 * 5. the namespace, registered through the frontend, and our search attributes.
 *
 * Nothing is downloaded at run time except what `go install` fetches through the Go module proxy on
 * the very first build.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { cachedGoBinaryPath, goInstallCached, type GoInstallSpec } from './go-install';
import { startPostgres, type RunningPostgres } from './postgres-server';
import { freePort } from './ports';
import { registerSearchAttributes } from './temporal-server';

/** The server the CLI v1.5.1 embeds (`go version -m` on the cached CLI: go.temporal.io/server v1.29.1). */
export const TEMPORAL_SERVER_VERSION = 'v1.29.1';

/** Measured: 637 packages compiled, 11.5 min at nice 19 / -p=1 on 2 shared cores (load ~8), the Go build cache warm from the CLI's build. */
export const TEMPORAL_SERVER_SPEC: GoInstallSpec = {
  module: 'go.temporal.io/server/cmd/server',
  version: TEMPORAL_SERVER_VERSION,
  tool: 'temporal-server',
  binary: 'server',
  minGo: [1, 25],
  packages: 640,
  expect: 'about 640 Go packages at nice 19, one at a time: 10–15 minutes on 2 busy cores with a warm Go build cache',
  lowPriority: true,
};

export const TEMPORAL_SQL_TOOL_SPEC: GoInstallSpec = {
  module: 'go.temporal.io/server/cmd/tools/sql',
  version: TEMPORAL_SERVER_VERSION,
  tool: 'temporal-sql-tool',
  binary: 'sql',
  minGo: [1, 25],
  packages: 10,
  expect: 'after the server: seconds, the rest is in the Go build cache',
  lowPriority: true,
};

/** The server and its schema tool when both are already built into the cache (nothing is built), else null. */
export function cachedTemporalServer(cacheDir: string): { server: string; sqlTool: string } | null {
  const [server, sqlTool] = [TEMPORAL_SERVER_SPEC, TEMPORAL_SQL_TOOL_SPEC].map((s) =>
    cachedGoBinaryPath(cacheDir, s.tool, s.version, s.binary),
  );
  return fs.existsSync(server) && fs.existsSync(sqlTool) ? { server, sqlTool } : null;
}

/** The server and its schema tool: the cached builds, or built now (once per machine). */
export async function temporalServerBinaries(opts: {
  cacheDir: string;
  log: (l: string) => void;
}): Promise<{ server: string; sqlTool: string }> {
  const server = await goInstallCached(TEMPORAL_SERVER_SPEC, opts);
  const sqlTool = await goInstallCached(TEMPORAL_SQL_TOOL_SPEC, opts);
  return { server: server.path, sqlTool: sqlTool.path };
}

/**
 * The dynamic config `temporal server start-dev` (CLI v1.5.1) applies by default
 * (temporalcli/commands.server.go, devserver/server.go), plus what dev/temporal-server.ts passes.
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, boolean | number>> = {
  'system.forceSearchAttributesCacheRefreshOnRead': true,
  'frontend.persistenceMaxQPS': 10000,
  'history.persistenceMaxQPS': 45000,
  'history.hostLevelCacheMaxSize': 8096,
  'frontend.namespaceRPS.visibility': 100,
  'frontend.enableServerVersionCheck': false,
};

/**
 * The history service keeps every workflow it touched in a host-level cache of mutable states
 * (server v1.29: up to `history.hostLevelCacheMaxSize` entries, 128,000 by default and 8,096 in the
 * dev server's settings; expired entries are only dropped when touched, since background eviction
 * is off by default). A server that keeps starting new workflows therefore grows until the entry
 * cap, which is hundreds of MB to GBs. The cluster bounds the cache in bytes instead and purges
 * expired entries in the background, as a production server's dynamic config should.
 */
export function boundedHistoryCache(maxBytes: number): Record<string, boolean | number | string | object> {
  return {
    'history.cacheSizeBasedLimit': true,
    'history.hostLevelCacheMaxSizeBytes': maxBytes,
    'history.cacheBackgroundEvict': { Enabled: true, LoopInterval: '1m', MaxEntryPerCall: 1024 },
  };
}

export interface ServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

export interface PostgresEndpoint {
  host: string;
  port: number;
  user: string;
  password: string;
}

type ConfigInput = {
  ports: ServerPorts;
  pg: PostgresEndpoint;
  dynamicConfigFile: string;
  historyShards?: number;
  logLevel?: string;
  /** The server's own Prometheus metrics on 127.0.0.1:<port>/metrics (histograms); none without. */
  metricsPort?: number;
};
const q = (s: string) => JSON.stringify(s); // a JSON string is a valid YAML scalar

/** The two SQL stores (history and visibility) on the one PostgreSQL. */
function persistenceYaml(p: ConfigInput): string[] {
  const store = (database: string, maxConns: number) => [
    `      sql:`,
    `        pluginName: "postgres12"`,
    `        databaseName: ${q(database)}`,
    `        connectAddr: ${q(`${p.pg.host}:${p.pg.port}`)}`,
    `        connectProtocol: "tcp"`,
    `        user: ${q(p.pg.user)}`,
    `        password: ${q(p.pg.password)}`,
    `        maxConns: ${maxConns}`,
    `        maxIdleConns: ${maxConns}`,
    `        maxConnLifetime: "1h"`,
  ];
  return [
    'persistence:',
    '  defaultStore: postgres-default',
    '  visibilityStore: postgres-visibility',
    `  numHistoryShards: ${p.historyShards ?? 1}`,
    '  datastores:',
    '    postgres-default:',
    ...store('temporal', 20),
    '    postgres-visibility:',
    ...store('temporal_visibility', 10),
  ];
}

/** The four services, each on its own loopback ports. */
function servicesYaml(ports: ServerPorts): string[] {
  const service = (grpc: number, membership: number, http?: number) => [
    `    rpc:`,
    `      grpcPort: ${grpc}`,
    `      membershipPort: ${membership}`,
    `      bindOnLocalHost: true`,
    ...(http ? [`      httpPort: ${http}`] : []),
  ];
  return [
    'services:',
    '  frontend:',
    ...service(ports.frontend, ports.frontendMembership, ports.frontendHttp),
    '  history:',
    ...service(ports.history, ports.historyMembership),
    '  matching:',
    ...service(ports.matching, ports.matchingMembership),
    '  worker:',
    ...service(ports.worker, ports.workerMembership),
  ];
}

/** One active cluster, archival off, the public client and the dynamic config file. */
function clusterYaml(p: ConfigInput): string[] {
  const frontend = `127.0.0.1:${p.ports.frontend}`;
  return [
    'clusterMetadata:',
    '  enableGlobalNamespace: false',
    '  failoverVersionIncrement: 10',
    '  masterClusterName: "active"',
    '  currentClusterName: "active"',
    '  clusterInformation:',
    '    active:',
    '      enabled: true',
    '      initialFailoverVersion: 1',
    '      rpcName: "frontend"',
    `      rpcAddress: ${q(frontend)}`,
    `      httpAddress: ${q(`127.0.0.1:${p.ports.frontendHttp}`)}`,
    'dcRedirectionPolicy:',
    '  policy: "noop"',
    'archival:',
    '  history:',
    '    state: "disabled"',
    '  visibility:',
    '    state: "disabled"',
    'namespaceDefaults:',
    '  archival:',
    '    history:',
    '      state: "disabled"',
    '    visibility:',
    '      state: "disabled"',
    'publicClient:',
    `  hostPort: ${q(frontend)}`,
    'dynamicConfigClient:',
    `  filepath: ${q(p.dynamicConfigFile)}`,
    '  pollInterval: "60s"',
  ];
}

/** The server's static config (`<root>/config/<env>.yaml`). Pure, so its shape is readable and testable. */
export function serverConfigYaml(p: ConfigInput): string {
  return [
    'log:',
    '  stdout: true',
    `  level: ${p.logLevel ?? 'warn'}`,
    ...persistenceYaml(p),
    'global:',
    ...(p.metricsPort
      ? [
          '  metrics:',
          '    prometheus:',
          '      timerType: "histogram"',
          `      listenAddress: ${q(`127.0.0.1:${p.metricsPort}`)}`,
        ]
      : []),
    // Go's pprof on loopback, for a heap profile of the server (debugging only; off unless asked).
    ...(process.env.TEMPORAL_PPROF_PORT ? ['  pprof:', `    port: ${Number(process.env.TEMPORAL_PPROF_PORT)}`] : []),
    '  membership:',
    '    maxJoinDuration: 30s',
    '    broadcastAddress: "127.0.0.1"',
    ...servicesYaml(p.ports),
    ...clusterYaml(p),
    '',
  ].join('\n');
}

export function dynamicConfigYaml(values: Readonly<Record<string, boolean | number | string | object>>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}:\n  - value: ${JSON.stringify(v)}\n    constraints: {}\n`)
    .join('');
}

/** True when `port` can be bound on 127.0.0.1 right now. */
function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * n distinct free loopback ports below 32768: the server stores each service's membership port in
 * `cluster_membership.rpc_port`, a PostgreSQL smallint, and the OS hands out ephemeral ports above
 * it (freePort() gave 41567 and the server died: "value is out of range for type smallint").
 */
async function freeLowPorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  for (let tries = 0; ports.size < n; tries++) {
    if (tries > 2000) throw new Error('no free loopback ports between 20000 and 32767');
    const p = 20000 + Math.floor(Math.random() * 12768);
    if (!ports.has(p) && (await canBind(p))) ports.add(p);
  }
  return [...ports];
}

/** `temporal-sql-tool` against one database; the password through the environment (SQL_PASSWORD), not argv. */
function sqlTool(tool: string, pg: PostgresEndpoint, database: string, args: string[]): void {
  const r = spawnSync(
    tool,
    [
      '--plugin',
      'postgres12',
      '--ep',
      pg.host,
      '--port',
      String(pg.port),
      '--user',
      pg.user,
      '--database',
      database,
      ...args,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, SQL_PASSWORD: pg.password },
    },
  );
  if (r.status !== 0)
    throw new Error(
      `temporal-sql-tool ${args[0]} on ${database} failed (exit ${r.status ?? r.signal}):\n${(r.stdout + r.stderr).slice(-3000)}`,
    );
}

/** Creates both databases (in a fresh PostgreSQL) and brings their schemas to the version this server expects. */
export function setupTemporalSchemas(tool: string, pg: PostgresEndpoint): void {
  for (const [database, schema] of [
    ['temporal', 'postgresql/v12/temporal'],
    ['temporal_visibility', 'postgresql/v12/visibility'],
  ] as const) {
    sqlTool(tool, pg, database, ['create-database']);
    sqlTool(tool, pg, database, ['setup-schema', '--version', '0.0']);
    sqlTool(tool, pg, database, ['update-schema', '--schema-name', schema]);
  }
}

export interface TemporalOnPostgres {
  address: string;
  version: string;
  /** The server's process id (the cluster's chaos kills it), and its PostgreSQL's port. */
  pid: number | undefined;
  postgresPort: number;
  /** The server's Prometheus endpoint (host:port), when `metricsPort` was asked for. */
  metricsAddress: string | null;
  /** The server's last output (for error messages). */
  output: () => string;
  /** The PostgreSQL Temporal persists to (for figures such as its size). */
  postgresUrl: (database?: string) => string;
  /** Its data folder (postmaster.pid names the server's process: the cluster's chaos kills it). */
  postgresDataDir: string;
  /**
   * Starts the server process again on the same database and ports (after it was killed, or
   * stopping it first) and waits until it is ready; `pid` then names the new process.
   */
  restartServer: () => Promise<void>;
  /** Starts Temporal's PostgreSQL again on the same data folder and port (after a kill -9: crash recovery). */
  restartPostgres: () => Promise<void>;
  /** Ends the server, then its PostgreSQL (whichever processes are current after restarts). */
  stop: () => Promise<void>;
}

/** Writes the server's config folder under `root` (every port free and below 32768). */
async function writeServerConfig(
  root: string,
  pg: PostgresEndpoint,
  extra: Pick<ConfigInput, 'historyShards' | 'metricsPort'> & { historyCacheMaxBytes?: number } = {},
): Promise<ServerPorts> {
  const names: Array<keyof ServerPorts> = [
    'frontend',
    'frontendHttp',
    'frontendMembership',
    'history',
    'historyMembership',
    'matching',
    'matchingMembership',
    'worker',
    'workerMembership',
  ];
  const free = await freeLowPorts(names.length);
  const ports = Object.fromEntries(names.map((n, i) => [n, free[i]])) as unknown as ServerPorts;
  fs.mkdirSync(path.join(root, 'config'), { recursive: true });
  const dynamicConfigFile = path.join(root, 'config', 'dynamic.yaml');
  const dynamic = extra.historyCacheMaxBytes
    ? { ...DEV_SERVER_DYNAMIC_CONFIG, ...boundedHistoryCache(extra.historyCacheMaxBytes) }
    : DEV_SERVER_DYNAMIC_CONFIG;
  fs.writeFileSync(dynamicConfigFile, dynamicConfigYaml(dynamic));
  fs.writeFileSync(
    path.join(root, 'config', 'bench.yaml'),
    serverConfigYaml({
      ports,
      pg,
      dynamicConfigFile,
      historyShards: extra.historyShards,
      metricsPort: extra.metricsPort,
    }),
  );
  return ports;
}

/** The server process, its last output kept for error messages; `stop` ends it (SIGKILL after 15 s). */
function spawnServer(
  server: string,
  root: string,
  ownProcessGroup = false,
): { pid: number | undefined; exited: () => boolean; output: () => string; stop: () => Promise<void> } {
  const child: ChildProcess = spawn(
    server,
    ['--root', root, '--config', 'config', '--env', 'bench', '--allow-no-auth', 'start'],
    {
      env: { ...process.env, TEMPORAL_VERSION_CHECK_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: ownProcessGroup,
    },
  );
  let output = '';
  let exited = false;
  child.stdout?.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr?.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.once('exit', () => (exited = true));
  const stop = async () => {
    if (exited) return;
    const done = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    await Promise.race([done, new Promise((r) => setTimeout(r, 15_000))]);
    if (!exited) child.kill('SIGKILL');
  };
  return { pid: child.pid, exited: () => exited, output: () => output, stop };
}

/**
 * Ready = the namespace is registered and usable through the frontend (its namespace registry
 * refreshes every few seconds, so a fresh namespace is polled until a visibility call passes).
 */
async function untilReady(
  address: string,
  namespace: string,
  proc: { exited: () => boolean; output: () => string },
): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exited()) throw new Error(`the Temporal server exited during start-up:\n${proc.output().slice(-3000)}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await registerNamespace(connection, namespace);
        await connection.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
        await registerSearchAttributes(connection, namespace);
      } finally {
        await connection.close();
      }
      return;
    } catch (e) {
      if (Date.now() > deadline)
        throw new Error(
          `the Temporal server did not become ready in 120 s: ${(e as Error).message}\n${proc.output().slice(-3000)}`,
        );
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * Builds or reuses the binaries, starts PostgreSQL, sets up the schemas, runs the server and
 * registers `namespace` with our search attributes. `dir` must be a fresh throw-away directory.
 */
export async function startTemporalOnPostgres(opts: {
  dir: string;
  cacheDir: string;
  namespace: string;
  /** Build progress and readiness. */
  log: (l: string) => void;
  /** PostgreSQL's own log lines (noisy; default: dropped). */
  debug?: (l: string) => void;
  /** Default 1 (the dev server's); the cluster runs more. Fixed for the life of the database. */
  historyShards?: number;
  /** Serve the server's Prometheus metrics on this loopback port. */
  metricsPort?: number;
  /** The server and its PostgreSQL in their own process groups (a terminal's Ctrl-C reaches the supervisor alone). */
  ownProcessGroup?: boolean;
  /** Bound the history service's cache of workflows in bytes (`boundedHistoryCache`); default: the dev server's entry cap. */
  historyCacheMaxBytes?: number;
}): Promise<TemporalOnPostgres> {
  const { server, sqlTool: tool } = await temporalServerBinaries({ cacheDir: opts.cacheDir, log: opts.log });
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    const pgEndpoint: PostgresEndpoint = {
      host: '127.0.0.1',
      port: await freePort(),
      user: 'postgres',
      password: 'postgres',
    };
    const pgOpts = {
      dataDir: path.join(opts.dir, 'temporal-pg'),
      port: pgEndpoint.port,
      user: pgEndpoint.user,
      password: pgEndpoint.password,
      log: (l: string) => opts.debug?.(`[temporal-pg] ${l}`),
      ownProcessGroup: opts.ownProcessGroup,
    };
    let pg: RunningPostgres = await startPostgres(pgOpts);
    stops.push(() => pg.stop());
    let t = Date.now();
    setupTemporalSchemas(tool, pgEndpoint);
    opts.log(`Temporal schemas set up in PostgreSQL (port ${pg.port}) in ${Date.now() - t} ms`);
    const root = path.join(opts.dir, 'temporal-server');
    const ports = await writeServerConfig(root, pgEndpoint, {
      historyShards: opts.historyShards,
      metricsPort: opts.metricsPort,
      historyCacheMaxBytes: opts.historyCacheMaxBytes,
    });
    t = Date.now();
    let proc = spawnServer(server, root, opts.ownProcessGroup);
    stops.push(() => proc.stop());
    const address = `127.0.0.1:${ports.frontend}`;
    await untilReady(address, opts.namespace, proc);
    opts.log(`Temporal server ${TEMPORAL_SERVER_VERSION} on PostgreSQL at ${address}, ready in ${Date.now() - t} ms`);
    return {
      address,
      get pid() {
        return proc.pid;
      },
      postgresDataDir: pgOpts.dataDir,
      restartServer: async () => {
        if (!proc.exited()) await proc.stop();
        proc = spawnServer(server, root, opts.ownProcessGroup);
        await untilReady(address, opts.namespace, proc);
      },
      restartPostgres: async () => {
        // Crash recovery on start; retried while the killed backends' shared memory is released.
        for (let i = 0; ; i++) {
          try {
            pg = await startPostgres(pgOpts);
            return;
          } catch (err) {
            if (i > 20) throw err;
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      },
      postgresPort: pg.port,
      metricsAddress: opts.metricsPort ? `127.0.0.1:${opts.metricsPort}` : null,
      output: () => proc.output(),
      version: `server ${TEMPORAL_SERVER_VERSION} on PostgreSQL ${pgVersion(pg)}`,
      postgresUrl: (database?: string) => pg.url(database),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

function pgVersion(pg: RunningPostgres): string {
  try {
    return fs.readFileSync(path.join(pg.dataDir, 'PG_VERSION'), 'utf8').trim();
  } catch {
    return '';
  }
}

/** Registers the namespace unless it exists (retention 1 day: a throw-away bench server). */
async function registerNamespace(connection: Connection, namespace: string): Promise<void> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return;
  } catch (e) {
    if ((e as { code?: number }).code !== 5 /* NOT_FOUND */) throw e;
  }
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
  } catch (e) {
    if ((e as { code?: number }).code !== 6 /* ALREADY_EXISTS */) throw e;
  }
}
