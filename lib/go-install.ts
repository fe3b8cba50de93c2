import { spawnSync } from 'node:child_process';
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
}

export class GoBinaryUnavailableError extends Error {
  constructor(public readonly reason: string) {
    super(reason);
    this.name = 'GoBinaryUnavailableError';
  }
}

/**
 * The cached build of a Go tool, or builds it once per machine with `go install` into the cache
 * (GOBIN=<cache>/<tool>-<version>, CGO off, so the binary is static and does not depend on the
 * tree it was built from). Used for the Temporal CLI (decision 0001) and stripe-mock (0131): no
 * registry ships either binary, and a run-time download from GitHub releases is not available here.
 * Throws GoBinaryUnavailableError with the reason; callers add their own ways out.
 */
export function goInstallCached(spec: GoInstallSpec, opts: { cacheDir: string; log: (l: string) => void }): { path: string; built: boolean } {
  const cached = cachedGoBinaryPath(opts.cacheDir, spec.tool, spec.version, spec.binary);
  if (fs.existsSync(cached)) return { path: cached, built: false };
  const go = onPath('go');
  if (!go) throw new GoBinaryUnavailableError(`no cached build of ${spec.tool} ${spec.version} and no Go toolchain to build one`);
  if (spec.minGo) {
    const goVersion = spawnSync(go, ['env', 'GOVERSION'], { encoding: 'utf8' }).stdout.trim();
    const m = /^go(\d+)\.(\d+)/.exec(goVersion);
    const [maj, min] = spec.minGo;
    if (!m || Number(m[1]) < maj || (Number(m[1]) === maj && Number(m[2]) < min)) {
      throw new GoBinaryUnavailableError(`Go ${goVersion || '(unknown)'} is too old to build ${spec.tool} (needs >= ${maj}.${min})`);
    }
  }
  const binDir = path.dirname(cached);
  // Build into a private folder and rename into place: two processes building at once (parallel
  // test runs on one machine) never see a half-written binary.
  const tmpDir = `${binDir}.tmp-${process.pid}`;
  fs.mkdirSync(tmpDir, { recursive: true });
  opts.log(`Building ${spec.tool} ${spec.version} once for this machine into ${binDir}${spec.expect ? ` (${spec.expect})` : ''}; later runs reuse it...`);
  const build = (extraEnv: Record<string, string>) =>
    spawnSync(go, ['install', `${spec.module}@${spec.version}`], {
      env: { ...process.env, GOBIN: tmpDir, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false', ...extraEnv },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  try {
    let r = build({});
    if (r.status !== 0) {
      // The module's own go.sum still pins every dependency; only the checksum-database lookup is skipped.
      opts.log('go install failed; retrying once with GOSUMDB=off in case the checksum database is unreachable');
      r = build({ GOSUMDB: 'off' });
    }
    const built = path.join(tmpDir, spec.binary);
    if (r.status !== 0 || !fs.existsSync(built)) throw new GoBinaryUnavailableError(`go install ${spec.module}@${spec.version} failed (exit ${r.status})`);
    fs.mkdirSync(binDir, { recursive: true });
    fs.renameSync(built, cached);
  } finally {
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }
  return { path: cached, built: true };
}
