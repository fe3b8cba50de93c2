import { createHarness, type Harness, type TestUser } from '../helpers/harness';
import { createJob, createLiveEvent, join, queueStatus, setEventStatus } from '../matches/fixtures';

/**
 * `GET /queue/status` is what every waiting seeker's agent polls (every 5 s): most of the API's
 * requests at the target workload (docs/capacity.md). Its cost in SQL statements is bounded here
 * so it cannot grow back unnoticed: the seeker's own rows, its event and the queue's stamps in one
 * statement, the event's room in a second; the open jobs and the match rate, the same for every
 * seeker of the queue, are reused while the stamps say they have not changed. The answer stays
 * what the wait explanation says read afresh, and a change shows at once.
 */
describe('queue status: statements per read, and the same answer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        QUEUE_ENTRY_TTL_MS: '600000',
        MATCHMAKER_INTERVAL_MS: '100',
        // The rate is kept for the whole test unless a match is made: the count is exact.
        QUEUE_STATUS_RATE_CACHE_MS: '60000',
      },
    });
  }, 60_000);
  afterAll(async () => h?.close());

  /** The statements the app's pool ran while `f` ran. */
  const statementsOf = async <T>(f: () => Promise<T>): Promise<{ result: T; sql: string[] }> => {
    const sql: string[] = [];
    const onQuery = (q: { sql: string }) => sql.push(q.sql.replace(/\s+/g, ' '));
    h.knex.on('query', onQuery);
    try {
      return { result: await f(), sql };
    } finally {
      h.knex.off('query', onQuery);
    }
  };

  it('reads a waiting seeker with one statement of their own once the queue has been read', async () => {
    const r = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 2, visibility: 'open_invite' });
    await createJob(h, { event, essential_skills: ['TypeScript'] });
    // No recruiter available: the seekers fit the job but wait, so the estimate reads the match rate too.
    const off = await h.call({
      method: 'PUT',
      url: `/api/v1/team/live-events/${event.id}/availability`,
      token: r.token,
      payload: { available: false },
    });
    expect(off.statusCode).toBe(200);
    const seekers: TestUser[] = [];
    for (let i = 0; i < 4; i++) {
      const s = await h.seeker();
      await join(h, s, event.slug);
      seekers.push(s);
    }
    for (const s of seekers) expect((await queueStatus(h, s)).status).toBe('waiting');

    // Every seeker polls three times: after the queue's first read, two statements a read. Before:
    // ten (the entry, its position, event, profile, offer, tried and blocked pairs, room, jobs,
    // rate), each on its own.
    const counts: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const s of seekers) {
        const { result, sql } = await statementsOf(() =>
          h.call({ method: 'GET', url: '/api/v1/queue/status', token: s.token }),
        );
        expect(result.statusCode).toBe(200);
        expect(result.json().queue_entry).toMatchObject({ status: 'waiting', match_outlook: { state: 'matchable' } });
        // The app's background work (the rate limiter's lease, an announcement) may share the window.
        counts.push(sql.filter((q) => !/rate_limit_|changelog_announcements/.test(q)).length);
      }
    }
    expect(counts).toEqual(counts.map(() => 2));
  });

  it('answers what the wait explanation says read afresh, and shows a change in the next read', async () => {
    const r = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 1, visibility: 'open_invite' });
    await createJob(h, { event, essential_skills: ['TypeScript'] });
    // These seekers know only COBOL: the job never passes the floor, nothing is offered.
    const a = await h.seeker({ profile: { skills: ['COBOL'] } });
    const b = await h.seeker({ profile: { skills: ['COBOL'] } });
    await join(h, a, event.slug);
    await join(h, b, event.slug);

    for (const s of [a, b]) {
      const status = await queueStatus(h, s);
      const entry = await h.knex('queue_entries').where({ user_id: s.user.id, status: 'waiting' }).first();
      // The ops command's wait service reads everything afresh, every time.
      const fresh = await h.app.services.matchmaking.wait.explain(entry);
      expect(status.position).toBe(fresh.position);
      expect(status.match_outlook).toMatchObject({
        state: fresh.explanation.outlook,
        reason: fresh.explanation.reason,
        blocked_by: fresh.explanation.blocker,
        eligible_jobs: fresh.explanation.eligibleJobs,
        passing_jobs: fresh.explanation.passingJobs,
      });
      expect(status.estimated_wait_seconds).toBe(fresh.estimate.seconds);
      expect(status.estimated_wait?.reason).toBe(fresh.estimate.reason);
    }
    expect((await queueStatus(h, b)).position).toBe((await queueStatus(h, a)).position + 1);

    // A change shows in the very next read: a new job (its version moves), the event paused.
    const before = await queueStatus(h, a);
    await createJob(h, { event, title: 'Frontend Engineer', essential_skills: ['TypeScript'] });
    const more = await queueStatus(h, a);
    expect(more.match_outlook.reason).not.toBe(before.match_outlook.reason);
    expect(more.match_outlook.reason).toMatch(/of 2 open jobs/);
    await setEventStatus(h, event.id, 'paused');
    expect((await queueStatus(h, a)).match_outlook).toMatchObject({ state: 'event_paused', eligible_jobs: null });
    await setEventStatus(h, event.id, 'live');
    expect((await queueStatus(h, a)).match_outlook.state).toBe('no_eligible_job');
  });
});
