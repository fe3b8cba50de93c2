import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cachedGoBinaryPath, goToolchainFor, GoBinaryUnavailableError, goWithProgress, onPath } from './go-install';
import { startConfiguredServer } from './configured-server';
import { freePort } from './ports';

/**
 * The trace store for `npm start -- --traces`, the cluster and the tracing test (decision 0263):
 * Jaeger v2 (an OpenTelemetry Collector build with Jaeger's storage and query), in memory, OTLP
 * over HTTP in, Jaeger's query API out. Built once per machine from the Go module proxy into the
 * cache like the LiveKit server. Jaeger's module tags are v1.x (v1.76.0 is the v2.13.0 release;
 * the v2 tags are not a Go module version), and every tag since v1.50 has a `replace` directive
 * in go.mod (Shopify/sarama pinned), which `go install pkg@version` refuses: so the module is
 * downloaded through the proxy (`go mod download`) and built in a copy of it with `go build`,
 * which honours its go.mod and go.sum as the Jaeger project builds it.
 *
 * The UI's JavaScript is not in the module (it is a git submodule built with npm), so the query
 * port serves Jaeger's placeholder page; the JSON API (/api/traces/<id>, /api/services, /api/v3)
 * is complete, and `tsx dev/trace-store.ts show <trace id>` prints a trace as a tree.
 */
export const JAEGER_MODULE = 'github.com/jaegertracing/jaeger';
export const JAEGER_VERSION = 'v1.76.0';
const SPEC = {
  module: `${JAEGER_MODULE}/cmd/jaeger`,
  version: JAEGER_VERSION,
  tool: 'jaeger',
  binary: 'jaeger',
  minGo: [1, 24] as [number, number],
  expect: '73 min measured at nice 19 on 2 cores under a load of ~20; 2,300 packages',
  packages: 2400,
};

export function cachedJaegerPath(cacheDir: string): string {
  return cachedGoBinaryPath(cacheDir, SPEC.tool, SPEC.version, SPEC.binary);
}

/** JAEGER_BIN, `jaeger` on PATH, the cached build, or a build into the cache (see above). */
/** A Jaeger already here (JAEGER_BIN, on PATH, or built into the cache), without building one. */
export function existingJaeger(cacheDir: string): string | undefined {
  const explicit = process.env.JAEGER_BIN;
  if (explicit) return explicit;
  const fromPath = onPath('jaeger');
  if (fromPath) return fromPath;
  const cached = cachedJaegerPath(cacheDir);
  return fs.existsSync(cached) ? cached : undefined;
}

export async function resolveJaeger(opts: { cacheDir: string; log: (l: string) => void }): Promise<string> {
  const existing = existingJaeger(opts.cacheDir);
  if (existing) return existing;
  const cached = cachedJaegerPath(opts.cacheDir);
  try {
    await buildJaeger(cached, opts.log);
    return cached;
  } catch (e) {
    if (e instanceof GoBinaryUnavailableError) {
      throw new Error(
        `the trace store (Jaeger) is unavailable: ${e.reason}. Install Go >= 1.24 and rerun (we build ` +
          `${JAEGER_MODULE}@${JAEGER_VERSION} once into the cache), or set JAEGER_BIN`,
      );
    }
    throw e;
  }
}

async function buildJaeger(target: string, log: (l: string) => void): Promise<void> {
  const go = goToolchainFor(SPEC);
  const env = { ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-jaeger-build-'));
  log(
    `Building Jaeger ${JAEGER_VERSION} once for this machine into ${path.dirname(target)} (${SPEC.expect}); later runs reuse it...`,
  );
  try {
    const dl = spawnSync(go, ['mod', 'download', '-json', `${JAEGER_MODULE}@${JAEGER_VERSION}`], {
      cwd: work,
      env: { ...env, GO111MODULE: 'on' },
      encoding: 'utf8',
    });
    const dir = dl.status === 0 ? (JSON.parse(dl.stdout) as { Dir?: string }).Dir : undefined;
    if (!dir)
      throw new GoBinaryUnavailableError(
        `go mod download ${JAEGER_MODULE}@${JAEGER_VERSION} failed: ${dl.stderr.trim()}`,
      );
    // The module cache is read-only; the build writes nothing into the source, but Go wants a tree it owns.
    const src = path.join(work, 'src');
    fs.cpSync(dir, src, { recursive: true });
    fs.chmodSync(src, 0o755);
    const out = path.join(work, SPEC.binary);
    const { code, errors } = await goWithProgress(go, ['build', '-v', '-o', out, './cmd/jaeger'], {
      label: 'Jaeger build',
      packages: SPEC.packages,
      env,
      cwd: src,
      nice: true,
      log,
    });
    if (code !== 0 || !fs.existsSync(out)) {
      for (const l of errors) log(`go: ${l}`);
      throw new GoBinaryUnavailableError(`go build ${SPEC.module} failed (exit ${code})`);
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    // Copy then rename: two builds at once never leave a half-written binary in place.
    fs.copyFileSync(out, `${target}.tmp-${process.pid}`);
    fs.chmodSync(`${target}.tmp-${process.pid}`, 0o755);
    fs.renameSync(`${target}.tmp-${process.pid}`, target);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export interface RunningTraceStore {
  /** OTLP/HTTP base URL: OTEL_EXPORTER_OTLP_ENDPOINT of the processes (spans to <url>/v1/traces). */
  otlpUrl: string;
  /** Jaeger's query API (and its placeholder UI): /api/traces/<id>, /api/services. */
  queryUrl: string;
  stop: () => Promise<void>;
  output: () => string;
  /** The Jaeger process (absent for a store that is not one). */
  child?: ChildProcess;
}

/**
 * Starts Jaeger on loopback: OTLP/HTTP in, the query API out, spans in memory (at most
 * `maxTraces`, oldest dropped first), none of the collector's other receivers, ports or
 * self-telemetry. The configuration is a YAML file in a temporary directory, removed when stopped.
 */
export async function startTraceStore(opts: {
  bin: string;
  otlpPort?: number;
  queryPort?: number;
  maxTraces?: number;
  /** In a process group of its own, so a terminal's Ctrl-C reaches the supervisor alone (the cluster). */
  ownProcessGroup?: boolean;
}): Promise<RunningTraceStore> {
  const otlpPort = opts.otlpPort ?? (await freePort());
  const queryPort = opts.queryPort ?? (await freePort());
  const queryGrpcPort = await freePort();
  const yaml = [
    'service:',
    '  extensions: [jaeger_storage, jaeger_query]',
    '  pipelines:',
    '    traces:',
    '      receivers: [otlp]',
    '      processors: [batch]',
    '      exporters: [jaeger_storage_exporter]',
    '  telemetry:',
    '    metrics:',
    '      level: none',
    '    logs:',
    '      level: warn',
    'extensions:',
    '  jaeger_query:',
    '    storage:',
    '      traces: memstore',
    '    http:',
    `      endpoint: 127.0.0.1:${queryPort}`,
    '    grpc:',
    `      endpoint: 127.0.0.1:${queryGrpcPort}`,
    '  jaeger_storage:',
    '    backends:',
    '      memstore:',
    '        memory:',
    `          max_traces: ${opts.maxTraces ?? 100_000}`,
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      http:',
    `        endpoint: 127.0.0.1:${otlpPort}`,
    'processors:',
    '  batch:',
    '    timeout: 200ms',
    'exporters:',
    '  jaeger_storage_exporter:',
    '    trace_storage: memstore',
    '',
  ].join('\n');
  const queryUrl = `http://127.0.0.1:${queryPort}`;
  const otlpUrl = `http://127.0.0.1:${otlpPort}`;
  const server = await startConfiguredServer({
    name: 'jaeger',
    bin: opts.bin,
    args: (configFile) => ['--config', configFile],
    yaml,
    detached: opts.ownProcessGroup,
    timeoutMs: 30_000,
    // Both ends up: the query API answers, and the receiver takes an (empty) OTLP request.
    ready: async () => {
      const q = await fetch(`${queryUrl}/api/services`, { signal: AbortSignal.timeout(1000) });
      const r = await fetch(`${otlpUrl}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"resourceSpans":[]}',
        signal: AbortSignal.timeout(1000),
      });
      return q.ok && r.ok;
    },
  });
  return { otlpUrl, queryUrl, ...server };
}

/** One span as Jaeger's query API returns it (the fields we read). */
export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  processID: string;
  references: Array<{ refType: string; spanID: string }>;
  startTime: number;
  duration: number;
  tags: Array<{ key: string; value: unknown }>;
}
export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

/** A trace from Jaeger's query API, or null while it is not (or not yet) stored. */
export async function fetchTrace(queryUrl: string, traceId: string): Promise<JaegerTrace | null> {
  const res = await fetch(`${queryUrl}/api/traces/${traceId}`);
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`GET /api/traces/${traceId}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { data?: JaegerTrace[] };
  return body.data?.[0] ?? null;
}

/** A trace as an indented tree: service, span name, duration; one line per span, children under parents. */
export function formatTrace(t: JaegerTrace): string {
  const byParent = new Map<string, JaegerSpan[]>();
  const ids = new Set(t.spans.map((s) => s.spanID));
  for (const s of t.spans) {
    const parent = s.references.find((r) => r.refType === 'CHILD_OF' && ids.has(r.spanID))?.spanID ?? '';
    byParent.set(parent, [...(byParent.get(parent) ?? []), s]);
  }
  const lines: string[] = [];
  const walk = (parent: string, depth: number) => {
    for (const s of (byParent.get(parent) ?? []).sort((a, b) => a.startTime - b.startTime)) {
      const service = t.processes[s.processID]?.serviceName ?? '?';
      lines.push(`${'  '.repeat(depth)}${service}: ${s.operationName} (${(s.duration / 1000).toFixed(1)} ms)`);
      walk(s.spanID, depth + 1);
    }
  };
  walk('', 0);
  return lines.join('\n');
}

// `tsx dev/trace-store.ts show <trace id> [query url]`: a trace from a log line's trace_id, as a tree.
if (require.main === module) {
  const [cmd, traceId, queryUrl = process.env.JAEGER_QUERY_URL ?? 'http://127.0.0.1:16686'] = process.argv.slice(2);
  if (cmd !== 'show' || !traceId) {
    console.error('usage: tsx dev/trace-store.ts show <trace id> [query url, default $JAEGER_QUERY_URL or :16686]');
    process.exit(2);
  }
  fetchTrace(queryUrl, traceId).then(
    (t) => {
      console.log(t ? formatTrace(t) : `no trace ${traceId} in ${queryUrl}`);
      process.exit(t ? 0 : 1);
    },
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
