/**
 * The capacity model (docs/capacity.md): from what one operation costs (measured by
 * `npm run bench -- capacity`) and a workload with its assumptions named, what a deployment needs —
 * history shards, API and worker replicas, Temporal and PostgreSQL CPU, and storage.
 */

/** What one operation of a kind cost, averaged over `n` of them. */
export interface OperationCost {
  name: string;
  n: number;
  historyEvents: number;
  workflowTasks: number;
  activityTasks: number;
  timers: number;
  workflowRuns: number;
  historyBytes: number;
  sqlStatements: number;
  /** Rows the operation added, per table (what it leaves in PostgreSQL). */
  rowsAdded: Readonly<Record<string, number>>;
  cpuMs: { api: number; worker: number; temporal: number; postgres: number };
  wallMsP50: number;
}

export interface Workload {
  /** Seekers waiting at once, at the peak. */
  waitingSeekers: number;
  liveEvents: number;
  matchesPerDay: number;
  webhookDeliveriesPerDay: number;
  /** Queue joins per interview held (declines, expiries and leaves mean more joins than matches). */
  joinsPerMatch: number;
  /** Share of waiting seekers whose agent polls the status, and how often (the documented floor is 5 s). */
  pollingShare: number;
  pollEverySeconds: number;
  /**
   * When set, pollers honour the status's `poll_after_seconds` (decision 0272): the waiting seekers'
   * mix of states, each with its share and the interval its hint asks for, replaces `pollEverySeconds`.
   */
  pollMix?: readonly PollState[];
  /** Job searches per join, and the share the edge cache does not answer. */
  searchesPerJoin: number;
  searchOriginShare: number;
  /** The day's traffic falls in these hours; the peak hour carries `peakToMean` × their mean rate. */
  activeHoursPerDay: number;
  peakToMean: number;
  /** A process is planned to run at most this share of one core at the peak (Node runs JavaScript on one). */
  coreBudget: number;
  /** Days kept: finished workflows (the namespace's retention) and the app's rows (the horizon of the storage figure). */
  temporalRetentionDays: number;
  appRetentionDays: number;
  /**
   * Tables the retention workflow prunes, and the days each keeps (docs/design/retention.md): their
   * size stops growing after that many days. Tables not named grow for `appRetentionDays`.
   */
  prunedTableDays: Readonly<Record<string, number>>;
  /** Table bytes on disk ÷ row bytes: indexes, page fill and dead rows between vacuums. */
  indexAndFreeSpaceFactor: number;
}

/** A state of the waiting seekers: its share of them and the poll interval its hint asks for. */
export interface PollState {
  state: string;
  share: number;
  everySeconds: number;
}

/** Status polls per second of one polling seeker: the mix's, or one every `pollEverySeconds`. */
export const pollsPerSecond = (w: Pick<Workload, 'pollEverySeconds' | 'pollMix'>) =>
  w.pollMix ? w.pollMix.reduce((a, s) => a + s.share / s.everySeconds, 0) : 1 / w.pollEverySeconds;

/**
 * A MODEL INPUT, not a measurement: how the waiting seekers might spread over the hint's states at the
 * target's peak (docs/capacity.md says why each share). The estimate-driven row is the line of 10
 * seekers per event at the target's rate, one match per event every 180 s: positions 1–10 ask for 18,
 * 36, 54 and then 60 s, 45 s on average by rate.
 */
export const HINTED_POLL_MIX: readonly PollState[] = [
  { state: 'offer due or being made; matched, awaiting the answer', share: 0.25, everySeconds: 5 },
  { state: 'capacity blocks, no estimate', share: 0.1, everySeconds: 15 },
  { state: 'capacity blocks, a tenth of the estimate', share: 0.45, everySeconds: 45 },
  { state: 'paused, not live, no eligible job, no recruiter taking interviews', share: 0.2, everySeconds: 60 },
];

/** The target: 10k seekers waiting at once across 1,000 live events, 100k matches and 1M deliveries a day. */
export const TARGET_WORKLOAD: Workload = {
  waitingSeekers: 10_000,
  liveEvents: 1_000,
  matchesPerDay: 100_000,
  webhookDeliveriesPerDay: 1_000_000,
  joinsPerMatch: 2,
  pollingShare: 1,
  pollEverySeconds: 5,
  searchesPerJoin: 5,
  searchOriginShare: 0.5,
  activeHoursPerDay: 10,
  peakToMean: 2,
  coreBudget: 0.6,
  temporalRetentionDays: 7,
  appRetentionDays: 90,
  // The retention workflow's defaults: idempotency keys 24 h, finished deliveries and their attempts,
  // sent e-mails and events without a delivery left 30 days.
  prunedTableDays: {
    idempotency_keys: 1,
    webhook_deliveries: 30,
    webhook_delivery_attempts: 30,
    domain_events: 30,
    email_outbox: 30,
  },
  indexAndFreeSpaceFactor: 2.5,
};

/** The target with every poller honouring `poll_after_seconds`, over the assumed mix of states. */
export const TARGET_WORKLOAD_HINTED: Workload = { ...TARGET_WORKLOAD, pollMix: HINTED_POLL_MIX };

export interface CapacityPlan {
  /** Operations per second at the peak hour. */
  peakPerSecond: Record<string, number>;
  temporal: {
    historyEventsPerSecond: number;
    workflowTasksPerSecond: number;
    activityTasksPerSecond: number;
    historyGiBRetained: number;
    cores: number;
    shards: number;
  };
  apiCores: number;
  apiReplicas: number;
  workerCores: number;
  workerReplicas: number;
  postgres: { statementsPerSecond: number; cores: number; GiBRetained: number };
}

const cost = (costs: readonly OperationCost[], name: string): OperationCost => {
  const c = costs.find((x) => x.name === name);
  if (!c) throw new Error(`capacity model: no measured cost for "${name}"`);
  return c;
};

/** Replicas for `cores` of work at `budget` of a core each, plus one spare for a rolling deploy or a failure; at least two. */
export const replicasFor = (cores: number, budget: number) => Math.max(2, Math.ceil(cores / budget) + 1);

/** History shards are planned for this multiple of today's peak (their number never changes). */
export const SHARD_GROWTH = 10;
/** Workflow tasks per second one shard is planned to carry at most (an assumption; docs/capacity.md). */
export const TASKS_PER_SHARD = 10;

/** The smallest power of two ≥ x. */
const pow2 = (x: number) => 2 ** Math.ceil(Math.log2(Math.max(1, x)));

export function capacityModel(
  costs: readonly OperationCost[],
  rowBytes: Readonly<Record<string, { bytesPerRow: number }>>,
  w: Workload,
): CapacityPlan {
  const activeSeconds = w.activeHoursPerDay * 3600;
  const peak = (perDay: number) => (perDay / activeSeconds) * w.peakToMean;
  const joinsPerDay = w.matchesPerDay * w.joinsPerMatch;
  // Each join ends in an interview or a leave (an expiry costs about what a leave does).
  const peakPerSecond: Record<string, number> = {
    match: peak(w.matchesPerDay),
    join: peak(joinsPerDay - w.matchesPerDay),
    leave: peak(joinsPerDay - w.matchesPerDay),
    webhook: peak(w.webhookDeliveriesPerDay),
    status: w.waitingSeekers * w.pollingShare * pollsPerSecond(w),
    search: peak(joinsPerDay * w.searchesPerJoin * w.searchOriginShare),
  };
  const total = (f: (c: OperationCost) => number) =>
    Object.entries(peakPerSecond).reduce((a, [name, rate]) => a + rate * f(cost(costs, name)), 0);
  const perDay = (f: (c: OperationCost) => number) =>
    w.matchesPerDay * f(cost(costs, 'match')) +
    (joinsPerDay - w.matchesPerDay) * (f(cost(costs, 'join')) + f(cost(costs, 'leave'))) +
    w.webhookDeliveriesPerDay * f(cost(costs, 'webhook'));
  const workflowTasksPerSecond = total((c) => c.workflowTasks);
  const temporalCores = total((c) => c.cpuMs.temporal) / 1000;
  const apiCores = total((c) => c.cpuMs.api) / 1000;
  const workerCores = total((c) => c.cpuMs.worker) / 1000;
  // Rows each operation leaves, at their measured size, times the factor for indexes and free space,
  // each table kept for its own days (a pruned table stops growing) within the horizon.
  const daysKept = (t: string) => Math.min(w.appRetentionDays, w.prunedTableDays[t] ?? w.appRetentionDays);
  const bytesKeptOf = (c: OperationCost) =>
    Object.entries(c.rowsAdded).reduce((a, [t, rows]) => a + rows * (rowBytes[t]?.bytesPerRow ?? 0) * daysKept(t), 0) *
    w.indexAndFreeSpaceFactor;
  const appBytesKept = perDay(bytesKeptOf);
  return {
    peakPerSecond,
    temporal: {
      historyEventsPerSecond: total((c) => c.historyEvents),
      workflowTasksPerSecond,
      activityTasksPerSecond: total((c) => c.activityTasks),
      historyGiBRetained: (perDay((c) => c.historyBytes) * w.temporalRetentionDays) / 2 ** 30,
      cores: temporalCores,
      // Fixed when the cluster is created, so sized for growth: SHARD_GROWTH times the peak at no
      // more than TASKS_PER_SHARD workflow tasks per second each, and never below a small
      // production cluster's 512.
      shards: Math.max(512, pow2((workflowTasksPerSecond * SHARD_GROWTH) / TASKS_PER_SHARD)),
    },
    apiCores,
    apiReplicas: replicasFor(apiCores, w.coreBudget),
    workerCores,
    workerReplicas: replicasFor(workerCores, w.coreBudget),
    postgres: {
      statementsPerSecond: total((c) => c.sqlStatements),
      cores: total((c) => c.cpuMs.postgres) / 1000,
      GiBRetained: appBytesKept / 2 ** 30,
    },
  };
}

export function formatModel(p: CapacityPlan): string {
  const f = (x: number, d = 1) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  return [
    '| at the peak hour | per second |',
    '|---|---|',
    ...Object.entries(p.peakPerSecond).map(([k, v]) => `| ${k} | ${f(v)} |`),
    '',
    '| what it needs | figure |',
    '|---|---|',
    `| Temporal history events / s | ${f(p.temporal.historyEventsPerSecond)} |`,
    `| Temporal workflow tasks / s | ${f(p.temporal.workflowTasksPerSecond)} |`,
    `| Temporal activity tasks / s | ${f(p.temporal.activityTasksPerSecond)} |`,
    `| Temporal server CPU (cores, all services) | ${f(p.temporal.cores, 2)} |`,
    `| History shards | ${p.temporal.shards} |`,
    `| Temporal history kept (GiB, before its database's own overhead) | ${f(p.temporal.historyGiBRetained)} |`,
    `| API CPU (cores) → replicas | ${f(p.apiCores, 2)} → ${p.apiReplicas} |`,
    `| Worker CPU (cores) → replicas | ${f(p.workerCores, 2)} → ${p.workerReplicas} |`,
    `| App PostgreSQL statements / s | ${f(p.postgres.statementsPerSecond, 0)} |`,
    `| App PostgreSQL CPU (cores) | ${f(p.postgres.cores, 2)} |`,
    `| App PostgreSQL data kept (GiB) | ${f(p.postgres.GiBRetained)} |`,
  ].join('\n');
}
