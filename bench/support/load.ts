/**
 * HTTP load: autocannon with keep-alive connections cycling through `paths`. It runs in the
 * bench's main thread: the servers under test are other processes (autocannon inside a worker
 * thread switches to its own multi-worker mode and answers raw histograms).
 */
// autocannon ships no types: the part of its result this bench reads.
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { total: number };
  latency: { p50: number; p99: number };
  throughput: { total: number };
}
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
  bytesPerRequest: number;
}

export async function load(o: {
  url: string;
  paths: string[];
  connections: number;
  durationS: number;
  headers?: Record<string, string>;
}): Promise<LoadResult> {
  const r = await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.durationS,
    headers: o.headers ?? {},
    requests: o.paths.map((path) => ({ method: 'GET', path })),
  });
  return {
    rps: r.requests.total / (r.duration || o.durationS),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    bytesPerRequest: r.requests.total ? r.throughput.total / r.requests.total : 0,
  };
}
