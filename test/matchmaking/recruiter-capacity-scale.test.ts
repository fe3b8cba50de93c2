import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { createJob, createLiveEvent, join, matchmakingActivities } from '../matches/fixtures';
import { roundsWithin } from '../helpers/deadline';
import { pool } from '#bench/support/pool';

/**
 * Recruiter capacity at scale: as many seekers as join within the time (at least 150, at most
 * 1,000) × 50 recruiter slots (two events; 6 and 4 recruiters with capacity 5 each), joins landing
 * while extra matching rounds run concurrently from this process: exactly 50 matches, zero seekers
 * matched twice, zero recruiters or events over capacity — asserted in SQL. SCALE_SEEKERS lowers the
 * most; the joins stop at JOIN_SECONDS (scaled by SCALE_SECONDS_FACTOR) once the minimum is in.
 */
const MAX_SEEKERS = Number(process.env.SCALE_SEEKERS ?? 1000);
/** Three times the slots: every recruiter can fill its capacity from either event's share. */
const MIN_SEEKERS = Math.min(150, MAX_SEEKERS);
const JOIN_SECONDS = 120;
/** Seekers made and joined per round; joins run this many at once (a client pool, not a stampede). */
const BATCH = 25;
const CONCURRENCY = 8;

describe('recruiter capacity at scale', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '50',
        QUEUE_ENTRY_TTL_MS: '600000',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        RATE_LIMIT_WRITE_PER_MIN: '1000000',
        RATE_LIMIT_READ_PER_MIN: '1000000',
      },
    });
  }, 60_000);
  afterAll(async () => h?.close());

  it(`up to ${MAX_SEEKERS} seekers, 50 recruiter slots: zero double matches, zero over capacity`, async () => {
    const owner = await h.recruiter();
    const teamId = owner.teamId!;
    const events = [
      await createLiveEvent(h, { teamId, slots: 40, visibility: 'open_invite' }),
      await createLiveEvent(h, { teamId, slots: 40, visibility: 'open_invite' }),
    ];
    for (const e of events) await createJob(h, { event: e });
    const recruiters: TestUser[] = [owner];
    for (let i = 1; i < 10; i++) recruiters.push(await h.recruiter({ teamId }));
    for (const [i, r] of recruiters.entries()) {
      const res = await h.call({
        method: 'PUT',
        url: `/api/v1/team/live-events/${events[i < 6 ? 0 : 1].id}/availability`,
        token: r.token,
        payload: { available: true, capacity: 5 },
      });
      expect(res.statusCode).toBe(200);
    }

    const activities = matchmakingActivities(h);
    let joining = true;
    const extraRounds = h.background(async (signal) =>
      Promise.all(
        [0, 1].map(async () => {
          while (joining && !signal.aborted) await activities.runMatchingRound({ batchSize: 500 });
        }),
      ),
    );
    // Rounds of BATCH new seekers joining while the matching rounds run, until the time is up.
    let joined = 0;
    try {
      await roundsWithin(
        {
          seconds: JOIN_SECONDS,
          min: Math.ceil(MIN_SEEKERS / BATCH),
          max: Math.ceil(MAX_SEEKERS / BATCH),
          signal: h.signal,
        },
        async () => {
          const batch: TestUser[] = [];
          for (let i = 0; i < BATCH && joined + batch.length < MAX_SEEKERS; i++) batch.push(await h.seeker());
          await pool(batch, CONCURRENCY, async (s, k) => {
            const i = joined + k;
            await join(h, s, i % 2 === 0 ? events[i % 4 === 0 ? 0 : 1].slug : undefined);
          });
          joined += batch.length;
        },
      );
    } finally {
      joining = false;
      await extraRounds;
    }
    expect(joined).toBeGreaterThanOrEqual(MIN_SEEKERS);
    await eventually(
      async () => Number((await h.knex('matches').count<{ n: string }[]>({ n: '*' }))[0].n) === 50,
      60_000,
    );
    // One more round from here, after the joins: nothing more can be offered.
    expect((await activities.runMatchingRound({ batchSize: 500 })).offered).toBe(0);

    const sql = async (q: string) => (await h.knex.raw(q)).rows;
    expect(await sql('SELECT seeker_user_id FROM matches GROUP BY 1 HAVING count(*) > 1')).toEqual([]);
    expect(
      await sql(
        "SELECT seeker_user_id FROM match_offers WHERE status IN ('offering', 'started') GROUP BY " +
          '1 HAVING count(*) > 1',
      ),
    ).toEqual([]);
    expect(
      await sql(`SELECT r.user_id FROM recruiter_availability r
                  WHERE r.capacity < (SELECT count(*) FROM match_offers o WHERE o.live_event_id = r.live_event_id AND o.recruiter_user_id = r.user_id AND o.status IN ('offering', 'started'))`),
    ).toEqual([]);
    expect(
      await sql(
        'SELECT e.id FROM live_events e WHERE e.interview_slots < (SELECT count(*) FROM matches m ' +
          "WHERE m.live_event_id = e.id AND m.status IN ('matched', 'accepted'))",
      ),
    ).toEqual([]);
    // Every match names a recruiter available at its event; each recruiter got exactly their capacity.
    expect(
      await sql(
        'SELECT m.id FROM matches m LEFT JOIN recruiter_availability r ON r.live_event_id = ' +
          'm.live_event_id AND r.user_id = m.recruiter_user_id WHERE r.user_id IS NULL',
      ),
    ).toEqual([]);
    const per = await sql('SELECT recruiter_user_id, count(*)::int AS n FROM matches GROUP BY 1');
    expect(per).toHaveLength(10);
    expect(per.every((r: { n: number }) => r.n === 5)).toBe(true);
  }, 600_000);
});
