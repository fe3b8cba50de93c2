import { markdown, matchingRows, webhookRows, type TableHeader } from '#bench/support/table';

const header: TableHeader = {
  machine: 'CPU, 2 cores, 8.0 GiB',
  node: 'v22.0.0',
  temporal: 'server 1.29.1 on its own PostgreSQL, 4 history shards',
  commit: 'abc1234',
  mode: 'quick',
  loadStart: '1.00 2.00 3.00',
  loadEnd: '4.00 5.00 6.00',
  date: '2026-11-26T21:00:00.000Z',
  rounds: 3,
  connections: 50,
};

describe('the performance table', () => {
  it('names the shape and both load averages in its header, only when a shape is given', () => {
    const withShape = markdown({ ...header, shape: '2 APIs behind nginx, 2 workers' }, []).split('\n');
    expect(withShape[1]).toBe('Shape: 2 APIs behind nginx, 2 workers');
    expect(withShape[2]).toBe(
      'Load average (1/5/15 min): start 1.00 2.00 3.00, end 4.00 5.00 6.00 · 2026-11-26T21:00:00.000Z · 3 ' +
        'interleaved rounds, median; HTTP: 50 connections',
    );
    expect(markdown(header, []).split('\n')[1]).toMatch(/^Load average/);
  });

  it('prints a row with its ceiling, ratio and latencies; small figures with two decimals, missing ones as —', () => {
    const lines = markdown(header, [
      {
        section: 'queue',
        name: 'POST /queue/join',
        unit: 'ms p99',
        ours: 1234.4,
        ceiling: 617.2,
        ratio: 2,
        oursP50: 50.04,
        oursP99: 1234.4,
        ceilingP50: 40,
        ceilingP99: 617.2,
        target: '≤ 2× (p99)',
        note: 'n',
      },
      { section: 'memory', name: 'worker RSS', unit: 'MiB', ours: 3.456, ceiling: null, ratio: null },
      { section: 'memory', name: 'gone', unit: 'MiB', ours: NaN, ceiling: null, ratio: null },
    ]).split('\n');
    expect(lines.slice(-3)).toEqual([
      '| queue | POST /queue/join | ms p99 | 1,234 | 617 | 2.00× | 50.0 / 1,234.4 | 40.0 / 617.2 | ≤ 2× (p99) | n |',
      '| memory | worker RSS | MiB | 3.46 | — | — |  |  |  |  |',
      '| memory | gone | MiB | — | — | — |  |  |  |  |',
    ]);
  });

  it('reads the matching and webhook benches’ results into rows, or says why they are missing', () => {
    const slot = matchingRows({ slotToOfferMs: { p50: 80, p95: 120, samples: 8 }, rounds: [] }, '');
    expect(slot).toEqual([expect.objectContaining({ name: 'slot freed → offer (8 samples)', ours: 120, oursP50: 80 })]);
    const hooks = webhookRows(
      {
        events: 10,
        subscriptions: 2,
        deliveriesPerSec: 100,
        bareWorkflowPerSec: 10,
        rawSignedPostsPerSec: 1000,
        firstAttemptMs: { p50: 5, p99: 20 },
        lost: 0,
        duplicated: 0,
        badSignatures: 0,
      },
      '',
    );
    expect(hooks.map((r) => r.ratio)).toEqual([10, 0.1, null]);
    expect(webhookRows(null, 'it failed')[0].note).toBe('not measured: it failed');
  });
});
