import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The first executable called `name` on PATH. */
export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** Where `go install <module>@<version>` puts `binary` inside the per-machine cache: one folder per tool and version. */
export function cachedGoBinaryPath(cacheDir: string, tool: string, version: string, binary = tool): string {
  return path.join(cacheDir, `${tool}-${version}`, binary);
}

export interface GoInstallSpec {
  /** The package path to `go install` (…/cmd/temporal, github.com/stripe/stripe-mock). */
  module: string;
  version: string;
  /** Folder name prefix in the cache (`temporal` → `temporal-v1.5.1/`). */
  tool: string;
  /** The binary `go install` writes (the last element of the package path). */
  binary: string;
  /** Oldest Go that builds it ([major, minor]). */
  minGo?: [number, number];
  /** For the log line: how long a cold build takes. */
  expect?: string;
  /** About how many Go packages the build compiles (progress lines say how far it is). */
  packages?: number;
  /**
   * Build politely on a shared machine: `nice -n 19` (when `nice` is on PATH) and one package at a
   * time (GOFLAGS -p=1, GOMAXPROCS=1). Slower, but other processes keep their cores. For the big
   * opt-in builds (the Temporal server for the PostgreSQL bench), not the CLI everyone waits for.
   */
  lowPriority?: boolean;
}

export class GoBinaryUnavailableError extends Error {
  constructor(public readonly reason: string) {
    super(reason);
    this.name = 'GoBinaryUnavailableError';
  }
}

/**
 * Counts what `go install -v` reports on stderr: `go: downloading m v` lines, then one import path
 * per package compiled. Pure, so the counting is tested without a minutes-long build.
 */
export function createBuildProgress(totalPackages: number, startedAtMs: number, label = 'Temporal CLI build') {
  let downloads = 0;
  let compiled = 0;
  let lastError = '';
  return {
    line(raw: string): void {
      const l = raw.trim();
      if (!l) return;
      if (l.startsWith('go: downloading ')) downloads++;
      else if (/^[\w.\-]+(\/[\w.\-~+]+)*$/.test(l)) compiled++;
      else lastError = l;
    },
    summary(nowMs: number): string {
      const s = Math.round((nowMs - startedAtMs) / 1000);
      const elapsed = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')} elapsed`;
      if (compiled === 0) return `${label}: ${downloads} modules downloaded, ${elapsed}`;
      return (
        `${label}: ${compiled} of ~${totalPackages} packages compiled (${Math.min(99, Math.round((100 * compiled) / totalPackages))}%), ` +
        `${elapsed}`
      );
    },
    get counts() {
      return { downloads, compiled, lastError };
    },
  };
}

/** The Go toolchain that can build `spec`, or GoBinaryUnavailableError saying why not (checked before any build starts). */
export function goToolchainFor(spec: GoInstallSpec): string {
  const go = onPath('go');
  if (!go)
    throw new GoBinaryUnavailableError(
      `no cached build of ${spec.tool} ${spec.version} and no Go toolchain to build one`,
    );
  if (spec.minGo) {
    const goVersion = spawnSync(go, ['env', 'GOVERSION'], { encoding: 'utf8' }).stdout.trim();
    const m = /^go(\d+)\.(\d+)/.exec(goVersion);
    const [maj, min] = spec.minGo;
    if (!m || Number(m[1]) < maj || (Number(m[1]) === maj && Number(m[2]) < min)) {
      throw new GoBinaryUnavailableError(
        `Go ${goVersion || '(unknown)'} is too old to build ${spec.tool} (needs >= ${maj}.${min})`,
      );
    }
  }
  return go;
}

/**
 * `go <goArgs>` (a `-v` build or install) with its package lines turned into one progress line every
 * 15 s (readable in a terminal and a CI log alike); at nice 19 when `nice`. The exit code and the
 * last error lines Go printed.
 */
export async function goWithProgress(
  go: string,
  goArgs: string[],
  o: {
    label: string;
    packages: number;
    env: NodeJS.ProcessEnv;
    cwd?: string;
    nice: boolean;
    log: (l: string) => void;
  },
): Promise<{ code: number; errors: string[] }> {
  const progress = createBuildProgress(o.packages, Date.now(), o.label);
  const nice = o.nice ? onPath('nice') : undefined;
  const [cmd, args] = nice ? [nice, ['-n', '19', go]] : [go, []];
  const child = spawn(cmd, [...args, ...goArgs], { cwd: o.cwd, env: o.env, stdio: ['ignore', 'ignore', 'pipe'] });
  const errors: string[] = [];
  let buffered = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const l of lines) {
      progress.line(l);
      if (progress.counts.lastError === l.trim()) errors.push(l);
    }
  });
  const timer = setInterval(() => o.log(progress.summary(Date.now())), 15_000);
  const code = await new Promise<number>((resolve) => child.once('close', (c) => resolve(c ?? 1)));
  clearInterval(timer);
  if (code === 0) o.log(`${progress.summary(Date.now())}: done`);
  return { code, errors: errors.slice(-20) };
}

/** `go install -v` into `binDir` with progress lines; the exit code. */
async function goInstallWithProgress(
  go: string,
  spec: GoInstallSpec,
  binDir: string,
  extraEnv: Record<string, string>,
  log: (l: string) => void,
): Promise<number> {
  const polite = spec.lowPriority ? { GOFLAGS: '-buildvcs=false -p=1', GOMAXPROCS: '1' } : {};
  const { code, errors } = await goWithProgress(go, ['install', '-v', `${spec.module}@${spec.version}`], {
    label: `${spec.tool} build`,
    packages: spec.packages ?? 0,
    env: { ...process.env, GOBIN: binDir, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false', ...polite, ...extraEnv },
    nice: !!spec.lowPriority,
    log,
  });
  if (code !== 0) for (const l of errors) log(`go: ${l}`);
  return code;
}

/**
 * The cached build of a Go tool, or builds it once per machine with `go install` into the cache
 * (GOBIN=<cache>/<tool>-<version>, CGO off, so the binary is static and does not depend on the
 * tree it was built from), with progress lines. Used for the Temporal CLI (decision 0001) and
 * stripe-mock (0131): no registry ships either binary, and a run-time download from GitHub
 * releases is not available here. Throws GoBinaryUnavailableError with the reason; callers add
 * their own ways out.
 */
export async function goInstallCached(
  spec: GoInstallSpec,
  opts: { cacheDir: string; log: (l: string) => void },
): Promise<{ path: string; built: boolean }> {
  const cached = cachedGoBinaryPath(opts.cacheDir, spec.tool, spec.version, spec.binary);
  if (fs.existsSync(cached)) return { path: cached, built: false };
  const go = goToolchainFor(spec);
  const binDir = path.dirname(cached);
  // Build into a private folder and rename into place: two processes building at once (parallel
  // test runs on one machine) never see a half-written binary.
  const tmpDir = `${binDir}.tmp-${process.pid}`;
  fs.mkdirSync(tmpDir, { recursive: true });
  opts.log(
    `Building ${spec.tool} ${spec.version} once for this machine into ${binDir}${spec.expect ? ` (${spec.expect})` : ''}; ` +
      `later runs reuse it...`,
  );
  try {
    let code = await goInstallWithProgress(go, spec, tmpDir, {}, opts.log);
    if (code !== 0) {
      // The module's own go.sum still pins every dependency; only the checksum-database lookup is skipped.
      opts.log('go install failed; retrying once with GOSUMDB=off in case the checksum database is unreachable');
      code = await goInstallWithProgress(go, spec, tmpDir, { GOSUMDB: 'off' }, opts.log);
    }
    const built = path.join(tmpDir, spec.binary);
    if (code !== 0 || !fs.existsSync(built))
      throw new GoBinaryUnavailableError(`go install ${spec.module}@${spec.version} failed (exit ${code})`);
    fs.mkdirSync(binDir, { recursive: true });
    fs.renameSync(built, cached);
  } finally {
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }
  return { path: cached, built: true };
}
