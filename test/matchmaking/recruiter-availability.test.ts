import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import {
  createJob,
  createLiveEvent,
  join,
  matchOf,
  matchmakingActivities,
  type EventFixture,
} from '../matches/fixtures';

/**
 * Recruiters mark themselves available for an event with their own capacity;
 * offers go round-robin (least recent offer first) to available recruiters with room; a match
 * names its recruiter; going unavailable stops new offers (open ones stay); interview_slots caps.
 */
describe('recruiter availability and round-robin', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: { MATCHMAKER_INTERVAL_MS: '50', QUEUE_ENTRY_TTL_MS: '600000', MATCH_ACCEPT_WINDOW_MS: '600000' },
    });
  }, 60_000);
  afterAll(async () => h?.close());

  const setAvailability = async (r: TestUser, event: EventFixture, body: { available: boolean; capacity?: number }) => {
    const res = await h.call({
      method: 'PUT',
      url: `/api/v1/team/live-events/${event.id}/availability`,
      token: r.token,
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    return res.json().matching;
  };
  /** Active offers per recruiter never exceed their capacity, and the event never exceeds its slots (SQL). */
  const overCapacity = async (eventId: string) => {
    const { rows } = await h.knex.raw(
      `SELECT 'recruiter' AS what, r.user_id::text AS id FROM recruiter_availability r
         WHERE r.live_event_id = ? AND r.capacity < (SELECT count(*) FROM match_offers o WHERE o.live_event_id = r.live_event_id AND o.recruiter_user_id = r.user_id AND o.status IN ('offering', 'started'))
       UNION ALL
       SELECT 'event', e.id::text FROM live_events e
         WHERE e.id = ? AND e.interview_slots < (SELECT count(*) FROM match_offers o WHERE o.live_event_id = e.id AND o.status IN ('offering', 'started'))`,
      [eventId, eventId],
    );
    return rows;
  };

  it(
    'two recruiters with capacity 1, three seekers: one offer each, the third waits; ' +
      'unavailable stops offers; the match names its recruiter',
    async () => {
      const r1 = await h.recruiter();
      const r2 = await h.recruiter({ teamId: r1.teamId! });
      const event = await createLiveEvent(h, { teamId: r1.teamId!, slots: 10 });
      await createJob(h, { event });
      await setAvailability(r1, event, { available: true, capacity: 1 });
      const settings = await setAvailability(r2, event, { available: true, capacity: 1 });
      expect(settings.recruiters.map((r: { user_id: string }) => r.user_id).sort()).toEqual(
        [r1.user.id, r2.user.id].sort(),
      );

      const seekers = [await h.seeker(), await h.seeker(), await h.seeker()];
      for (const s of seekers) await join(h, s, event.slug);
      const m1 = await matchOf(h, seekers[0].user.id);
      const m2 = await matchOf(h, seekers[1].user.id);
      expect([m1.recruiter_user_id, m2.recruiter_user_id].sort()).toEqual([r1.user.id, r2.user.id].sort());
      // The API names the recruiter too.
      const listed = (await h.call({ method: 'GET', url: '/api/v1/matches', token: seekers[0].token })).json()
        .matches[0];
      expect(listed).toMatchObject({ id: m1.id, recruiter_user_id: m1.recruiter_user_id });
      // Both recruiters are full: a round offers nothing to the third seeker although slots are free.
      expect((await matchmakingActivities(h).runMatchingRound({ batchSize: 500 })).offered).toBe(0);
      expect(await overCapacity(event.id)).toEqual([]);

      // The recruiter of m2 goes unavailable; m2 is declined (its open offer stayed until then): no offer to them.
      const r2IsM2 = m2.recruiter_user_id === r2.user.id;
      const [busy, leaving] = r2IsM2 ? [r1, r2] : [r2, r1];
      await setAvailability(leaving, event, { available: false });
      expect((await h.knex('matches').where({ id: m2.id }).first()).status).toBe('matched');
      const declined = await h.call({
        method: 'POST',
        url: `/api/v1/matches/${m2.id}/decline`,
        token: seekers[1].token,
        payload: { reason: 'not for me', reason_code: 'location' },
      });
      expect(declined.statusCode).toBe(200);
      expect(declined.json().match).toMatchObject({ decline_reason_code: 'location', decline_reason: 'not for me' });
      await eventually(
        async () =>
          (await h.knex('queue_entries').where({ user_id: seekers[1].user.id }).orderBy('entered_at', 'desc').first())
            ?.status === 'waiting',
      );
      expect((await matchmakingActivities(h).runMatchingRound({ batchSize: 500 })).offered).toBe(0);
      expect(await h.knex('matches').where({ seeker_user_id: seekers[2].user.id })).toHaveLength(0);

      // Back to available: the third seeker is offered to them.
      await setAvailability(leaving, event, { available: true });
      const m3 = await matchOf(h, seekers[2].user.id);
      expect(m3.recruiter_user_id).toBe(leaving.user.id);
      expect(busy.user.id).not.toBe(leaving.user.id);
      expect(await overCapacity(event.id)).toEqual([]);
    },
    60_000,
  );

  it(
    'round-robin by least recent offer: two recruiters with capacity 3, three seekers → 2 and ' + '1, not 3 and 0',
    async () => {
      const r1 = await h.recruiter();
      const r2 = await h.recruiter({ teamId: r1.teamId! });
      const event = await createLiveEvent(h, { teamId: r1.teamId!, slots: 10 });
      await createJob(h, { event });
      // Capacity 3 each: either recruiter could take all three, so 2 and 1 is the round-robin's doing.
      await setAvailability(r1, event, { available: true, capacity: 3 });
      await setAvailability(r2, event, { available: true, capacity: 3 });
      const seekers = [await h.seeker(), await h.seeker(), await h.seeker()];
      for (const s of seekers) await join(h, s, event.slug);
      const ms = [];
      for (const s of seekers) ms.push(await matchOf(h, s.user.id));
      const per = new Map<string, number>();
      for (const m of ms) per.set(m.recruiter_user_id, (per.get(m.recruiter_user_id) ?? 0) + 1);
      // (Not checked by created_at order: offers held in one transaction share its now().)
      expect([...per.values()].sort()).toEqual([1, 2]);
      expect(await h.knex('match_offers').where({ live_event_id: event.id })).toHaveLength(3);
      expect(await overCapacity(event.id)).toEqual([]);
    },
    60_000,
  );

  it("another team cannot see or set an event's matching settings (404); bad capacity → 400", async () => {
    const r1 = await h.recruiter();
    const other = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r1.teamId!, slots: 1 });
    expect(
      (await h.call({ method: 'GET', url: `/api/v1/team/live-events/${event.id}/matching`, token: other.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await h.call({
          method: 'PUT',
          url: `/api/v1/team/live-events/${event.id}/availability`,
          token: other.token,
          payload: { available: true },
        })
      ).statusCode,
    ).toBe(404);
    const bad = await h.call({
      method: 'PUT',
      url: `/api/v1/team/live-events/${event.id}/availability`,
      token: r1.token,
      payload: { available: true, capacity: 0 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION');
    const floor = await h.call({
      method: 'PATCH',
      url: `/api/v1/team/live-events/${event.id}/matching`,
      token: r1.token,
      payload: { min_score: 70 },
    });
    expect(floor.json().matching).toMatchObject({
      min_score: 70,
      require_essential: null,
      default_min_score: 50,
      recruiters: [],
    });
  });
});
