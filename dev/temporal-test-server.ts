import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { defaultCacheDir, onPath } from './temporal-server';
import { freePort } from './ports';

/**
 * The time-skipping test server for workflow unit tests, without run-time downloads.
 *
 * The SDK's `createTimeSkipping()` downloads a native build of the test server from GitHub, which
 * our machines cannot reach. Maven Central ships the same server as a Java artifact, so: a copy
 * cached under `<cache dir>/temporal-test-server-<version>/` (the cache dir of dev/temporal-server.ts,
 * `CACHE_DIR` or ~/.cache/jobfair), else fetched once with Maven into that cache, else a clear error.
 * It lives in lib/ beside the dev-server resolver because it follows the same cache and error
 * conventions; what is test-only (the SDK's time-skipping environment) is in test/helpers/.
 */
export const TEMPORAL_TEST_SERVER_GROUP = 'io.temporal';
export const TEMPORAL_TEST_SERVER_ARTIFACT = 'temporal-test-server';
/** The newest on Maven Central when chosen; works with @temporalio/* 1.24 (the *.time-skipping.test.ts suites prove it). */
export const TEMPORAL_TEST_SERVER_VERSION = '1.38.0';
export const TEMPORAL_TEST_SERVER_MAIN = 'io.temporal.testserver.TestServer';
/** Pinned so a cold fetch resolves the same way on every machine. */
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
/** Written last: a directory without it is a fetch that did not finish. */
const COMPLETE_MARKER = 'COMPLETE';

export class TemporalTestServerUnavailableError extends Error {
  constructor(reason: string, version: string, dir: string) {
    super(
      [
        `No Temporal time-skipping test server available: ${reason}`,
        `It is Maven Central's ${TEMPORAL_TEST_SERVER_GROUP}:${TEMPORAL_TEST_SERVER_ARTIFACT}:${version} ` +
          `(Java), fetched once into ${dir}. Ways out:`,
        '  1. Install Java (8 or later; 13+ starts faster) and Maven (Debian: apt-get install ' +
          'openjdk-17-jre-headless maven) and run again: the jars are fetched once from Maven Central',
        `  2. Or put the jars there yourself: ${path.join(dir, 'lib')}/*.jar (mvn ` +
          `dependency:copy-dependencies of that artifact) and an empty ` +
          `${path.join(dir, COMPLETE_MARKER)}`,
        '  3. Set JAVA_HOME or put `java` on PATH if Java is installed elsewhere',
      ].join('\n'),
    );
    this.name = 'TemporalTestServerUnavailableError';
  }
}

export interface ResolvedTestServer {
  version: string;
  dir: string;
  /** `<dir>/lib/*` (java expands the wildcard). */
  classpath: string;
  java: string;
  source: 'cache' | 'maven';
  /** Wall time of the Maven fetch when this call did it. */
  fetchMs?: number;
}

function findJava(): string | undefined {
  const home = process.env.JAVA_HOME;
  if (home && fs.existsSync(path.join(home, 'bin', 'java'))) return path.join(home, 'bin', 'java');
  return onPath('java');
}

export function testServerDir(cacheDir: string, version = TEMPORAL_TEST_SERVER_VERSION): string {
  return path.join(cacheDir, `temporal-test-server-${version}`);
}

const isComplete = (dir: string) =>
  fs.existsSync(path.join(dir, COMPLETE_MARKER)) && fs.existsSync(path.join(dir, 'lib'));

const pidAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Takes `<dir>.lock` (mkdir is atomic): parallel jest files on a cold machine fetch once, the
 * others wait for it. A lock whose owner died is taken over.
 */
async function withLock<T>(
  dir: string,
  deadlineMs: number,
  log: (l: string) => void,
  fn: () => Promise<T>,
): Promise<T> {
  const lock = `${dir}.lock`;
  const owner = path.join(lock, 'pid');
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(owner, String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let pid = 0;
    try {
      pid = Number(fs.readFileSync(owner, 'utf8'));
    } catch {
      /* being created or removed */
    }
    // Stale: its owner died mid-fetch (the pid file appears right after the mkdir; allow for that).
    const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if ((pid && !pidAlive(pid)) || (!pid && age > 10_000)) {
      fs.rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!told) {
      log(`waiting for process ${pid || '?'} to finish fetching the test server into ${dir}`);
      told = true;
    }
    if (Date.now() > deadlineMs)
      throw new Error(`timed out waiting for ${lock} (held by process ${pid}); remove it if no fetch is running`);
    await delay(250);
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function runMaven(mvn: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(mvn, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/**
 * Finds the cached test server, or fetches it once with Maven (the machine's ordinary Maven:
 * its settings, mirrors and ~/.m2 apply; checksums are verified strictly).
 */
export async function resolveTemporalTestServer(
  opts: { cacheDir?: string; version?: string; log?: (l: string) => void; fetchTimeoutMs?: number } = {},
): Promise<ResolvedTestServer> {
  const version = opts.version ?? TEMPORAL_TEST_SERVER_VERSION;
  const log = opts.log ?? (() => undefined);
  const dir = testServerDir(defaultCacheDir(opts.cacheDir ?? process.env.CACHE_DIR), version);
  const java = findJava();
  if (!java) throw new TemporalTestServerUnavailableError('no `java` on PATH (nor JAVA_HOME/bin/java)', version, dir);
  const resolved = (source: ResolvedTestServer['source'], fetchMs?: number): ResolvedTestServer => ({
    version,
    dir,
    classpath: path.join(dir, 'lib', '*'),
    java,
    source,
    fetchMs,
  });
  if (isComplete(dir)) return resolved('cache');

  const mvn = onPath('mvn');
  if (!mvn)
    throw new TemporalTestServerUnavailableError(`not cached, and no \`mvn\` on PATH to fetch it`, version, dir);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const deadline = Date.now() + (opts.fetchTimeoutMs ?? 15 * 60_000);
  return withLock(dir, deadline, log, async () => {
    if (isComplete(dir)) return resolved('cache'); // another process fetched it while we waited
    const t0 = Date.now();
    const work = `${dir}.tmp-${process.pid}`;
    fs.rmSync(work, { recursive: true, force: true });
    fs.mkdirSync(work, { recursive: true });
    fs.writeFileSync(
      path.join(work, 'pom.xml'),
      `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>jobfair</groupId>
  <artifactId>temporal-test-server-fetch</artifactId>
  <version>0</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>${TEMPORAL_TEST_SERVER_GROUP}</groupId>
      <artifactId>${TEMPORAL_TEST_SERVER_ARTIFACT}</artifactId>
      <version>${version}</version>
    </dependency>
  </dependencies>
</project>
`,
    );
    log(
      `fetching ${TEMPORAL_TEST_SERVER_GROUP}:${TEMPORAL_TEST_SERVER_ARTIFACT}:${version} with ` +
        `Maven into ${dir} (once per machine)…`,
    );
    const r = await runMaven(
      mvn,
      [
        '-B',
        '-q',
        '--strict-checksums',
        `${DEPENDENCY_PLUGIN}:copy-dependencies`,
        '-DincludeScope=runtime',
        `-DoutputDirectory=${path.join(work, 'lib')}`,
      ],
      work,
    );
    const jars = fs.existsSync(path.join(work, 'lib'))
      ? fs.readdirSync(path.join(work, 'lib')).filter((f) => f.endsWith('.jar'))
      : [];
    if (r.code !== 0 || !jars.some((j) => j.startsWith(`${TEMPORAL_TEST_SERVER_ARTIFACT}-${version}`))) {
      fs.rmSync(work, { recursive: true, force: true });
      throw new TemporalTestServerUnavailableError(
        `Maven could not fetch it (exit ${r.code}):\n${r.output.slice(-3000)}`,
        version,
        dir,
      );
    }
    fs.rmSync(path.join(work, 'pom.xml'));
    fs.writeFileSync(
      path.join(work, COMPLETE_MARKER),
      `${TEMPORAL_TEST_SERVER_GROUP}:${TEMPORAL_TEST_SERVER_ARTIFACT}:${version}\n${jars.sort().join('\n')}\n`,
    );
    fs.rmSync(dir, { recursive: true, force: true }); // an unfinished earlier attempt
    fs.renameSync(work, dir);
    const fetchMs = Date.now() - t0;
    log(`fetched ${jars.length} jars in ${(fetchMs / 1000).toFixed(1)} s`);
    return resolved('maven', fetchMs);
  });
}

/**
 * Flags for a short-lived server on a small machine: start-up dominates, so C1 only, serial GC and
 * one small heap.
 */
export const TEST_SERVER_JVM_FLAGS = [
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-Xms64m',
  '-Xmx512m',
  '-XX:+IgnoreUnrecognizedVMOptions',
];
/**
 * A class-data archive of the server's classes (JDK 13+ dynamic AppCDS), written by the first run
 * at its exit and mapped by later runs: it cuts the JVM's start from about 1.7 s to 0.5 s here. The
 * JVM checks that it matches itself and the classpath, and starts without it if not (a JVM older
 * than 13 ignores the flags: -XX:+IgnoreUnrecognizedVMOptions).
 */
function classArchive(dir: string, java: string): string {
  // One archive per JVM build: a JDK upgrade gets a fresh one instead of silently mapping none.
  let identity = java;
  try {
    const real = fs.realpathSync(java);
    const st = fs.statSync(real);
    identity = `${real}:${st.size}:${st.mtimeMs}`;
  } catch {
    /* keyed on the path alone */
  }
  return path.join(dir, `server-${createHash('sha256').update(identity).digest('hex').slice(0, 12)}.jsa`);
}

export interface RunningTestServer {
  address: string;
  port: number;
  pid: number;
  /** From spawn to the first answered gRPC call. */
  startMs: number;
  /** Whether the JVM mapped the class-data archive of an earlier run. */
  usedClassArchive: boolean;
  stop: () => Promise<void>;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Spawns the Java test server on a free port and waits (with a deadline, not a fixed sleep) until
 * it answers gRPC. Our own wait, rather than the SDK's 5 s for an `existing-path` executable: a
 * cold JVM on a loaded 2-core machine can take longer than that.
 */
export async function startTemporalTestServer(opts: {
  server: ResolvedTestServer;
  port?: number;
  readyTimeoutMs?: number;
  log?: (l: string) => void;
}): Promise<RunningTestServer> {
  const port = opts.port ?? (await freePort());
  const address = `127.0.0.1:${port}`;
  const archive = classArchive(opts.server.dir, opts.server.java);
  const usedClassArchive = fs.existsSync(archive);
  // Written under a private name and renamed at stop, so parallel first runs never map a half-written file.
  const dumping = usedClassArchive ? null : `${archive}.tmp-${process.pid}-${port}`;
  const cds = usedClassArchive
    ? [`-XX:SharedArchiveFile=${archive}`, '-Xlog:cds=off', '-Xlog:cds+dynamic=off']
    : [`-XX:ArchiveClassesAtExit=${dumping}`, '-Xlog:cds=off', '-Xlog:cds+dynamic=off'];
  const t0 = Date.now();
  const javaArgs = [
    ...TEST_SERVER_JVM_FLAGS,
    ...cds,
    '-cp',
    opts.server.classpath,
    TEMPORAL_TEST_SERVER_MAIN,
    String(port),
  ];
  // On Linux the JVM gets SIGKILL when this process dies, however it dies (util-linux setpriv execs
  // java in place, so the pid stays the JVM's); elsewhere stop() and the exit hook below cover it.
  const setpriv = process.platform === 'linux' ? onPath('setpriv') : undefined;
  const child: ChildProcess = setpriv
    ? spawn(setpriv, ['--pdeathsig', 'KILL', '--', opts.server.java, ...javaArgs], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(opts.server.java, javaArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let exited = false;
  child.stdout?.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr?.on('data', (d) => (output = (output + d).slice(-20_000)));
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    // Spawning itself failed (no exit event follows).
    child.once('error', (e) => {
      output += `\n${e.message}`;
      resolve();
    });
  });
  void exit.then(() => (exited = true));
  // Never leave a JVM behind when the test process ends without calling stop().
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (!exited) {
      child.kill('SIGTERM');
      // Writing the class-data archive at exit takes a moment on the first run.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exit, new Promise((r) => (timer = setTimeout(r, dumping ? 30_000 : 5_000)))]);
      clearTimeout(timer);
      if (!exited) {
        child.kill('SIGKILL');
        await exit;
      }
    }
    if (dumping) {
      try {
        if (fs.statSync(dumping, { throwIfNoEntry: false })?.size) fs.renameSync(dumping, archive);
      } catch {
        /* another run's archive won */
      }
      fs.rmSync(dumping, { force: true });
    }
  };

  const timeoutMs = opts.readyTimeoutMs ?? 120_000;
  const deadline = t0 + timeoutMs;
  let lastError = 'port not open yet';
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`the Temporal test server exited during start-up:\n${output.slice(-3000)}`);
    }
    // A cheap TCP probe first: a gRPC connection to a closed port backs off for up to a second.
    if (await portOpen(port)) {
      // Lazy, so a failed attempt still leaves a connection to close (an unclosed one keeps jest alive).
      const connection = Connection.lazy({ address, connectTimeout: 2_000 });
      try {
        await connection.withDeadline(Date.now() + 2_000, () => connection.workflowService.getSystemInfo({}));
        break;
      } catch (e) {
        lastError = (e as Error).message;
      } finally {
        await connection.close();
      }
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `the Temporal test server did not answer on ${address} within ${timeoutMs} ms (${lastError}):\n${output.slice(-3000)}`,
      );
    }
    await delay(50);
  }
  const startMs = Date.now() - t0;
  opts.log?.(
    `Temporal test server ${opts.server.version} (Java, pid ${child.pid}) answering on ` +
      `${address} after ${startMs} ms${usedClassArchive ? ' (class-data archive)' : ''}`,
  );
  return { address, port, pid: child.pid!, startMs, usedClassArchive, stop };
}
