import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { median as upperMedian, percentileFloor } from './stats';

/**
 * The soak's measurements (decision 0265): the resident memory of every process of the stack and the
 * latency of every request the clients make, sampled over the run; drift is the last window against
 * the first.
 *
 * Windows: the first 10 % of the run is warm-up (JIT, caches, pools filling) and left out; the first
 * window is the next 20 %, the last window the final 20 %. Per process the median of each window.
 *
 * "Grows without bound" (fails the run): a process's anonymous memory (RssAnon: heap and stacks, not
 * shared buffers or mapped files, which fill up to a fixed size) is in the last window more than
 * 25 % + 16 MB above the first window **and** still rising over the second half of the run (least
 * squares slope over 1 MB/min) — memory that levelled off is a cache at its size, memory still
 * climbing at the end is a leak. Latency fails when the last window's p95 is over twice the first's
 * plus 50 ms. The full RSS is printed beside it.
 */
export interface ProcessRef {
  name: string;
  /** The pids whose memory counts for this process (PostgreSQL: the postmaster and its backends). */
  pids: () => number[];
}

interface MemSample {
  t: number;
  rssKb: number;
  anonKb: number;
}

function readMem(pid: number): { rssKb: number; anonKb: number } | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? 0);
    return { rssKb: kb('VmRSS'), anonKb: kb('RssAnon') };
  } catch {
    return null;
  }
}

/** A pid and its direct children (PostgreSQL's backends). */
export function withChildren(pid: number): number[] {
  try {
    return [
      pid,
      ...execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
        .split('\n')
        .map(Number)
        .filter(Boolean),
    ];
  } catch {
    return [pid];
  }
}

export class SoakSampler {
  private mem = new Map<string, MemSample[]>();
  private lat: Array<{ t: number; ms: number; failed: boolean }> = [];
  private timer: NodeJS.Timeout | null = null;
  private restoreFetch: (() => void) | null = null;
  private t0 = Date.now();

  constructor(
    private processes: () => ProcessRef[],
    private everyMs = 5_000,
  ) {}

  /** At the start of the traffic: the windows count from here. */
  start(): void {
    this.t0 = Date.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
    // Every request this process makes (the soak's clients) is timed.
    const original = globalThis.fetch;
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      const s = performance.now();
      try {
        const res = await original(...args);
        this.lat.push({ t: Date.now(), ms: performance.now() - s, failed: res.status >= 500 });
        return res;
      } catch (err) {
        this.lat.push({ t: Date.now(), ms: performance.now() - s, failed: true });
        throw err;
      }
    };
    this.restoreFetch = () => (globalThis.fetch = original);
  }

  stop(): void {
    this.sample();
    if (this.timer) clearInterval(this.timer);
    this.restoreFetch?.();
  }

  private sample(): void {
    const t = Date.now();
    for (const p of [...this.processes(), { name: DRIVER, pids: () => [process.pid] }]) {
      let rssKb = 0;
      let anonKb = 0;
      let any = false;
      for (const pid of p.pids()) {
        const m = readMem(pid);
        if (!m) continue;
        any = true;
        rssKb += m.rssKb;
        anonKb += m.anonKb;
      }
      if (!any) continue;
      this.mem.set(p.name, [...(this.mem.get(p.name) ?? []), { t, rssKb, anonKb }]);
    }
  }

  /** `spanMs`: the traffic's span from the start (the settling after it is not part of the windows). */
  report(spanMs?: number): { table: string; failures: string[] } {
    const span = spanMs ?? Date.now() - this.t0;
    const end = this.t0 + span;
    const first = [this.t0 + span * 0.1, this.t0 + span * 0.3];
    const last = [this.t0 + span * 0.8, end];
    const inW = <T extends { t: number }>(xs: T[], w: number[]) => xs.filter((x) => x.t >= w[0] && x.t < w[1]);
    // The median of an empty window is NaN, as the table prints it.
    const median = (xs: number[]) => (xs.length ? upperMedian(xs) : NaN);
    const mb = (kb: number) => kb / 1024;
    const failures: string[] = [];
    const rows: string[] = [
      '| process | RSS first → last window (MB) | anon first → last (MB) | anon drift | anon slope, 2nd half (MB/min) | samples |',
      '| --- | --- | --- | --- | --- | --- |',
    ];
    for (const [name, xs] of this.mem) {
      const f = inW(xs, first);
      const l = inW(xs, last);
      const fr = mb(median(f.map((x) => x.rssKb)));
      const lr = mb(median(l.map((x) => x.rssKb)));
      const fa = mb(median(f.map((x) => x.anonKb)));
      const la = mb(median(l.map((x) => x.anonKb)));
      const half = xs.filter((x) => x.t >= this.t0 + span / 2 && x.t <= end);
      const slope = slopePerMin(half.map((x) => ({ t: x.t, v: mb(x.anonKb) })));
      // The driver (the soak's own clients) keeps every request's timing and the receiver's log: reported, not judged.
      const grows = name !== DRIVER && la > fa * 1.25 + 16 && slope > 1;
      if (grows)
        failures.push(
          `${name}: anonymous memory ${fa.toFixed(0)} → ${la.toFixed(0)} MB, still rising ${slope.toFixed(1)} MB/min`,
        );
      rows.push(
        `| ${name} | ${fr.toFixed(0)} → ${lr.toFixed(0)} | ${fa.toFixed(0)} → ${la.toFixed(0)} | ` +
          `${fa ? (((la - fa) / fa) * 100).toFixed(0) : '—'} % | ${slope.toFixed(2)} | ${xs.length} |`,
      );
    }
    const lf = inW(this.lat, first);
    const ll = inW(this.lat, last);
    const p = (xs: typeof lf, q: number) =>
      percentileFloor(
        xs.map((x) => x.ms),
        q,
      );
    const latencyRow =
      `requests: ${this.lat.length} (${this.lat.filter((x) => x.failed).length} failed or 5xx); latency p50 ` +
      `${p(lf, 50).toFixed(0)} → ${p(ll, 50).toFixed(0)} ms, p95 ${p(lf, 95).toFixed(0)} → ` +
      `${p(ll, 95).toFixed(0)} ms, p99 ${p(lf, 99).toFixed(0)} → ${p(ll, 99).toFixed(0)} ms ` +
      `(first window ${lf.length} requests, last ${ll.length})`;
    if (p(ll, 95) > 2 * p(lf, 95) + 50)
      failures.push(`latency: p95 ${p(lf, 95).toFixed(0)} → ${p(ll, 95).toFixed(0)} ms`);
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    return {
      table: [
        `soak ${(span / 60_000).toFixed(1)} min of traffic; windows: first ${fmtWin(first, this.t0)}, last ${fmtWin(last, this.t0)}; load ${load}`,
        '',
        ...rows,
        '',
        latencyRow,
        failures.length ? `\ngrows without bound: ${failures.join('; ')}` : '\nnothing grows without bound',
      ].join('\n'),
      failures,
    };
  }
}

const DRIVER = 'driver (this process)';

const fmtWin = (w: number[], t0: number) =>
  `${((w[0] - t0) / 60_000).toFixed(1)}–${((w[1] - t0) / 60_000).toFixed(1)} min`;

/** Least-squares slope of v over t, per minute. */
function slopePerMin(xs: Array<{ t: number; v: number }>): number {
  if (xs.length < 3) return 0;
  const n = xs.length;
  const mt = xs.reduce((a, x) => a + x.t, 0) / n;
  const mv = xs.reduce((a, x) => a + x.v, 0) / n;
  const num = xs.reduce((a, x) => a + (x.t - mt) * (x.v - mv), 0);
  const den = xs.reduce((a, x) => a + (x.t - mt) ** 2, 0);
  return den ? (num / den) * 60_000 : 0;
}

/** `30m`, `5m`, `90s`, `1h` → milliseconds. */
export function parseDuration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(s.trim());
  if (!m) throw new Error(`--soak: a duration like 30m, 5m, 90s or 1h, not "${s}"`);
  return Number(m[1]) * { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
}
