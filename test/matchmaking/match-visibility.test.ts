import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { createJob, createLiveEvent, join, kick, matchOf, matchesService } from '../matches/fixtures';
import { roundsWithin } from '../helpers/deadline';

/**
 * No answer names a match that the API cannot find. Every
 * seeker is polled in a tight loop: the moment `GET /queue/status` says `matched`, `GET /matches`
 * must list that match and a decline must work (never 404). Declines free the slots, so matches
 * are observed one status read after they appear. Sized to time, not a count: seekers join for
 * JOIN_SECONDS (at least MIN_SEEKERS, at most 200), the pollers watch for OBSERVE_SECONDS, and the
 * property holds over every match observed (at least MIN_OBSERVED).
 */
const MAX_SEEKERS = 200;
const MIN_SEEKERS = 40;
const JOIN_SECONDS = 60;
const OBSERVE_SECONDS = 150;
/** More than the event's 10 slots: declines must free slots and the matchmaker refill them. */
const MIN_OBSERVED = 30;
describe('match visibility (no race)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '50',
        QUEUE_ENTRY_TTL_MS: '600000',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        RATE_LIMIT_READ_PER_MIN: '1000000',
        RATE_LIMIT_WRITE_PER_MIN: '1000000',
      },
    });
  }, 60_000);
  afterAll(async () => h?.close());

  it('status `matched` implies GET /matches lists it and decline finds it: zero misses', async () => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 10 });
    await createJob(h, { event, title: 'Race Engineer' });
    const seekers: TestUser[] = await roundsWithin(
      { seconds: JOIN_SECONDS, min: MIN_SEEKERS, max: MAX_SEEKERS, signal: h.signal },
      async () => {
        const s = await h.seeker();
        await join(h, s, event.slug);
        return s;
      },
    );
    await kick(h);

    const pending = new Set(seekers);
    const misses: string[] = [];
    let observed = 0;
    const deadline = Date.now() + OBSERVE_SECONDS * 1000 * Number(process.env.SCALE_SECONDS_FACTOR ?? 1);
    // Each poller owns a quarter of the seekers, so no two observe the same match.
    const poller = async (k: number, signal: AbortSignal) => {
      const mine = seekers.filter((_, i) => i % 4 === k);
      while (mine.some((s) => pending.has(s)) && Date.now() < deadline && !signal.aborted) {
        for (const s of mine) {
          if (!pending.has(s) || signal.aborted) continue;
          const status = (await h.call({ method: 'GET', url: '/api/v1/queue/status', token: s.token })).json()
            .queue_entry;
          if (status?.status !== 'matched') continue;
          pending.delete(s);
          const list = (await h.call({ method: 'GET', url: '/api/v1/matches', token: s.token })).json();
          if (!list.matches?.some((m: { id: string }) => m.id === status.match_id))
            misses.push(`list ${status.match_id}`);
          const declined = await h.call({
            method: 'POST',
            url: `/api/v1/matches/${status.match_id}/decline`,
            token: s.token,
            payload: { reason: 'testing the race' },
          });
          if (declined.statusCode !== 200)
            misses.push(`decline ${status.match_id}: ${declined.statusCode} ${declined.body}`);
          observed++;
        }
      }
    };
    await h.background((signal) => Promise.all([0, 1, 2, 3].map((k) => poller(k, signal))));
    expect(misses).toEqual([]);
    expect(observed).toBeGreaterThanOrEqual(Math.min(MIN_OBSERVED, seekers.length));
  }, 300_000);

  it(
    'accept refuses past expires_at (even before the expiry timer fires) and a retried accept ' + 'answers success',
    async () => {
      const rec = await h.recruiter();
      await h.knex('team_settings').insert({ team_id: rec.teamId, auto_accept_matches: true });
      const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 2 });
      await createJob(h, { event });
      const [a, b] = [await h.seeker(), await h.seeker()];
      await join(h, a, event.slug);
      await join(h, b, event.slug);
      const ma = await matchOf(h, a.user.id);
      const mb = await matchOf(h, b.user.id);
      const svc = matchesService(h);

      // The run's first projection writes expires_at from its own state: wait until it has (it
      // comes before match.matched), so it cannot overwrite the window moved into the past below.
      await eventually(async () =>
        h.knex('domain_events').where({ type: 'match.matched' }).whereRaw("data->>'match_id' = ?", [ma.id]).first(),
      );
      // The acceptance window has passed for `a` (its timer is still 10 minutes away): refused.
      await h
        .knex('matches')
        .where({ id: ma.id })
        .update({ expires_at: new Date(Date.now() - 1_000) });
      await expect(svc.accept({ userId: a.user.id, matchId: ma.id })).rejects.toMatchObject({
        status: 409,
        code: 'MATCH_NOT_ACCEPTABLE',
        details: { status: 'expired' },
      });

      // `b` accepts; the answer is lost and the retry comes after the interview ended: still success.
      expect((await svc.accept({ userId: b.user.id, matchId: mb.id })).match.status).toBe('accepted');
      await svc.completeInterview({ userId: b.user.id, matchId: mb.id });
      await eventually(async () => (await h.knex('matches').where({ id: mb.id }).first())?.status === 'completed');
      const retried = await svc.accept({ userId: b.user.id, matchId: mb.id });
      expect(retried.match).toMatchObject({ id: mb.id, status: 'completed' });
    },
    60_000,
  );
});
