import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { createJob, createLiveEvent, join, matchmakingActivities } from '../matches/fixtures';
import { roundsWithin } from '../helpers/deadline';
import { queueEntryWorkflowId, offerUpdate, matchClosedSignal, queueEntryStateQuery } from '#workflows/queue/contract';

/**
 * Many seekers join at once while 10 interview slots exist (three events) and extra matching rounds
 * run concurrently from this process next to the matchmaker workflow: no seeker is in two matches
 * and no event is ever over capacity — asserted in SQL. As many seekers as are made within
 * SEEKER_SECONDS (at least 60, each event's queue more than full; at most 200) join together.
 */
const SEEKER_SECONDS = 40;
const MIN_SEEKERS = 60;
const MAX_SEEKERS = 200;
describe('matchmaking under concurrency', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '20',
        QUEUE_ENTRY_TTL_MS: '600000',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        DATABASE_POOL_MAX: '20',
      },
    });
  });
  afterAll(async () => h?.close());

  // 200 joins and their rounds take minutes on a loaded 2-core machine, not the default minute.
  it('many seekers at once, 10 slots: exactly 10 matches, none over capacity, no seeker twice', async () => {
    const rec = await h.recruiter();
    const events = [
      await createLiveEvent(h, { teamId: rec.teamId!, slots: 4, visibility: 'open_invite' }),
      await createLiveEvent(h, { teamId: rec.teamId!, slots: 3, visibility: 'open_invite' }),
      await createLiveEvent(h, { teamId: rec.teamId!, slots: 3, visibility: 'private' }),
    ];
    for (const e of events) {
      await createJob(h, { event: e, title: `Job A ${e.slug}` });
      await createJob(h, { event: e, title: `Job B ${e.slug}`, essential_skills: ['Go'] });
    }
    const seekers: TestUser[] = await roundsWithin(
      { seconds: SEEKER_SECONDS, min: MIN_SEEKERS, max: MAX_SEEKERS, signal: h.signal },
      () => h.seeker(),
    );

    // Concurrent matching rounds from this process while the joins land.
    const activities = matchmakingActivities(h);
    let joining = true;
    const extraRounds = h.background((signal) =>
      Promise.all(
        [0, 1, 2, 3].map(async () => {
          let rounds = 0;
          while ((joining || rounds < 2) && !signal.aborted) {
            await activities.runMatchingRound({ batchSize: 500 });
            rounds++;
          }
          return rounds;
        }),
      ),
    );
    // A third of the seekers wait for one event each, the rest for any event.
    const joined = await Promise.all(
      seekers.map((s, i) => join(h, s, i % 3 === 0 ? events[(i / 3) % 3].slug : undefined)),
    );
    joining = false;
    expect(new Set(joined.map((j) => j.queue_id)).size).toBe(seekers.length);
    await extraRounds;

    await eventually(async () => {
      const [{ n }] = await h.knex('matches').count({ n: '*' });
      return Number(n) === 10;
    }, 30_000);
    // One more whole round after the count was reached: it saw every held slot, so anything that
    // could still appear would come from it (no fixed sleep; the invariants below hold at any moment).
    await activities.runMatchingRound({ batchSize: 500 });

    const perEvent = await h.knex.raw(
      `
      SELECT e.id, e.interview_slots,
        (SELECT count(*)::int FROM matches m WHERE m.live_event_id = e.id AND m.status IN ('matched', 'accepted')) AS active_matches,
        (SELECT count(*)::int FROM match_offers o WHERE o.live_event_id = e.id AND o.status IN ('offering', 'started')) AS held
      FROM live_events e WHERE e.id = ANY(?)`,
      [events.map((e) => e.id)],
    );
    for (const row of perEvent.rows) {
      expect(row.active_matches).toBeLessThanOrEqual(row.interview_slots);
      expect(row.held).toBeLessThanOrEqual(row.interview_slots);
      // Enough demand for every event: each is exactly full.
      expect(row.active_matches).toBe(row.interview_slots);
    }
    const twice = await h.knex.raw('SELECT seeker_user_id FROM matches GROUP BY seeker_user_id HAVING count(*) > 1');
    expect(twice.rows).toEqual([]);
    const [{ n: total }] = await h.knex('matches').count({ n: '*' });
    expect(Number(total)).toBe(10);

    // Every match is reflected on exactly its seeker's entry; everybody else still waits.
    const entries = await h.knex('queue_entries').select('status', 'match_id', 'user_id', 'live_event_id');
    expect(entries.filter((e) => e.status === 'matched')).toHaveLength(10);
    expect(entries.filter((e) => e.status === 'waiting')).toHaveLength(seekers.length - 10);
    const matches = await h.knex('matches').select('id', 'seeker_user_id', 'live_event_id');
    for (const m of matches) {
      const entry = entries.find((e) => e.user_id === m.seeker_user_id)!;
      expect(entry.match_id).toBe(m.id);
      // An entry for one event is only matched into that event.
      if (entry.live_event_id) expect(m.live_event_id).toBe(entry.live_event_id);
      // "Any event" entries never go to the private event.
      else expect(m.live_event_id).not.toBe(events[2].id);
    }
    // The private event's slots went to its own queue.
    expect(matches.filter((m) => m.live_event_id === events[2].id)).toHaveLength(3);
  }, 180_000);

  it('the queue entry is the arbiter: it accepts one offer and refuses any other', async () => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 0 });
    const job = await createJob(h, { event });
    const s = await h.seeker();
    const j = await join(h, s, event.slug);
    const handle = h.temporal.workflow.getHandle(queueEntryWorkflowId(s.user.id));
    const offer = (matchId: string) =>
      handle.executeUpdate(offerUpdate, {
        args: [{ matchId, queueId: j.queue_id, jobId: job.id, liveEventId: event.id }],
      });
    const ids = [
      '6f0c1a52-8a4f-4a8e-9d43-000000000001',
      '6f0c1a52-8a4f-4a8e-9d43-000000000002',
      '6f0c1a52-8a4f-4a8e-9d43-000000000003',
    ];
    const results = await Promise.allSettled(ids.map(offer));
    const accepted = results.filter((r) => r.status === 'fulfilled');
    expect(accepted).toHaveLength(1);
    const winner = ids[results.findIndex((r) => r.status === 'fulfilled')];
    // The accepted offer re-sent answers the same; another is refused.
    await expect(offer(winner)).resolves.toMatchObject({
      accepted: true,
      state: { matchId: winner, status: 'matched' },
    });
    await expect(offer(ids.find((id) => id !== winner)!)).rejects.toThrow();
    // An offer for another entry id (an older entry of the seeker) is refused.
    await expect(
      handle.executeUpdate(offerUpdate, {
        args: [
          {
            matchId: '6f0c1a52-8a4f-4a8e-9d43-000000000004',
            queueId: '6f0c1a52-8a4f-4a8e-9d43-0000000000ff',
            jobId: job.id,
            liveEventId: event.id,
          },
        ],
      }),
    ).rejects.toThrow();
    const row = await h.knex('queue_entries').where({ id: j.queue_id }).first();
    expect(row).toMatchObject({ status: 'matched', match_id: winner });

    // The match is declined: the entry waits again, and the closed match's offer re-sent (a retried
    // round attempt) is refused — the seeker is never bound to a dead match — while a new one is taken.
    await handle.signal(matchClosedSignal, { matchId: winner, outcome: 'declined' });
    await eventually(async () => (await handle.query(queueEntryStateQuery)).status === 'waiting', 30_000);
    await expect(offer(winner)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/already closed/) } });
    const fresh = '6f0c1a52-8a4f-4a8e-9d43-000000000005';
    await expect(offer(fresh)).resolves.toMatchObject({ accepted: true, state: { matchId: fresh, status: 'matched' } });
  });
});
