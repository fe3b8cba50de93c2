import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import type { SearchAttributeType } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { portInUse } from './postgres-server';
import { stopProcess } from '#lib/supervision';
import { JOBFAIR_SEARCH_ATTRIBUTES } from '#workflows/shared/contract';
import { cachedGoBinaryPath, goInstallCached, goToolchainFor, GoBinaryUnavailableError, onPath } from './go-install';

/** CLI 1.5.1 = server 1.29.1 + UI 2.42.1; later tags carry a `replace` directive and cannot be `go install`ed. */
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
export const TEMPORAL_CLI_VERSION = 'v1.5.1';

/** The contract's keys, all Keyword (the type below refuses any other, since they are registered as Keyword). */
const KEYWORD_SEARCH_ATTRIBUTES: ReadonlyArray<{ name: string; type: typeof SearchAttributeType.KEYWORD }> =
  JOBFAIR_SEARCH_ATTRIBUTES;

/** Our custom search attributes' names (workflows/shared/contract.ts); registered idempotently at every start. */
export const SEARCH_ATTRIBUTES: readonly string[] = KEYWORD_SEARCH_ATTRIBUTES.map((k) => k.name);

export class TemporalCliUnavailableError extends Error {
  constructor(reason: string) {
    super(
      [
        `No Temporal dev server available: ${reason}`,
        'Ways out:',
        '  1. Point at an existing server: TEMPORAL_ADDRESS=host:7233',
        '  2. Install the Temporal CLI (brew install temporal, or the official download from ' +
          'temporal.io) and put `temporal` on PATH, or set TEMPORAL_CLI=/path/to/temporal',
        `  3. Install Go >= 1.25 and run again: we build ${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION} ` +
          `once into the cache dir`,
        '  4. With Docker: docker compose up (see docker-compose.yml)',
      ].join('\n'),
    );
    this.name = 'TemporalCliUnavailableError';
  }
}

export function defaultCacheDir(configured?: string): string {
  return configured ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'jobfair');
}

export function cachedCliPath(cacheDir: string): string {
  return cachedGoBinaryPath(cacheDir, 'temporal', TEMPORAL_CLI_VERSION);
}

export { onPath };

export interface ResolvedCli {
  path: string;
  source: 'TEMPORAL_CLI' | 'PATH' | 'cache' | 'go install';
  /** Only for `go install`: builds the CLI into `path` (minutes, with progress lines). */
  build?: () => Promise<void>;
}

/**
 * Resolution order (README, "First run: the Temporal CLI"; decision 0001): TEMPORAL_CLI → `temporal` on PATH → cached build → go install into the cache.
 * (TEMPORAL_ADDRESS is handled by the caller: it starts no server at all.) The build is the shared `goInstallCached` (stripe-mock uses it too).
 */
export function resolveTemporalCli(opts: {
  temporalCli?: string;
  cacheDir: string;
  log: (l: string) => void;
}): ResolvedCli {
  if (opts.temporalCli) {
    if (!fs.existsSync(opts.temporalCli))
      throw new TemporalCliUnavailableError(`TEMPORAL_CLI=${opts.temporalCli} does not exist`);
    return { path: opts.temporalCli, source: 'TEMPORAL_CLI' };
  }
  const fromPath = onPath('temporal');
  if (fromPath) return { path: fromPath, source: 'PATH' };
  const spec = {
    module: TEMPORAL_CLI_MODULE,
    version: TEMPORAL_CLI_VERSION,
    tool: 'temporal',
    binary: 'temporal',
    minGo: [1, 25] as [number, number],
    packages: TEMPORAL_CLI_PACKAGES,
    expect:
      `about ${TEMPORAL_CLI_PACKAGES} Go packages, usually ${TEMPORAL_CLI_BUILD_MINUTES} minutes ` +
      `on 2 cores, downloads first`,
  };
  const cached = cachedGoBinaryPath(opts.cacheDir, spec.tool, spec.version, spec.binary);
  if (fs.existsSync(cached)) return { path: cached, source: 'cache' };
  const unavailable = (e: unknown) =>
    e instanceof GoBinaryUnavailableError
      ? new TemporalCliUnavailableError(
          /no Go toolchain/.test(e.reason)
            ? 'no TEMPORAL_CLI, no `temporal` on PATH, no cached build, and no Go toolchain to build one'
            : e.reason,
        )
      : e;
  try {
    goToolchainFor(spec);
  } catch (e) {
    throw unavailable(e);
  }
  return {
    path: cached,
    source: 'go install',
    build: async () => {
      try {
        await goInstallCached(spec, { cacheDir: opts.cacheDir, log: opts.log });
      } catch (e) {
        throw unavailable(e);
      }
    },
  };
}

/** `go list -deps` of the CLI 1.5.1 counts 1 298 packages (1 067 outside the standard library). */
export const TEMPORAL_CLI_PACKAGES = 1300;
/** Measured: 348 s on a 2-core machine with an empty module cache. */
export const TEMPORAL_CLI_BUILD_MINUTES = '5–6';

/**
 * The file-backed dev server of `npm start` writes through SQLite in WAL mode with
 * synchronous=NORMAL: no fsync per commit, so workflow starts are several times faster
 * (bench/temporal-pragmas.ts; decision 0175). The trade: after a power cut or an OS
 * crash — not a process crash — the last commits before it may be lost (the file stays consistent).
 * Development state only; production runs a real Temporal cluster.
 */
export const FILE_SQLITE_PRAGMAS: Readonly<Record<string, string>> = { journal_mode: 'wal', synchronous: 'normal' };

export interface DevServerOptions {
  cli: string;
  port: number;
  uiPort?: number;
  /** SQLite file; omitted = in memory (tests). */
  dbFile?: string;
  /**
   * SQLite pragmas for the file (`--sqlite-pragma k=v`); default FILE_SQLITE_PRAGMAS. `{}` = SQLite's
   * own defaults (rollback journal, synchronous=FULL). Ignored in memory.
   */
  sqlitePragmas?: Readonly<Record<string, string>>;
  /** Where the server's pid is kept, so a server orphaned by a crashed run is stopped next time. */
  pidFile?: string;
  namespace: string;
  log: (l: string) => void;
  /** Run in its own process group: a Ctrl-C in the terminal reaches only the supervisor, which stops the server last (npm start). */
  ownProcessGroup?: boolean;
}

export interface RunningDevServer {
  address: string;
  uiUrl?: string;
  /** The server's process id (the chaos soak samples its memory). */
  pid?: number;
  stop: () => Promise<void>;
}

function stopOrphan(pidFile: string, log: (l: string) => void): Promise<void> {
  let pid = 0;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  } catch {
    return Promise.resolve();
  }
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  let cmdline = '';
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    /* not running (or not Linux) */
  }
  if (!pid || !alive() || !cmdline.includes('start-dev')) {
    fs.rmSync(pidFile, { force: true });
    return Promise.resolve();
  }
  log(`stopping the Temporal dev server left running by a previous run (pid ${pid})`);
  process.kill(pid, 'SIGTERM');
  return new Promise((resolve) => {
    const deadline = Date.now() + 15_000;
    const tick = () => {
      if (!alive()) return resolve();
      if (Date.now() > deadline + 10_000) return resolve(); // not even SIGKILL took it: the port check below says so
      if (Date.now() > deadline) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone meanwhile */
        }
      }
      setTimeout(tick, 100);
    };
    tick();
  });
}

export async function startDevServer(opts: DevServerOptions): Promise<RunningDevServer> {
  if (opts.pidFile) await stopOrphan(opts.pidFile, opts.log);
  for (const p of [opts.port, opts.uiPort].filter((x): x is number => !!x)) {
    if (await portInUse(p)) {
      throw new Error(
        `port ${p} is already in use: another Temporal server (a previous run still up?) or ` +
          `another program holds it. Stop it, set TEMPORAL_PORT/TEMPORAL_UI_PORT, or point ` +
          `TEMPORAL_ADDRESS at the running server`,
      );
    }
  }
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--namespace',
    opts.namespace,
    '--log-level',
    'warn',
    '--dynamic-config-value',
    'frontend.enableServerVersionCheck=false',
  ];
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort));
  else args.push('--headless');
  if (opts.dbFile) {
    fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
    for (const [k, v] of Object.entries(opts.sqlitePragmas ?? FILE_SQLITE_PRAGMAS))
      args.push('--sqlite-pragma', `${k}=${v}`);
  }
  for (const sa of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${sa}=Keyword`);
  const child: ChildProcess = spawn(opts.cli, args, {
    env: { ...process.env, TEMPORAL_VERSION_CHECK_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.ownProcessGroup ?? false,
  });
  if (opts.pidFile && child.pid) fs.writeFileSync(opts.pidFile, String(child.pid));
  let output = '';
  let exited = false;
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  child.once('exit', () => (exited = true));
  const address = `127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`the Temporal dev server exited during start-up:\n${output.slice(-3000)}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeNamespace({ namespace: opts.namespace });
        await registerSearchAttributes(connection, opts.namespace);
      } finally {
        await connection.close();
      }
      break;
    } catch (e) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(
          `the Temporal dev server did not become ready in 60 s: ${(e as Error).message}\n${output.slice(-3000)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    address,
    uiUrl: opts.uiPort ? `http://localhost:${opts.uiPort}` : undefined,
    pid: child.pid,
    stop: async () => {
      await stopProcess(child, 'SIGTERM', 10_000);
      if (opts.pidFile) fs.rmSync(opts.pidFile, { force: true });
    },
  };
}

/** Adds whichever of our search attributes the namespace lacks (`--search-attribute` only applies when the namespace is first created). */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const have = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = SEARCH_ATTRIBUTES.filter((sa) => !have.has(sa));
  if (missing.length === 0) return;
  const searchAttributes: Record<string, temporal.api.enums.v1.IndexedValueType> = {};
  for (const sa of missing) searchAttributes[sa] = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
}
