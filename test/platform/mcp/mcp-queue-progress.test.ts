import type { Client } from '@modelcontextprotocol/client';
import { createHarness, eventually, type Harness } from '../../helpers/harness';
import { createJob, liveEvent } from '../../events/helpers';
import { join } from '../../matches/fixtures';
import { httpClient, listen } from './helpers';

describe('MCP: waiting in the queue is reported by progress notifications (official client)', () => {
  let h: Harness;
  let base: string;
  const clients: Client[] = [];
  const connect = async (token: string) => {
    const c = await httpClient(base, { token });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '50',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        QUEUE_ENTRY_TTL_MS: '600000',
        MCP_WAIT_PROGRESS_INTERVAL_MS: '100',
        MCP_WAIT_MAX_MS: '30000',
        RATE_LIMIT_READ_PER_MIN: '10000',
      },
    });
    base = await listen(h);
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await h?.close();
  });

  it(
    'svc_queue_status with a progressToken stays open while the entry waits, reports each change of ' +
      'position, and answers once matched; without one it answers at once (polling)',
    async () => {
      const rec = await h.recruiter();
      const ev = await liveEvent(h, rec); // no job yet: nobody can be matched
      const ahead = await h.seeker();
      const me = await h.seeker();
      await join(h, ahead, ev.slug);
      await join(h, me, ev.slug);
      const c = await connect(me.token);

      // Polling: the answer comes at once, still waiting.
      const polled = await c.callTool({ name: 'svc_queue_status', arguments: {} });
      expect(polled.structuredContent).toMatchObject({ queue_entry: { status: 'waiting', position: 2 } });

      const progress: Array<{ progress: number; message?: string }> = [];
      const started = Date.now();
      const waiting = c.callTool(
        { name: 'svc_queue_status', arguments: {} },
        {
          onprogress: (p) => progress.push(p),
          resetTimeoutOnProgress: true,
        },
      );
      await eventually(async () => progress.length >= 1);
      expect(progress[0].message).toMatch(/^Waiting in the queue: position 2/);

      // The seeker ahead leaves: the call reports position 1 without being asked again.
      await h.call({ method: 'POST', url: '/api/v1/queue/leave', token: ahead.token });
      await eventually(async () => progress.some((p) => /position 1/.test(p.message ?? '')));

      // A job that fits: the matchmaker matches; the open call answers with the match.
      await createJob(h, rec, ev.id, { essential_skills: ['TypeScript'] });
      const done = await waiting;
      expect(done.isError).toBeFalsy();
      expect(done.structuredContent).toMatchObject({
        queue_entry: { status: 'matched', match_id: expect.any(String), details_url: expect.any(String) },
      });
      expect(Date.now() - started).toBeLessThan(30_000);
      // Progress values increase, one notification per change (not one per re-read).
      expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
      expect(new Set(progress.map((p) => p.message)).size).toBe(progress.length);
    },
  );

  it('a progressToken on a tool that does not wait changes nothing', async () => {
    const s = await h.seeker();
    const c = await connect(s.token);
    const progress: unknown[] = [];
    const r = await c.callTool(
      { name: 'svc_profile_get', arguments: {} },
      {
        onprogress: (p) => progress.push(p),
      },
    );
    expect(r.isError).toBeFalsy();
    expect(progress).toEqual([]);
  });

  // Last: it closes the app.
  it('an API shutting down ends a waiting call at once: it answers with the current status', async () => {
    const rec = await h.recruiter();
    const ev = await liveEvent(h, rec);
    const s = await h.seeker();
    await join(h, s, ev.slug);
    const c = await connect(s.token);
    const progress: unknown[] = [];
    const waiting = c.callTool({ name: 'svc_queue_status', arguments: {} }, { onprogress: (p) => progress.push(p) });
    await eventually(async () => progress.length >= 1);
    const started = Date.now();
    await h.app.close();
    // MCP_WAIT_MAX_MS is 30 s; without the stop the SDK's close cuts the call off with no result.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await waiting).structuredContent).toMatchObject({ queue_entry: { status: 'waiting' } });
  });
});
