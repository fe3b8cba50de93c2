import type { Client } from '@modelcontextprotocol/client';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import {
  createJob,
  createLiveEvent,
  join,
  kick,
  queueStatus,
  roundCompleted,
  setEventStatus,
  setSlots,
} from '../matches/fixtures';
import { httpClient, listen } from '../platform/mcp/helpers';

/**
 * `poll_after_seconds` on the queue status: short while something can change soon, longer while
 * nothing the queue does can, null once the entry has ended; the MCP tool answers the same field.
 * The matchmaker's batch window is ten minutes here, so after the join's own round only the rounds
 * the test runs (`roundCompleted`) change an entry.
 */
describe('queue status: when to poll again', () => {
  let h: Harness;
  let base: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '600000',
        QUEUE_ENTRY_TTL_MS: '600000',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        RATE_LIMIT_READ_PER_MIN: '10000',
        // A waiting MCP call re-reads every 100 ms × the hint ÷ 5, for 3 s.
        MCP_WAIT_PROGRESS_INTERVAL_MS: '100',
        MCP_WAIT_MAX_MS: '3000',
      },
    });
    base = await listen(h);
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await h?.close();
  });

  it(
    'a full event: 15 s (nobody can say when a slot frees); a free slot and an eligible job: 5 s; ' +
      'matched, the match awaiting the answer: 5 s; left: null',
    async () => {
      const r = await h.recruiter();
      const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 0 });
      await createJob(h, { event, essential_skills: ['TypeScript'] });
      const s = await h.seeker();
      const joined = await join(h, s, event.slug);
      expect(joined.poll_after_seconds).toBe(15);
      // A round that saw the full event has run (the join's own kick, or this one): no offer.
      await roundCompleted(h);
      const full = await queueStatus(h, s);
      expect(full).toMatchObject({ status: 'waiting', match_outlook: { blocked_by: 'no_free_slot' } });
      expect(full.estimated_wait_seconds).toBeNull();
      expect(full.poll_after_seconds).toBe(15);

      // A slot frees (no kick: the next round is ten minutes away): an offer is due.
      await setSlots(h, event.id, 1);
      const due = await queueStatus(h, s);
      expect(due).toMatchObject({ status: 'waiting', match_outlook: { state: 'matchable', blocked_by: null } });
      expect(due.poll_after_seconds).toBe(5);

      // A round makes the offer: matched, the person's answer awaited.
      await roundCompleted(h);
      const matched = await eventually(async () => {
        const e = await queueStatus(h, s);
        return e.status === 'matched' ? e : null;
      });
      expect(matched.poll_after_seconds).toBe(5);

      // Leaving declines the match and ends the entry: stop polling.
      const left = await h.call({ method: 'POST', url: '/api/v1/queue/leave', token: s.token });
      expect(left.statusCode).toBe(200);
      expect(left.json().queue_entry).toMatchObject({ status: 'left', poll_after_seconds: null });
      expect((await queueStatus(h, s)).poll_after_seconds).toBeNull();
    },
    60_000,
  );

  it('no eligible job: 60 s, the same over MCP (structured result and output schema)', async () => {
    const r = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 3 });
    const s = await h.seeker();
    await join(h, s, event.slug);
    const rest = await queueStatus(h, s);
    expect(rest).toMatchObject({ status: 'waiting', match_outlook: { state: 'no_eligible_job' } });
    expect(rest.poll_after_seconds).toBe(60);

    const c = await httpClient(base, { token: s.token });
    clients.push(c);
    const { tools } = await c.listTools();
    const tool = tools.find((t) => t.name === 'svc_queue_status')!;
    expect(JSON.stringify(tool.outputSchema)).toContain('poll_after_seconds');
    expect(tool.description).toMatch(/poll_after_seconds/);
    const viaMcp = await c.callTool({ name: 'svc_queue_status', arguments: {} });
    expect(viaMcp.isError).toBeFalsy();
    expect(viaMcp.structuredContent).toMatchObject({
      queue_entry: { id: rest.id, status: 'waiting', poll_after_seconds: 60 },
    });
  });

  it('a paused event: 60 s; live again with a job and a free slot: 5 s', async () => {
    const r = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 0 });
    await createJob(h, { event, essential_skills: ['TypeScript'] });
    const s = await h.seeker();
    await join(h, s, event.slug);
    await roundCompleted(h);
    await setEventStatus(h, event.id, 'paused');
    const paused = await queueStatus(h, s);
    expect(paused).toMatchObject({ status: 'waiting', match_outlook: { state: 'event_paused' } });
    expect(paused.poll_after_seconds).toBe(60);

    await setEventStatus(h, event.id, 'live');
    await setSlots(h, event.id, 1);
    const live = await queueStatus(h, s);
    expect(live).toMatchObject({ status: 'waiting', match_outlook: { blocked_by: null } });
    expect(live.poll_after_seconds).toBe(5);
  });

  it('a waiting MCP call re-reads at the pace of the hint: every 1.2 s at 60 s, every 100 ms at 5 s', async () => {
    const r = await h.recruiter();
    const idle = await createLiveEvent(h, { teamId: r.teamId!, slots: 3 }); // no job: 60 s
    const busy = await createLiveEvent(h, { teamId: r.teamId!, slots: 0 });
    await createJob(h, { event: busy, essential_skills: ['TypeScript'] });
    const slow = await h.seeker();
    const fast = await h.seeker();
    await join(h, slow, idle.slug);
    await join(h, fast, busy.slug);
    await roundCompleted(h);
    await setSlots(h, busy.id, 1); // an offer due, and no round for ten minutes: 5 s
    expect((await queueStatus(h, slow)).poll_after_seconds).toBe(60);
    expect((await queueStatus(h, fast)).poll_after_seconds).toBe(5);

    const reads = jest.spyOn(h.app.services.queue, 'status');
    const waitFor = async (token: string) => {
      const c = await httpClient(base, { token });
      clients.push(c);
      reads.mockClear();
      const done = await c.callTool({ name: 'svc_queue_status', arguments: {} }, { onprogress: () => undefined });
      expect(done.structuredContent).toMatchObject({ queue_entry: { status: 'waiting' } });
      return reads.mock.calls.length;
    };
    try {
      // 3 s at 1.2 s: the first read, then 1.2, 2.4 and the deadline.
      expect(await waitFor(slow.token)).toBeLessThanOrEqual(5);
      // 3 s at 100 ms: about 30 (fewer on a loaded machine).
      expect(await waitFor(fast.token)).toBeGreaterThanOrEqual(10);
    } finally {
      reads.mockRestore();
    }
  });
});
