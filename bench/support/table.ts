/**
 * The performance table's rows and their Markdown: one format for the dev-server table
 * (bench/suite.ts) and the same rows on the production shape (bench/cluster.ts).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface Row {
  section: string;
  name: string;
  unit: string;
  ours: number | null;
  ceiling: number | null;
  /** ours ÷ ceiling (throughput: higher is better; latency and memory: lower is better). */
  ratio: number | null;
  oursP50?: number;
  oursP99?: number;
  ceilingP50?: number;
  ceilingP99?: number;
  target?: string;
  note?: string;
}

const fmt = (x: number | null | undefined, digits = 0) =>
  x === null || x === undefined || Number.isNaN(x)
    ? '—'
    : x.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The machine, Node and the commit of the checkout at `root`, as the table's first header line names them. */
export function machineHeader(root: string): Pick<TableHeader, 'machine' | 'node' | 'commit'> {
  const cpus = os.cpus();
  const git = (args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  };
  return {
    machine: `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    commit: `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain', '--untracked-files=no']) ? ' (with uncommitted changes)' : ''}`,
  };
}

/** What the table's header lines say: the machine, the versions, the shape the rows ran on, the load. */
export interface TableHeader {
  machine: string;
  node: string;
  temporal: string;
  commit: string;
  mode: string;
  loadStart: string;
  loadEnd: string;
  date: string;
  /** The processes the rows ran on, when not the dev-server table's own stack (the cluster's). */
  shape?: string;
  rounds: number;
  connections: number;
}

/** The table as Markdown: the header lines, then one line a row. */
export function markdown(h: TableHeader, rows: Row[]): string {
  const lines = [
    `Machine: ${h.machine} · Node ${h.node} · Temporal: ${h.temporal} · commit ${h.commit} · ${h.mode} mode`,
    ...(h.shape ? [`Shape: ${h.shape}`] : []),
    `Load average (1/5/15 min): start ${h.loadStart}, end ${h.loadEnd} · ${h.date} · ${h.rounds} ` +
      `interleaved rounds, median; HTTP: ${h.connections} connections`,
    '',
    '| section | row | unit | ours | ceiling | ratio | ours p50 / p99 ms | ceiling p50 / p99 ms | target | note |',
    '|---|---|---|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    const lat = (a?: number, b?: number) => (a === undefined && b === undefined ? '' : `${fmt(a, 1)} / ${fmt(b, 1)}`);
    lines.push(
      `| ${r.section} | ${r.name} | ${r.unit} | ` +
        `${fmt(r.ours, r.ours !== null && r.ours < 10 ? 2 : 0)} | ` +
        `${fmt(r.ceiling, r.ceiling !== null && r.ceiling < 10 ? 2 : 0)} | ` +
        `${r.ratio === null ? '—' : `${r.ratio.toFixed(2)}×`} | ${lat(r.oursP50, r.oursP99)} | ` +
        `${lat(r.ceilingP50, r.ceilingP99)} | ${r.target ?? ''} | ${r.note ?? ''} |`,
    );
  }
  return lines.join('\n');
}

export function matchingRows(d: Record<string, unknown> | null, why: string): Row[] {
  if (!d)
    return [
      {
        section: 'matching',
        name: 'slot freed → offer; round time vs waiting entries',
        unit: '',
        ours: null,
        ceiling: null,
        ratio: null,
        note: `not measured: ${why}`,
      },
    ];
  const s = d.slotToOfferMs as { p50: number; p95: number; samples: number };
  const rows: Row[] = [
    {
      section: 'matching',
      name: `slot freed → offer (${s.samples} samples)`,
      unit: 'ms p95',
      ours: s.p95,
      ceiling: null,
      ratio: null,
      oursP50: s.p50,
      target: 'p95 ≤ 2,000 ms',
      note: `p50 ${s.p50.toFixed(0)} ms`,
    },
  ];
  for (const r of d.rounds as Array<{
    waiting: number;
    jobs: number;
    roundMs: number;
    ceilingMs: number | null;
    ceilingNote: string;
  }>) {
    rows.push({
      section: 'matching',
      name: `round, ${r.waiting.toLocaleString('en')} waiting / ${r.jobs.toLocaleString('en')} jobs`,
      unit: 'ms',
      ours: r.roundMs,
      ceiling: r.ceilingMs,
      ratio: r.ceilingMs ? r.roundMs / r.ceilingMs : null,
      target: r.waiting === 1000 ? '≤ 200 ms' : undefined,
      note: r.ceilingNote,
    });
  }
  return rows;
}

/** `on`: which Temporal the rows ran against, appended to each row's name (the opt-in PostgreSQL run; blank for the dev server). */
export function webhookRows(d: Record<string, unknown> | null, why: string, on = ''): Row[] {
  if (!d)
    return [
      {
        section: 'webhooks',
        name: `deliveries/s; commit → first attempt${on}`,
        unit: '',
        ours: null,
        ceiling: null,
        ratio: null,
        note: `not measured: ${why}`,
      },
    ];
  const n = (k: string) => d[k] as number;
  const first = d.firstAttemptMs as { p50: number; p99: number };
  const fan = `${n('events')} events × ${n('subscriptions')} subscriptions`;
  const integrity = `${n('lost')} lost, ${n('duplicated')} duplicated, ${n('badSignatures')} bad signatures`;
  return [
    {
      section: 'webhooks',
      name: `deliveries/s (${fan}) vs bare one-activity workflow${on}`,
      unit: 'deliveries/s',
      ours: n('deliveriesPerSec'),
      ceiling: n('bareWorkflowPerSec'),
      ratio: n('deliveriesPerSec') / n('bareWorkflowPerSec'),
      note: integrity,
    },
    {
      section: 'webhooks',
      name: `deliveries/s vs raw signed POSTs from one process${on}`,
      unit: 'deliveries/s',
      ours: n('deliveriesPerSec'),
      ceiling: n('rawSignedPostsPerSec'),
      ratio: n('deliveriesPerSec') / n('rawSignedPostsPerSec'),
      target: '≥ 0.05×',
    },
    {
      section: 'webhooks',
      name: `commit → first attempt${on}`,
      unit: 'ms p99',
      ours: first.p99,
      ceiling: null,
      ratio: null,
      oursP50: first.p50,
      oursP99: first.p99,
      target: 'p50 ≤ 1 s, p99 ≤ 5 s',
    },
  ];
}
