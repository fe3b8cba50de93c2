import {
  capacityModel,
  HINTED_POLL_MIX,
  pollsPerSecond,
  replicasFor,
  TARGET_WORKLOAD,
  TARGET_WORKLOAD_HINTED,
  type OperationCost,
} from '#bench/support/capacity-model';

/** An operation costing `k` of everything (1 CPU ms per process at k = 1). */
const op = (name: string, k: number): OperationCost => ({
  name,
  n: 10,
  historyEvents: 10 * k,
  workflowTasks: 2 * k,
  activityTasks: 3 * k,
  timers: 0,
  workflowRuns: 1,
  historyBytes: 1000 * k,
  sqlStatements: 5 * k,
  rowsAdded: name === 'match' ? { matches: 1, queue_entries: 1 } : name === 'join' ? { queue_entries: 1 } : {},
  cpuMs: { api: k, worker: k, temporal: k, postgres: k },
  wallMsP50: 1,
});

describe('the capacity model', () => {
  const costs = ['join', 'leave', 'match', 'webhook', 'status', 'search'].map((n) => op(n, n === 'match' ? 10 : 1));
  const workload = {
    ...TARGET_WORKLOAD,
    matchesPerDay: 36_000,
    webhookDeliveriesPerDay: 72_000,
    joinsPerMatch: 2,
    waitingSeekers: 500,
    pollingShare: 1,
    pollEverySeconds: 5,
    searchesPerJoin: 1,
    searchOriginShare: 0.5,
    activeHoursPerDay: 10,
    peakToMean: 2,
  };

  it('turns a day into peak rates: the day in its active hours, times the peak factor', () => {
    const plan = capacityModel(costs, {}, workload);
    // 36,000 matches over 36,000 active seconds, doubled at the peak.
    expect(plan.peakPerSecond.match).toBeCloseTo(2);
    // 72,000 joins, half of them ending in a match: 36,000 joins and leaves that do not.
    expect(plan.peakPerSecond.join).toBeCloseTo(2);
    expect(plan.peakPerSecond.leave).toBeCloseTo(2);
    expect(plan.peakPerSecond.webhook).toBeCloseTo(4);
    // Waiting seekers poll at their own pace, not the day's: 500 every 5 s.
    expect(plan.peakPerSecond.status).toBeCloseTo(100);
    // 72,000 searches, half reaching the origin.
    expect(plan.peakPerSecond.search).toBeCloseTo(2);
  });

  it('with the poll hint honoured, the status rate follows the assumed mix of states', () => {
    const mix = [
      { state: 'due', share: 0.5, everySeconds: 5 },
      { state: 'paused', share: 0.5, everySeconds: 50 },
    ];
    // 500 seekers: 250 every 5 s and 250 every 50 s.
    expect(capacityModel(costs, {}, { ...workload, pollMix: mix }).peakPerSecond.status).toBeCloseTo(55);
    // The documented input: shares that add up to all waiting seekers, none polling under the 5 s floor.
    expect(HINTED_POLL_MIX.reduce((a, s) => a + s.share, 0)).toBeCloseTo(1);
    expect(Math.min(...HINTED_POLL_MIX.map((s) => s.everySeconds))).toBe(5);
    expect(pollsPerSecond(TARGET_WORKLOAD_HINTED)).toBeCloseTo(0.07);
    expect(pollsPerSecond(TARGET_WORKLOAD)).toBeCloseTo(0.2);
  });

  it('adds up the costs at those rates', () => {
    const plan = capacityModel(costs, {}, workload);
    // Per second: match 2 × 10 + (join 2 + leave 2 + webhook 4 + status 100 + search 2) × 1 = 130 CPU ms.
    expect(plan.apiCores).toBeCloseTo(0.13);
    expect(plan.temporal.workflowTasksPerSecond).toBeCloseTo(260);
    expect(plan.postgres.statementsPerSecond).toBeCloseTo(650);
    // 512 is the floor; 260 tasks/s × 10 for growth ÷ 10 per shard = 260 → 512.
    expect(plan.temporal.shards).toBe(512);
    expect(capacityModel(costs, {}, { ...workload, waitingSeekers: 5_000 }).temporal.shards).toBe(4096);
  });

  it('keeps the data of its retention', () => {
    const plan = capacityModel(
      costs,
      { matches: { bytesPerRow: 1024 }, queue_entries: { bytesPerRow: 512 } },
      { ...workload, appRetentionDays: 1, indexAndFreeSpaceFactor: 2 },
    );
    // 36,000 interviews leave a match and an entry; 36,000 other joins an entry each; times 2 for indexes.
    expect(plan.postgres.GiBRetained).toBeCloseTo(((36_000 * (1024 + 512) + 36_000 * 512) * 2) / 2 ** 30);
    // History per day: 36,000 matches × 10,000 B + 36,000 × (join + leave) 2,000 B + 72,000 webhooks × 1,000 B, for a week.
    expect(plan.temporal.historyGiBRetained).toBeCloseTo(
      ((36_000 * 10_000 + 36_000 * 2_000 + 72_000 * 1_000) * 7) / 2 ** 30,
    );
  });

  it('stops a pruned table growing after its retention', () => {
    const rowBytes = { matches: { bytesPerRow: 1024 }, queue_entries: { bytesPerRow: 512 } };
    const w = { ...workload, appRetentionDays: 90, indexAndFreeSpaceFactor: 1 };
    const kept = capacityModel(costs, rowBytes, { ...w, prunedTableDays: {} }).postgres.GiBRetained;
    const pruned = capacityModel(costs, rowBytes, { ...w, prunedTableDays: { queue_entries: 30 } }).postgres
      .GiBRetained;
    // Entries (72,000 a day × 512 B) kept 30 days instead of 90; matches (36,000 × 1,024 B) all 90.
    expect(kept - pruned).toBeCloseTo((72_000 * 512 * 60) / 2 ** 30);
    expect(pruned).toBeCloseTo((36_000 * 1024 * 90 + 72_000 * 512 * 30) / 2 ** 30);
  });

  it('plans a spare replica and never fewer than two', () => {
    expect(replicasFor(0.01, 0.6)).toBe(2);
    expect(replicasFor(1.3, 0.6)).toBe(4);
  });

  it('refuses a plan without a measured operation', () => {
    expect(() => capacityModel(costs.slice(1), {}, workload)).toThrow(/no measured cost for "join"/);
  });
});
